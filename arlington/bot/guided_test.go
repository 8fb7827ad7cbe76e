package bot

import (
	"context"
	"fmt"
	"testing"

	"cardtable/arlington"
)

// A guided tree, on one fixed world, grows the searching seat's own nodes
// below the root in greedy play's order (the first child added is one
// greedy would choose) and never wider than widthAt their visits; the
// other seats' nodes take every reply. The unguided tree (the control)
// breaks the bound and the order at the seat's own nodes, so the checks
// can fail.
func TestGuidedGrowth(t *testing.T) {
	s, err := arlington.New(arlington.Config{Players: 4}, 77)
	if err != nil {
		t.Fatal(err)
	}
	world := func(*arlington.Rand) (*arlington.State, error) { return s.Clone(), nil }
	me := s.ToMove()
	cands := s.Legal(me)
	for _, guided := range []bool{true, false} {
		t.Run(fmt.Sprintf("guided=%v", guided), func(t *testing.T) {
			b := NewISMCTS(Level{Name: "test"}, 1)
			r := arlington.NewRand(5)
			root := &isNode{seat: -1}
			for _, a := range cands {
				root.children = append(root.children, &isNode{seat: me, action: a})
			}
			for range 800 {
				if err := b.iterate(context.Background(), world, root, guided, r); err != nil {
					t.Fatal(err)
				}
			}
			var own, ownWide, ownNotGreedy, othersWide int
			var walk func(n *isNode, st *arlington.State)
			walk = func(n *isNode, st *arlington.State) {
				if n != root && len(n.children) > 0 {
					seat := st.ToMove()
					wide := len(n.children) > widthAt(n.visits)
					if seat != me {
						if wide {
							othersWide++
						}
					} else {
						own++
						if wide {
							ownWide++
						}
						// Greedy breaks ties at random: the first child
						// must score as well as every legal action.
						g, p := &Greedy{}, posOfState(st, seat)
						first := g.score(p, n.children[0].action)
						for _, a := range st.Legal(seat) {
							if g.score(p, a) > first {
								ownNotGreedy++
								break
							}
						}
					}
				}
				for _, c := range n.children {
					next := st.Clone()
					if err := next.Apply(next.ToMove(), c.action); err != nil {
						t.Fatal(err)
					}
					walk(c, next)
				}
			}
			walk(root, s.Clone())
			if own < 10 || othersWide == 0 {
				t.Fatalf("%d of the seat's own nodes below the root have children, %d of the others' nodes are wider than widthAt; want 10 and 1 or more", own, othersWide)
			}
			if guided && (ownWide > 0 || ownNotGreedy > 0) {
				t.Errorf("guided: of the seat's %d own nodes, %d wider than their visits allow, %d not first adding greedy's choice", own, ownWide, ownNotGreedy)
			}
			if !guided && (ownWide == 0 || ownNotGreedy == 0) {
				t.Errorf("unguided: of the seat's %d own nodes, %d too wide, %d not first adding greedy's choice; want some of each, or the checks could not fail", own, ownWide, ownNotGreedy)
			}
		})
	}
}

func TestWidthAt(t *testing.T) {
	for _, c := range []struct {
		visits float64
		want   int
	}{{1, 2}, {3, 2}, {4, 3}, {24, 5}, {25, 6}, {100, 11}} {
		if got := widthAt(c.visits); got != c.want {
			t.Errorf("widthAt(%v) = %d, want %d", c.visits, got, c.want)
		}
	}
}

// master guides its tree with 4 or more players only: its 2- and
// 3-player play, measured before, is unchanged.
func TestGuidedAt(t *testing.T) {
	for players := 2; players <= arlington.MaxSeats; players++ {
		if got, want := guidedAt(arlington.View{Players: players}), players >= 4; got != want {
			t.Errorf("guidedAt(%d players) = %v, want %v", players, got, want)
		}
	}
}
