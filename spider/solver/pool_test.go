package solver

import (
	"context"
	"fmt"
	"testing"
	"time"

	"cardtable/spider"
)

func TestPoolCandidate(t *testing.T) {
	seen := map[uint64]bool{}
	var low, high int
	const n = 1000
	for i := range uint64(n) {
		d := PoolCandidate(24, spider.Arachnid, 4, i)
		if d != PoolCandidate(24, spider.Arachnid, 4, i) {
			t.Fatal("not deterministic")
		}
		if d == 0 || seen[d] {
			t.Fatalf("index %d: deal %d is zero or repeated", i, d)
		}
		seen[d] = true
		if d < 1<<62 {
			low++
		}
		if d >= 3<<62 {
			high++
		}
	}
	// Spread over the whole range: about a quarter in each end quarter.
	if low < n/5 || high < n/5 {
		t.Errorf("%d in the lowest quarter of the range, %d in the highest, of %d", low, high, n)
	}
	for _, tc := range []struct {
		seed  uint64
		v     spider.Variant
		suits int
	}{{25, spider.Arachnid, 4}, {24, spider.Spider, 4}, {24, spider.Arachnid, 2}} {
		if seen[PoolCandidate(tc.seed, tc.v, tc.suits, 0)] {
			t.Errorf("%+v shares deals with seed 24 arachnid 4", tc)
		}
	}
}

// proven fails t unless deal n solves as a win.
func proven(t testing.TB, v spider.Variant, suits int, n uint64) {
	t.Helper()
	r, ok := ProveWinnable(context.Background(), n, v, suits, Limits{Nodes: 50_000_000})
	if !ok {
		t.Fatalf("%s %d suits deal %d: %s after %d nodes", v, suits, n, r.Status, r.Nodes)
	}
	p, _ := spider.NewDeal(n, v, spider.Rules{Suits: suits})
	replay(t, p, r.Moves)
}

// seq is a random function giving the values in turn, then the last.
func seq(vals ...uint64) func(uint64) uint64 {
	return func(n uint64) uint64 {
		v := vals[0]
		if len(vals) > 1 {
			vals = vals[1:]
		}
		return v % n
	}
}

func TestPoolDraw(t *testing.T) {
	p := NewPool()
	emb := WinnableCount(spider.Spider, 1)
	// Draws of the embedded deals are cached ones, and proven (a sample:
	// the last, a pool deal from the whole range; TestWinnableCache
	// solves more).
	for _, i := range []uint64{0, uint64(emb - 1)} {
		n, ok := p.Draw(spider.Spider, 1, "", seq(i))
		want, _ := WinnableDeal(spider.Spider, 1, i)
		if !ok || n != want {
			t.Fatalf("draw %d: %d %v, want %d", i, n, ok, want)
		}
		if i > 0 {
			proven(t, spider.Spider, 1, n)
		}
	}
	// A fresh deal, proven here, is drawn after the embedded ones.
	fresh := PoolCandidate(7, spider.Spider, 1, 0)
	proven(t, spider.Spider, 1, fresh)
	p.Add(spider.Spider, 1, fresh)
	if n, _ := p.Draw(spider.Spider, 1, "", seq(uint64(emb))); n != fresh {
		t.Errorf("draw past the embedded deals: %d, want the fresh %d", n, fresh)
	}
	if _, ok := p.Draw(spider.Spider, 3, "", seq(0)); ok {
		t.Error("3 suits: a draw from an empty pool")
	}
	if n, ok := p.Draw(spider.Arachnid, 0, "", seq(0)); !ok || n == 0 {
		t.Error("suits 0 means 4")
	}
}

func TestPoolDrawAvoidsRecent(t *testing.T) {
	p := NewPool()
	a, _ := p.Draw(spider.Arachnid, 1, "ann", seq(0))
	// Ann was dealt a: the same pick is tried again, then another.
	b, _ := p.Draw(spider.Arachnid, 1, "ann", seq(0, 1))
	if b == a {
		t.Errorf("ann got deal %d twice in a row", a)
	}
	// Bob has not been dealt a.
	if c, _ := p.Draw(spider.Arachnid, 1, "bob", seq(0, 1)); c != a {
		t.Errorf("bob: %d, want %d", c, a)
	}
	// Nobody in particular: nothing remembered.
	x, _ := p.Draw(spider.Arachnid, 1, "", seq(0, 1))
	if y, _ := p.Draw(spider.Arachnid, 1, "", seq(0, 1)); x != a || y != a {
		t.Errorf("anonymous draws %d, %d: want %d both times", x, y, a)
	}
}

func TestPoolBounds(t *testing.T) {
	p := NewPool()
	for i := range uint64(FreshMax + 10) {
		p.Add(spider.Arachnid, 2, i+1)
	}
	if n := p.Fresh(spider.Arachnid, 2); n != FreshMax {
		t.Errorf("%d fresh deals held, want at most %d", n, FreshMax)
	}
	// The oldest went first.
	if n, _ := p.Draw(spider.Arachnid, 2, "", seq(uint64(WinnableCount(spider.Arachnid, 2)))); n != 11 {
		t.Errorf("oldest fresh deal held: %d, want 11", n)
	}
	for i := range PlayersMax + 5 {
		p.Draw(spider.Arachnid, 1, fmt.Sprint("player", i), seq(uint64(i)))
	}
	for j := range RecentMax + 5 {
		p.Draw(spider.Arachnid, 1, "player1004", seq(uint64(j)))
	}
	if len(p.recent) != PlayersMax || len(p.order) != PlayersMax {
		t.Errorf("%d players remembered (%d in order), want %d", len(p.recent), len(p.order), PlayersMax)
	}
	if n := len(p.recent["player1004"]); n != RecentMax {
		t.Errorf("%d draws remembered for a player, want %d", n, RecentMax)
	}
	for k, s := range p.recent {
		if len(s) > RecentMax {
			t.Fatalf("%s: %d draws remembered", k, len(s))
		}
	}
	if _, ok := p.recent["player0"]; ok {
		t.Error("the oldest player is still remembered")
	}
}

func TestPoolTop(t *testing.T) {
	p := NewPool()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var i uint64
	got := make(chan uint64, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Top(ctx, TopOptions{
			Kinds:  []spider.Options{{Variant: spider.Arachnid, Suits: 1}},
			Limits: Limits{Nodes: 1_000_000},
			Pause:  time.Millisecond,
			Random: func() uint64 { i++; return PoolCandidate(99, spider.Arachnid, 1, i) },
			Proven: func(_ spider.Options, n uint64) { got <- n },
		})
	}()
	a, b := <-got, <-got
	cancel()
	<-done // Top returns once its context is done
	n := p.Fresh(spider.Arachnid, 1)
	if n < 2 {
		t.Fatalf("%d fresh deals after two proven", n)
	}
	proven(t, spider.Arachnid, 1, b)
	// The fresh deals are drawn past the embedded ones.
	emb := uint64(WinnableCount(spider.Arachnid, 1))
	if d, _ := p.Draw(spider.Arachnid, 1, "", seq(emb)); d != a {
		t.Errorf("first fresh draw %d, want %d", d, a)
	}
}
