package solver

import (
	"math/rand/v2"
	"testing"

	"cardtable/card"
)

// TestBaseProofRoomFits: on small sets of loose cards and bases, the
// base proof's count of room agrees with trying every seating of the
// loose cards one by one (each on a card one rank higher, loose or a
// base's top, that holds no other, or alone on an empty base).
func TestBaseProofRoomFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(117, 5))
	var yes, no int
	for i := range 3000 {
		var s baseState
		low := card.Rank(1 + rng.IntN(10)) // ranks low..low+3
		var loose []card.Rank
		for range rng.IntN(7) {
			r := low + card.Rank(rng.IntN(4))
			s.loose[r][rng.IntN(4)]++
			loose = append(loose, r)
		}
		var tops []card.Rank // 0: an empty base
		for k := range 1 + rng.IntN(3) {
			if rng.IntN(3) == 0 {
				tops = append(tops, 0)
				continue
			}
			r := low + card.Rank(rng.IntN(5))
			s.base[k] = []card.Card{card.New(r, card.Spades)}
			tops = append(tops, r)
		}
		// The piles past the few in use end on an ace: no seat.
		for k := len(tops); k < len(s.base); k++ {
			s.base[k] = []card.Card{card.New(card.Ace, card.Clubs)}
		}
		m := s.room()
		got, want := m.fits(), seatable(loose, tops)
		if got != want {
			t.Errorf("set %d: loose %v, base tops %v (?: empty): fits %v, a seating exists %v", i, loose, tops, got, want)
		}
		if want {
			yes++
		} else {
			no++
		}
	}
	t.Logf("%d sets fit, %d do not", yes, no)
	if yes < 100 || no < 100 {
		t.Errorf("want at least 100 sets that fit and 100 that do not; got %d and %d", yes, no)
	}
}

// seatable reports whether the loose cards can each be seated on a
// distinct seat: a card one rank higher (loose or a base's top) or an
// empty base, tried every way.
func seatable(loose, tops []card.Rank) bool {
	type seat struct {
		rank card.Rank // 0: an empty base
		used bool
	}
	var seats []seat
	for _, r := range loose {
		seats = append(seats, seat{rank: r})
	}
	for _, r := range tops {
		seats = append(seats, seat{rank: r})
	}
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(loose) {
			return true
		}
		for j := range seats {
			if seats[j].used || (seats[j].rank != 0 && seats[j].rank != loose[i]+1) {
				continue
			}
			seats[j].used = true
			ok := try(i + 1)
			seats[j].used = false
			if ok {
				return true
			}
		}
		return false
	}
	return try(0)
}
