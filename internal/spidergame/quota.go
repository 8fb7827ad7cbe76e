package spidergame

import "fmt"

// SaveQuota bounds what one player keeps in named saves: their count, and
// their total size (bytes of save text). Named saves are never pruned, so
// without it a player could grow the database without end (a save at
// spider's move limit is about 1.3 MB). Every store enforces it alike
// (Admit).
type SaveQuota struct {
	Count int
	Bytes int64
}

// DefaultSaveQuota is what a player may keep unless the server is told
// otherwise (docs/api.md, "Named saved games"): 50 saves, 64 MiB, so fifty
// saves of the longest games still fit.
var DefaultSaveQuota = SaveQuota{Count: 50, Bytes: 64 << 20}

// OrDefault is q with each zero (or negative) field its default.
func (q SaveQuota) OrDefault() SaveQuota {
	if q.Count <= 0 {
		q.Count = DefaultSaveQuota.Count
	}
	if q.Bytes <= 0 {
		q.Bytes = DefaultSaveQuota.Bytes
	}
	return q
}

// Admit is nil if a save of size bytes fits beside used (the player's
// other saves), else ErrTooMany with what to do.
func (q SaveQuota) Admit(used SaveQuota, size int) error {
	if used.Count >= q.Count {
		return quotaError(fmt.Sprintf("you have %d saved games (the most a player keeps); delete one to save another", used.Count))
	}
	if used.Bytes+int64(size) > q.Bytes {
		return quotaError(fmt.Sprintf("your saved games take %s and this one %s more, past the %s a player keeps; delete some to save it",
			megabytes(used.Bytes), megabytes(int64(size)), megabytes(q.Bytes)))
	}
	return nil
}

// quotaError is ErrTooMany in words the player reads as they are: the
// 422 answer is the error's text, and "too many: you have 50 saved
// games" put the sentinel's name before the sentence (docs/api.md
// quotes it without).
type quotaError string

func (e quotaError) Error() string        { return string(e) }
func (e quotaError) Is(target error) bool { return target == ErrTooMany }

// megabytes writes n bytes for a player in the unit of --max-save-mb
// and the docs (MiB), so the limit reads as set: "64.0 MiB", not 67.1 MB.
func megabytes(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
