package solver

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"

	"cardtable/spider"
)

// winnableText lists deals the solver has proven winnable, one
// "VARIANT SUITS DEAL" line each. Regenerate or extend it with
//
//	cardtable spider bench --mode solve --variant arachnid --suits 4 --deals 1-200 --record spider/solver/winnable.txt
//
// for each variant and suit count (docs/solver.md). Most lines are the pool
// of deals spread over the whole range, appended by
//
//	cardtable spider pool --variant arachnid --suits 4 --count 2000 >> spider/solver/winnable.txt
//
// (docs/solver.md, "The winnable pool"). TestWinnableCache re-solves a
// sample of the entries.
//
//go:embed winnable.txt
var winnableText string

type variantSuits struct {
	v     spider.Variant
	suits int
}

var winnable = sync.OnceValue(func() map[variantSuits][]uint64 {
	m := map[variantSuits][]uint64{}
	seen := map[string]bool{}
	for line := range strings.Lines(winnableText) {
		f := strings.Fields(line)
		if len(f) != 3 || strings.HasPrefix(f[0], "#") || seen[strings.Join(f, " ")] {
			continue
		}
		seen[strings.Join(f, " ")] = true
		v, err1 := spider.ParseVariant(f[0])
		s, err2 := strconv.Atoi(f[1])
		n, err3 := strconv.ParseUint(f[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || n == 0 {
			continue
		}
		k := variantSuits{v, s}
		m[k] = append(m[k], n)
	}
	return m
})

// WinnableDeal returns a deal number proven winnable for the variant and
// suit count: the pick-th of the cached ones (modulo their number), so a
// random pick gives a random winnable deal. It reports false when none is
// cached for that combination.
func WinnableDeal(v spider.Variant, suits int, pick uint64) (uint64, bool) {
	if suits == 0 {
		suits = 4
	}
	ds := winnable()[variantSuits{v, suits}]
	if len(ds) == 0 {
		return 0, false
	}
	return ds[pick%uint64(len(ds))], true
}

// WinnableCount is the number of cached winnable deals for the variant and
// suit count.
func WinnableCount(v spider.Variant, suits int) int {
	if suits == 0 {
		suits = 4
	}
	return len(winnable()[variantSuits{v, suits}])
}
