package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cardtable/card"
	"cardtable/spider"
)

// TestProveSkipsOnlyKnown: the moves the prover leaves out (reaches)
// change which moves it tries, never which positions it visits. On
// positions of 1-, 2- and 4-suit games, with and without the base proof,
// every proof that ends within its nodes ends as the proof trying every
// move: the same verdict, the same winning line, the same positions
// proven lost, in no more nodes; and the moves left out save nodes on
// some of them, with the stock dealt and with a row still to deal. It
// sweeps few positions in few nodes, enough to catch a rule that leaves
// out a move it must try; TestLongProveSkipsOnlyKnown sweeps many more.
func TestProveSkipsOnlyKnown(t *testing.T) {
	// Small layouts of 2 and 4 suits, or of 3 suits' cards, seldom end
	// within these nodes.
	proveSkipSweep(t, skipSweep{deals: 1, points: 1, small: map[int]int{1: 32}, keep: []int{2}, nodes: 2_000})
}

// TestLongProveSkipsOnlyKnown is TestProveSkipsOnlyKnown over more
// deals, more points of each, more small layouts and more nodes.
func TestLongProveSkipsOnlyKnown(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep; TestProveSkipsOnlyKnown covers it under -short")
	}
	t.Parallel()
	proveSkipSweep(t, skipSweep{deals: 2, points: 3, small: map[int]int{1: 32, 2: 32, 4: 32}, keep: []int{2, 3}, nodes: 20_000})
}

// skipSweep is how much of the sweep to run: the deals of each suit
// count, the points of each deal's greedy game, the small layouts of
// each suit count, how many suits' cards they keep (in turn), and the
// nodes of each proof.
type skipSweep struct {
	deals, points int
	small         map[int]int
	keep          []int
	nodes         int64
}

func proveSkipSweep(t *testing.T, sw skipSweep) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	var decided, lost, saved, savedDealt, savedStock int
	for _, suits := range []int{1, 2, 4} {
		var starts []spider.Position
		for d := uint64(1); d <= uint64(sw.deals); d++ {
			starts = append(starts, skipStarts(t, rng, d, suits, sw.points)...)
		}
		for i := range sw.small[suits] {
			starts = append(starts, smallLayout(t, rng, suits, sw.keep[i%len(sw.keep)], i%3 != 0))
		}
		for i, q := range starts {
			for _, bases := range []bool{false, true} {
				t.Run(fmt.Sprintf("%dsuits/start%d/base%v", suits, i, bases), func(t *testing.T) {
					var b, rb *baseProofs
					if bases {
						b, rb = newBaseProofs(baseStatesMax), newBaseProofs(baseStatesMax)
					}
					lt, rlt := &lostTable{max: 1 << 22}, &lostTable{max: 1 << 22}
					got := newProverWith(&q, lt, b).resume(ctx, Limits{Nodes: sw.nodes})
					want := (&prover{p: q, lost: rlt, bases: rb, every: true}).start(&q).resume(ctx, Limits{Nodes: sw.nodes})
					if want.Status == Unknown {
						return
					}
					decided++
					if got.Status != want.Status || !slices.Equal(got.Moves, want.Moves) || lt.set.n != rlt.set.n || got.Nodes > want.Nodes {
						t.Fatalf("%s in %d nodes (%d positions proven lost), every move tried: %s in %d nodes (%d positions); lines equal: %v\n%s",
							got.Status, got.Nodes, lt.set.n, want.Status, want.Nodes, rlt.set.n, slices.Equal(got.Moves, want.Moves), q.FormatLayout())
					}
					if want.Status == Unsolvable {
						lost++
					}
					if got.Nodes < want.Nodes {
						saved++
						if q.StockLen() == 0 {
							savedDealt++
						} else {
							savedStock++
						}
					}
				})
			}
		}
	}
	t.Logf("%d proofs ended, %d of them lost; the left-out moves saved nodes on %d (%d with the stock dealt, %d with a row to deal)", decided, lost, saved, savedDealt, savedStock)
	if lost == 0 || lost == decided || savedDealt == 0 || savedStock == 0 {
		t.Errorf("want proofs lost and won, and nodes saved with the stock dealt and with a row to deal")
	}
}

// skipStarts are positions of deal d's greedy game and random walks
// from its last points (every third of them, from the end): some with a
// row to deal, some with the stock dealt and spaces.
func skipStarts(tb testing.TB, rng *rand.Rand, d uint64, suits, points int) []spider.Position {
	tb.Helper()
	g, err := spider.NewGame(d, spider.Options{Variant: spider.Spider, Suits: suits})
	if err != nil {
		tb.Fatal(err)
	}
	PlayGreedy(g, 2000)
	w := &walker{g: g}
	n := g.MovesPlayed()
	var out []spider.Position
	for k := n; k >= 0 && k > n-3*points; k -= 3 {
		s := *w.at(k)
		out = append(out, s, walkFrom(rng, s, 5+rng.IntN(20)))
	}
	return out
}

// smallLayout is a random position of keep suits' cards (the others
// removed) at suits suits, with a row still to deal when stock: few
// enough cards for the prover to end, with spaces, cards face down and
// runs that can go back where they came from.
func smallLayout(tb testing.TB, rng *rand.Rand, suits, keep int, stock bool) spider.Position {
	tb.Helper()
	deck := card.SpiderDeck(suits)
	var in []card.Suit
	for _, c := range deck {
		if !slices.Contains(in, c.Suit()) {
			in = append(in, c.Suit())
		}
	}
	var cards []card.Card
	var done []string
	for i := range 8 {
		s := in[i%len(in)]
		if i >= keep {
			done = append(done, s.String())
			continue
		}
		for r := card.Rank(1); r <= 13; r++ {
			cards = append(cards, card.New(r, s))
		}
	}
	rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	var b strings.Builder
	if stock {
		fmt.Fprintf(&b, "row1: %s\n", card.Format(cards[:spider.Piles]))
		cards = cards[spider.Piles:]
	}
	piles := make([][]card.Card, spider.Piles)
	for _, c := range cards {
		k := rng.IntN(spider.Piles)
		piles[k] = append(piles[k], c)
	}
	for k, pl := range piles {
		fmt.Fprintf(&b, "pile%d:", k+1)
		down := 0
		if len(pl) > 1 {
			down = rng.IntN(len(pl))
		}
		for j, c := range pl {
			b.WriteByte(' ')
			if j < down {
				b.WriteByte('|')
			}
			b.WriteString(c.String())
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "completed: %s\n", strings.Join(done, " "))
	return *layout(tb, b.String(), suits)
}
