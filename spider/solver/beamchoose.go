package solver

import (
	"math"
	"slices"

	"cardtable/spider"
)

// Choosing the candidates of a beam's next level (beam.go): sorting them
// by evaluation, cutting each group, and hashing only those before the
// cut.

// choose lists in b.kept the candidates that may join the next level,
// best first, ties in the order met (so that the search is
// deterministic): about the n best of each group (of all candidates when
// the beam is not per stage), all those as good as the n-th. With the
// full-information evaluation, positions met before (at this level or an
// earlier one) are left out before the cut, so that a beam on a plateau
// keeps its width instead of dying out. Only the candidates that come
// before the cut are hashed (about two in five at 4 suits): the order is
// by evaluation, which expand computed for all.
func (b *beamer) choose(n, groups int) {
	b.sortCands()
	b.cut = append(b.cut[:0], make([]int32, groups)...)
	b.cnt = append(b.cnt[:0], make([]int, groups)...)
	b.kept = b.kept[:0]
	for order := b.order; len(order) > 0; {
		batch := order
		if b.fw != nil {
			batch = b.lookAhead(order, n)
		}
		for j, i := range batch {
			c := &b.cands[i]
			if b.cnt[c.g] >= n && c.eval < b.cut[c.g] {
				continue
			}
			if b.fw != nil && b.seen.hasAt(c.h, b.slot[j]) {
				continue
			}
			b.kept = append(b.kept, i)
			b.cnt[c.g]++
			if b.cnt[c.g] == n {
				b.cut[c.g] = c.eval
			}
		}
		order = order[len(batch):]
	}
}

// lookAhead hashes the next candidates of order that the cut leaves in
// (up to a batch of them: the cut may move within it), and reads their
// home slots in the set of positions met (b.slot, for seen.hasAt), one
// read after the other: the set is a few megabytes, and reads that do not
// wait for each other overlap. It returns the batch, to be taken in
// order.
func (b *beamer) lookAhead(order []int32, n int) []int32 {
	const size = 32
	batch := order[:min(size, len(order))]
	for _, i := range batch {
		if c := &b.cands[i]; b.cnt[c.g] < n || c.eval >= b.cut[c.g] {
			b.hashOf(i)
		}
	}
	b.slot = b.slot[:0]
	for _, i := range batch {
		b.slot = append(b.slot, b.seen.home(b.cands[i].h))
	}
	return batch
}

// sortCands puts in b.order the indexes of the candidates, higher
// evaluations first, ties in the order met. Evaluations span a few
// hundred points, so a counting sort does it in one pass; a wider span
// (never seen) is sorted by comparison.
func (b *beamer) sortCands() {
	lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
	for _, c := range b.cands {
		lo, hi = min(lo, c.eval), max(hi, c.eval)
	}
	b.order = slices.Grow(b.order[:0], len(b.cands))[:len(b.cands)]
	span := int64(hi) - int64(lo) + 1
	if span > int64(4*len(b.cands)+4096) {
		b.keys = b.keys[:0]
		for i, c := range b.cands {
			// The sign bit flipped and the rest inverted: higher first.
			b.keys = append(b.keys, uint64(uint32(c.eval)^0x7fffffff)<<32|uint64(i))
		}
		slices.Sort(b.keys)
		for j, key := range b.keys {
			b.order[j] = int32(uint32(key))
		}
		return
	}
	// Bucket v holds the evaluation hi-v; count[v] becomes where it starts.
	b.count = append(b.count[:0], make([]int32, span+1)...)
	for _, c := range b.cands {
		b.count[hi-c.eval+1]++
	}
	for v := 1; v < len(b.count); v++ {
		b.count[v] += b.count[v-1]
	}
	for i, c := range b.cands {
		v := hi - c.eval
		b.order[b.count[v]] = int32(i)
		b.count[v]++
	}
}

// hashOf is the i-th candidate's hash (hashPos of the child), computed
// the first time it is asked for from its parent's pile terms and the two
// piles its move changes (whose terms it keeps in ft).
func (b *beamer) hashOf(i int32) uint64 {
	c := &b.cands[i]
	if c.h != 0 {
		return c.h
	}
	p, t := &b.cur[c.parent], &b.terms[c.parent]
	if c.mv.Kind == spider.Deal {
		// Every pile changes (dealt without a removal: with one, expand
		// hashed it).
		u := p.Do(c.mv)
		c.h = nonzero(hashPos(p))
		p.Undo(c.mv, u)
		return c.h
	}
	var sum uint64
	for _, x := range t {
		sum += x
	}
	f, to, n := int(c.mv.From), int(c.mv.To), int(c.mv.Count)
	tf, tt := termLeave(p, f, n), termArrive(p, f, to, n)
	// A card move without a removal leaves hashBase as it was.
	c.h = nonzero(mix(sum - t[f] + tf + tt - t[to] + hashBase(p)))
	if len(b.ft) < len(b.cands) {
		b.ft = slices.Grow(b.ft, len(b.cands)-len(b.ft))[:len(b.cands)]
	}
	b.ft[i], c.lazy = [2]uint64{tf, tt}, true
	return c.h
}

// nonzero is h, or 1 for 0: the hash set stores 0 as 1, and a candidate's
// hash 0 means "not computed yet".
func nonzero(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}
