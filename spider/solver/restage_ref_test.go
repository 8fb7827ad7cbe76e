package solver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"cardtable/spider"
)

// refStageSearch is stager.search as it was before it was made faster
// (26 November, acb6ec9): Legal filtered, every child hashed afresh, a
// Go map of the positions met. TestStageSearchMatchesReference holds the
// search to it.
func refStageSearch(s *stager, p *spider.Position, bound, limit int) ([]spider.Move, bool) {
	seen := map[uint64]int16{}
	s.start(p)
	if int(s.h) >= bound {
		return nil, false
	}
	s.push(0, s.h)
	for len(s.open) > 0 && s.gen < limit {
		i := s.pop().i
		g := s.nodes[i].g
		s.goTo(i)
		if s.h == 0 && s.cur.FaceDown() == 0 && s.cur.Won() {
			return s.path(i), true
		}
		if int(g)+int(s.h) >= bound || int(g)+1 >= bound {
			continue
		}
		for _, m := range s.cur.Legal(s.buf[:0]) {
			if m.Kind != spider.MoveCards || s.cur.Null(m) || pointless(&s.cur, m) {
				continue
			}
			s.gen++
			u, rm, ru := s.do(m)
			if h := s.h; int(g)+1+int(h) < bound {
				key := hashPos(&s.cur)
				if old, ok := seen[key]; !ok || old > g+1 {
					seen[key] = g + 1
					s.nodes = append(s.nodes, anode{parent: i, g: g + 1, mv: m, u: u, rm: rm, ru: ru})
					s.push(int32(len(s.nodes)-1), h)
				}
			}
			s.undo(m, u, rm, ru)
		}
	}
	return nil, false
}

// TestStageSearchMatchesReference: the search of the last stage finds
// the same line (or none) after the same positions as before it was
// made faster, on small endgames with bounds that prune and bounds that
// do not, and budgets that run out.
func TestStageSearchMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	found := 0
	for i := range 12 {
		p := layout(t, randomSmall(r), 4)
		for _, c := range []struct{ bound, limit int }{{30, 20_000}, {80, 20_000}, {80, 500}} {
			t.Run(fmt.Sprintf("endgame%d/bound%d/limit%d", i, c.bound, c.limit), func(t *testing.T) {
				var s, ref stager
				line, ok := s.search(p, c.bound, c.limit)
				want, wantOK := refStageSearch(&ref, p, c.bound, c.limit)
				if ok != wantOK || !slices.Equal(line, want) || s.gen != ref.gen || len(s.nodes) != len(ref.nodes) {
					t.Fatalf("found %v after %d positions (%d kept): %v; want %v after %d (%d): %v",
						ok, s.gen, len(s.nodes), line, wantOK, ref.gen, len(ref.nodes), want)
				}
				if ok {
					replay(t, p, line)
					found++
				}
			})
		}
	}
	if found == 0 {
		t.Error("no search found a line")
	}
}

// TestGmap: gmap answers as a Go map, key 0 and growth included.
func TestGmap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var m gmap
	want := map[uint64]int16{}
	for round := range 2 {
		for range 20_000 {
			k := r.Uint64N(30_000) * 0x9e3779b97f4a7c15 // 0 among them
			if v, ok := m.get(k); ok != (want[k] != 0) || v != want[k] {
				t.Fatalf("get(%x): %d %v, want %d", k, v, ok, want[k])
			}
			v := int16(1 + r.IntN(100))
			m.set(k, v)
			want[k] = v
		}
		if m.n+btoi(m.zero) != len(want) {
			t.Fatalf("%d keys, want %d", m.n+btoi(m.zero), len(want))
		}
		if round == 0 {
			m.reset()
			clear(want)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
