package solver

import (
	"context"
	"sync"
	"time"

	"cardtable/spider"
)

// PoolCandidate is the i-th deal number `cardtable spider pool` tries for
// the seed, variant and suit count: a SplitMix64 hash of the four, so the
// numbers spread uniformly over the whole range 1..2^64-1, a run can start
// at any index (--from) and the same flags give the same deals on every
// machine. It returns 0 (not a deal) with probability 2^-64; callers skip it.
func PoolCandidate(seed uint64, v spider.Variant, suits int, i uint64) uint64 {
	x := seed ^ uint64(v)<<56 ^ uint64(suits)<<48
	x = mix64(mix64(x) + i*0x9e3779b97f4a7c15)
	return x
}

// mix64 is SplitMix64's finalizer: a bijection that scatters nearby inputs.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// ProveWinnable solves deal n with every card known within lim and reports
// whether the solver found a winning line. Unknown (a limit ran out) and
// lost both report false: a pool holds only deals proven winnable.
func ProveWinnable(ctx context.Context, n uint64, v spider.Variant, suits int, lim Limits) (Result, bool) {
	p, err := spider.NewDeal(n, v, spider.Rules{Suits: suits})
	if err != nil {
		return Result{}, false
	}
	// A verdict is all a pool keeps: no further search for a short line.
	r := solveShort(ctx, p, lim, false)
	return r, r.Status == Solved
}

// Pool hands out deals proven winnable: the embedded cache (winnable.txt)
// plus fresh deals proven while the program runs (Top). Draw never solves,
// so it is instant. It is safe for concurrent use.
//
// Memory is bounded: at most FreshMax fresh deals are kept per variant and
// suit count (the oldest go first), and at most RecentMax recent draws per
// player are remembered.
type Pool struct {
	mu     sync.Mutex
	fresh  map[variantSuits][]uint64
	recent map[string][]uint64 // per player: the last deals drawn, oldest first
	order  []string            // players in recent, oldest first
}

// Bounds of a Pool's memory.
const (
	FreshMax   = 5000 // fresh deals kept per variant and suit count
	RecentMax  = 50   // recent draws remembered per player
	PlayersMax = 1000 // players remembered
)

// NewPool returns a pool holding the embedded deals and no fresh ones.
func NewPool() *Pool {
	return &Pool{fresh: map[variantSuits][]uint64{}, recent: map[string][]uint64{}}
}

// Add puts a deal proven winnable into the pool. Only a caller that has
// proven it (Top, a test with Solve) adds.
func (p *Pool) Add(v spider.Variant, suits int, n uint64) {
	if n == 0 {
		return
	}
	k := variantSuits{v, norm(suits)}
	p.mu.Lock()
	defer p.mu.Unlock()
	f := append(p.fresh[k], n)
	if len(f) > FreshMax {
		f = append(f[:0:0], f[len(f)-FreshMax:]...)
	}
	p.fresh[k] = f
}

// Fresh is the number of fresh deals held for the variant and suit count.
func (p *Pool) Fresh(v spider.Variant, suits int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.fresh[variantSuits{v, norm(suits)}])
}

func norm(suits int) int {
	if suits == 0 {
		return 4
	}
	return suits
}

// Draw picks a proven-winnable deal for the variant and suit count, using
// random for randomness (random(n) in [0, n)): uniform over the embedded
// and fresh deals, trying again (a few times) when the pick is one of the
// player's last RecentMax draws. player "" remembers nothing. ok is false
// when the pool has no deal for the combination.
func (p *Pool) Draw(v spider.Variant, suits int, player string, random func(n uint64) uint64) (uint64, bool) {
	suits = norm(suits)
	k := variantSuits{v, suits}
	emb := winnable()[k]
	p.mu.Lock()
	defer p.mu.Unlock()
	fr := p.fresh[k]
	total := uint64(len(emb) + len(fr))
	if total == 0 {
		return 0, false
	}
	seen := p.recent[player]
	var n uint64
	// With thousands of deals a repeat is rare, so a few tries are enough;
	// a tiny pool may still repeat rather than fail.
	for range 8 {
		i := random(total)
		if i < uint64(len(emb)) {
			n = emb[i]
		} else {
			n = fr[i-uint64(len(emb))]
		}
		if !contains(seen, n) {
			break
		}
	}
	if player != "" {
		p.remember(player, n)
	}
	return n, true
}

func contains(s []uint64, n uint64) bool {
	for _, x := range s {
		if x == n {
			return true
		}
	}
	return false
}

// remember records n as player's latest draw, within the bounds.
func (p *Pool) remember(player string, n uint64) {
	s, known := p.recent[player]
	if !known {
		if len(p.order) >= PlayersMax {
			delete(p.recent, p.order[0])
			p.order = append(p.order[:0:0], p.order[1:]...)
		}
		p.order = append(p.order, player)
	}
	s = append(s, n)
	if len(s) > RecentMax {
		s = append(s[:0:0], s[len(s)-RecentMax:]...)
	}
	p.recent[player] = s
}

// TopOptions are how Top proves fresh deals.
type TopOptions struct {
	// Kinds are the variants and suit counts to top up, in turn.
	Kinds []spider.Options
	// Limits bound each solve; Nodes keeps a solve's CPU time bounded
	// whatever the machine's load.
	Limits Limits
	// Pause is the wait between solves, so the solver takes at most a
	// share of one core.
	Pause time.Duration
	// Random gives the deal numbers to try (0 is skipped).
	Random func() uint64
	// Proven, when set, is called with each deal added (logging, tests).
	Proven func(o spider.Options, n uint64)
}

// Top proves random deals one at a time, in turn for each kind, and adds
// the winnable ones to the pool, until ctx is done; then it returns (its
// only exit). Run it in its own goroutine. It waits Pause before every
// solve, the first too, so a server that lives a moment proves nothing. It
// stops adding for a kind once FreshMax fresh deals are held for it.
func (p *Pool) Top(ctx context.Context, o TopOptions) {
	if len(o.Kinds) == 0 || o.Random == nil {
		return
	}
	t := time.NewTimer(o.Pause)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		k := o.Kinds[i%len(o.Kinds)]
		suits := norm(k.Suits)
		if n := o.Random(); n != 0 && p.Fresh(k.Variant, suits) < FreshMax {
			if _, ok := ProveWinnable(ctx, n, k.Variant, suits, o.Limits); ok {
				p.Add(k.Variant, suits, n)
				if o.Proven != nil {
					o.Proven(k, n)
				}
			}
		}
		t.Reset(o.Pause)
	}
}
