package spidergame

// NoRevision is the revision of a settings write that carries none (a
// page from before revisions): it is stored whatever is kept.
const NoRevision int64 = -1

// MaxRevision bounds a settings write's revision. The page's are times in
// milliseconds (about 1.8e12 today); the bound leaves room for ten
// thousand years of them while staying far inside the integers a
// browser's numbers hold exactly (2^53).
const MaxRevision int64 = 1e15
