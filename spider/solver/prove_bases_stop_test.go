package solver

import (
	"math/rand/v2"
	"testing"

	"cardtable/card"
	"cardtable/spider"
)

// TestBaseProofStopsUnproven: positions the base proof does not prove
// lost (random walks off deal 4 at one and two suits, the stock dealt),
// their calls stopped after k states for several k: a stopped call
// proves nothing, every verdict it keeps is the one an unstopped proof of
// that state gives, and asked again without a stop it answers as a full
// call does. (With only positions truly lost, as in TestBaseProofStops,
// a stopped state counted lost would pass.)
func TestBaseProofStopsUnproven(t *testing.T) {
	// And point 53 of deal 1's greedy game, which it proves lost.
	qs := append(unprovenBases(t, 6), *(&walker{g: greedyGame(t, 1)}).at(53))
	truth := newBaseProofs(baseStatesMax) // never stopped: its verdicts are right
	var kept, calls int
	for i := range qs {
		q := &qs[i]
		full := newBaseProofs(baseStatesMax)
		want := full.proves(q, nil)
		for _, k := range []int{1, 3, 10, 30, 100, len(full.lost) / 2} {
			b := newBaseProofs(baseStatesMax)
			asked := 0
			if b.proves(q, func() bool { asked++; return asked > k }) {
				t.Errorf("position %d stopped after %d states: proven lost", i, k)
			}
			for key, v := range b.lost {
				kept++
				s := baseFromKey(key)
				if s.key() != key {
					t.Fatalf("a key read back keys as another")
				}
				if w := truth.state(s, &baseCall{}); v != w {
					t.Errorf("position %d stopped after %d states: a kept verdict %v, an unstopped proof's %v", i, k, v, w)
				}
			}
			if got := b.proves(q, nil); got != want {
				t.Errorf("position %d stopped after %d states, asked again: %v, a full call's %v", i, k, got, want)
			}
			calls++
		}
	}
	t.Logf("%d positions, %d stopped calls, %d verdicts kept, all as an unstopped proof's", len(qs), calls, kept)
}

// unprovenBases are n positions off deal 4 at one and two suits with the
// stock dealt, not won, that the base proof does not prove lost after
// visiting 20 states or more (so that stopping it part way means
// something).
func unprovenBases(t *testing.T, n int) []spider.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	var out []spider.Position
	for _, suits := range []int{1, 2} {
		for _, s := range baseStarts(t, 4, suits, 50_000) {
			for range 20 {
				q := walkFrom(rng, s, rng.IntN(40))
				if q.StockLen() > 0 || q.Won() {
					continue
				}
				b := newBaseProofs(baseStatesMax)
				if b.proves(&q, nil) || len(b.lost) < 20 {
					continue
				}
				if out = append(out, q); len(out) == n {
					return out
				}
			}
		}
	}
	t.Fatalf("%d positions the base proof does not prove after 20 states or more, want %d", len(out), n)
	return nil
}

// baseFromKey is the state whose key is key (baseState.key's layout).
func baseFromKey(key string) *baseState {
	s := &baseState{}
	i := 0
	for k := range s.base {
		s.down[k] = int(key[i])
		n := int(key[i+1])
		i += 2
		for range n {
			s.base[k] = append(s.base[k], card.Card(key[i]))
			i++
		}
	}
	for r := card.Ace; r <= card.King; r++ {
		for x := range 4 {
			s.loose[r][x] = int(key[i])
			i++
		}
	}
	s.removed = int(key[i])
	return s
}
