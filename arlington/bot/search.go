package bot

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardtable/arlington"
)

// Level is a search bot's strength: how many worlds it samples, how long
// it may think and how much noise blurs its judgement.
type Level struct {
	Name string
	// Worlds is the node budget: worlds sampled per decision. Every
	// candidate action is played out once in each world.
	Worlds int
	// Time bounds a decision's thinking (0: no bound but ctx's deadline).
	// Past it the search stops and chooses from the worlds done.
	Time time.Duration
	// Noise is the standard deviation, in points, of the noise added to
	// each candidate's mean value before the best is taken: it makes the
	// weaker levels err as people do, on close calls.
	Noise float64
	// Candidates is how many actions, the greedy heuristic's best first,
	// are searched, besides the lead of the lowest card (candidates);
	// the rest are not considered.
	Candidates int
	// Workers is how many goroutines search (0: one per CPU, at most 4).
	Workers int
	// Tree makes the level an ISMCTS bot (ismcts.go) with the same
	// budget in play-outs, instead of the PIMC Search: ISMCTS beat the
	// search at equal budget (docs/bots.md), and the top level needs
	// that margin over the level below.
	Tree bool
}

// Levels are the named search levels, weakest first. Budgets are set so
// that each answers well within its time on the 2-core development
// machine (docs/bots.md has the measurements); Time is the hard stop.
var Levels = []Level{
	{Name: "easy", Worlds: 6, Time: 100 * time.Millisecond, Noise: 2, Candidates: 6},
	{Name: "medium", Worlds: 16, Time: 150 * time.Millisecond, Noise: 0.7, Candidates: 8},
	{Name: "hard", Worlds: 40, Time: 450 * time.Millisecond, Noise: 0.2, Candidates: 10},
	{Name: "expert", Worlds: 96, Time: 850 * time.Millisecond, Noise: 0, Candidates: 12, Tree: true},
}

// LevelNamed is the level called name, in any case and with spaces
// around it ignored, as New reads names.
func LevelNamed(name string) (Level, bool) {
	name = strings.TrimSpace(name)
	for _, l := range Levels {
		if strings.EqualFold(l.Name, name) {
			return l, true
		}
	}
	return Level{}, false
}

// Search is perfect-information Monte Carlo: for each decision it samples
// worlds consistent with its view (sample: the unseen cards dealt at
// random but the S2 as a kept card, the cards tricks revealed where they
// are known to be)
// and plays each candidate action out in each world to the end of the
// hand with greedy play for every seat, then takes the action with the
// best mean: its points for the hand less the best opponent's, with a
// bonus for winning when the hand ends the game.
type Search struct {
	lv Level
	r  *arlington.Rand
}

// NewSearch returns a search bot at level lv, seeded with seed.
func NewSearch(lv Level, seed uint64) *Search {
	return &Search{lv: lv, r: arlington.NewRand(seed)}
}

// Name is the level's name.
func (b *Search) Name() string { return b.lv.Name }

// winBonus is a won game's worth in points of hand difference.
const winBonus = 20

// Act searches and chooses. It answers within the level's Time and ctx's
// deadline: past either it chooses from the worlds searched so far (the
// greedy choice if none). A cancelled ctx returns its error.
func (b *Search) Act(ctx context.Context, v arlington.View) (arlington.Action, error) {
	cands, base, err := prepare(ctx, v, b.lv, b.r)
	if err != nil || len(cands) == 1 {
		return first(cands), err
	}
	sctx, cancel := bound(ctx, b.lv)
	defer cancel()
	sums, done, err := b.search(sctx, v, cands, base)
	if err := ctx.Err(); err != nil {
		return arlington.Action{}, err // cancelled by the caller, not our own deadline
	}
	if err != nil {
		return arlington.Action{}, err
	}
	if done == 0 {
		return cands[0], nil
	}
	best, bestV := 0, math.Inf(-1)
	for i, s := range sums {
		val := s/float64(done) + b.lv.Noise*normal(b.r)
		if val > bestV {
			best, bestV = i, val
		}
	}
	return cands[best], nil
}

// prepare is the start both searches share: the candidates (the greedy
// bot's best, at most lv.Candidates) and the decision's base seed. Every
// decision draws its seeds, so a game is reproducible from the bot's seed
// whatever the timing of the search's goroutines. No candidate is
// ErrNoAction; one needs no search.
func prepare(ctx context.Context, v arlington.View, lv Level, r *arlington.Rand) ([]arlington.Action, uint64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	p, err := posOfView(v)
	if err != nil {
		return nil, 0, err
	}
	base := r.Uint64()
	cands := candidates(NewGreedy(base), p, v.Legal(), lv.Candidates)
	if len(cands) == 0 {
		return nil, 0, fmt.Errorf("%w: seat %d", ErrNoAction, v.Seat)
	}
	return cands, base, nil
}

// first is cands[0], or the zero action when there is none.
func first(cands []arlington.Action) arlington.Action {
	if len(cands) == 0 {
		return arlington.Action{}
	}
	return cands[0]
}

// bound is ctx limited to the level's time bound, if it has one.
func bound(ctx context.Context, lv Level) (context.Context, context.CancelFunc) {
	if lv.Time > 0 {
		return context.WithTimeout(ctx, lv.Time)
	}
	return context.WithCancel(ctx)
}

// candidates is legal sorted by the greedy heuristic, best first, cut to
// at most k, and then the lead of the lowest card if the cut dropped it.
// The heuristic ranks leading a card it could use below everything and
// prefers the high ones, so a cut keeps the costly leads; the lowest card
// is the cheap one, the lead that strips a seat down to its last card
// (perhaps the S2) before a set is risked.
func candidates(g *Greedy, p pos, legal []arlington.Action, k int) []arlington.Action {
	type scored struct {
		a  arlington.Action
		sc int
	}
	s := make([]scored, len(legal))
	for i, a := range legal {
		s[i] = scored{a, g.score(p, a)}
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].sc > s[j].sc })
	low := -1
	for i, x := range s {
		if x.a.Kind == arlington.LeadCard && (low < 0 || rankOf(x.a.Card) < rankOf(s[low].a.Card)) {
			low = i
		}
	}
	if k > 0 && len(s) > k {
		if low >= k {
			s[k] = s[low]
			k++
		}
		s = s[:k]
	}
	out := make([]arlington.Action, len(s))
	for i := range s {
		out[i] = s[i].a
	}
	return out
}

// search plays every candidate out in up to lv.Worlds sampled worlds on
// several goroutines, and returns each candidate's summed value over the
// worlds finished. World w is drawn from a generator seeded by (base, w)
// and its results are summed in world order, so the answer depends only
// on the seed and how many worlds were finished. Each goroutine exits when
// the worlds run out or ctx ends.
func (b *Search) search(ctx context.Context, v arlington.View, cands []arlington.Action, base uint64) ([]float64, int, error) {
	worlds := max(1, b.lv.Worlds)
	workers := b.lv.Workers
	if workers <= 0 {
		workers = min(runtime.GOMAXPROCS(0), 4)
	}
	workers = min(workers, worlds)
	type result struct {
		w   int
		row []float64
	}
	var results []result
	var next atomic.Int64
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				w := int(next.Add(1) - 1)
				if w >= worlds || ctx.Err() != nil {
					return
				}
				row, err := playWorld(ctx, v, cands, SeatSeed(base, w))
				if err != nil {
					mu.Lock()
					if firstErr == nil && ctx.Err() == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				if row != nil {
					mu.Lock()
					results = append(results, result{w, row})
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, 0, firstErr
	}
	sort.Slice(results, func(i, j int) bool { return results[i].w < results[j].w })
	sums := make([]float64, len(cands))
	for _, res := range results {
		for i, x := range res.row {
			sums[i] += x
		}
	}
	return sums, len(results), nil
}

// playWorld samples one world and plays each candidate out in it. It
// returns nil values (no error) if ctx ends part way.
func playWorld(ctx context.Context, v arlington.View, cands []arlington.Action, seed uint64) ([]float64, error) {
	r := arlington.NewRand(seed)
	world, err := sample(v, r)
	if err != nil {
		return nil, err
	}
	row := make([]float64, len(cands))
	for i, a := range cands {
		if ctx.Err() != nil {
			return nil, nil
		}
		c := world.Clone()
		c.Reseed(r.Uint64())
		hand, before := c.HandNumber(), c.Totals()
		if err := c.Apply(v.Seat, a); err != nil {
			return nil, fmt.Errorf("candidate %v in a sampled world: %w", a, err)
		}
		vals, err := playOut(ctx, c, r.Uint64(), hand, before)
		if err != nil || vals == nil {
			return nil, err
		}
		row[i] = vals[v.Seat]
	}
	return row, nil
}

// playOut plays s with greedy play for every seat to the end of hand
// (which may have ended already) and values the result with handValues.
// It gives up (nil values, no error) if ctx ends, looking every 16
// actions, so that a loaded machine's slow play-out cannot carry a search
// far past its deadline.
func playOut(ctx context.Context, s *arlington.State, seed uint64, hand int, before []int) ([]float64, error) {
	if done, err := play(ctx, s, seed, hand, 0); !done || err != nil {
		return nil, err
	}
	return handValues(s, before), nil
}

// play is playOut's play: false if ctx ended first. With temp 0 every
// seat plays greedy; above 0 each draws its action by a softmax of the
// greedy score at that temperature (hundredths of a point, chooseSoft).
func play(ctx context.Context, s *arlington.State, seed uint64, hand, temp int) (bool, error) {
	g := NewGreedy(seed)
	for k := 0; !s.Terminal() && s.HandNumber() == hand; k++ {
		if k%16 == 15 && ctx.Err() != nil {
			return false, nil
		}
		seat := s.ToMove()
		var a arlington.Action
		var ok bool
		if temp > 0 {
			a, ok = g.chooseSoft(posOfState(s, seat), s.Legal(seat), temp)
		} else {
			a, ok = g.choose(posOfState(s, seat), s.Legal(seat))
		}
		if !ok {
			return false, fmt.Errorf("%w in a rollout (seat %d)", ErrNoAction, seat)
		}
		if err := s.Apply(seat, a); err != nil {
			return false, fmt.Errorf("rollout: %w", err)
		}
	}
	return true, nil
}

// handValues values a played-out hand for each seat: its points since
// the totals were before less the best of the others', plus winBonus
// (shared among winners) if the hand ended the game and it won, less
// winBonus if it lost.
func handValues(s *arlington.State, before []int) []float64 {
	return handOf(s.Totals(), before, s.Winners())
}

// handOf is handValues from the totals after and before the hand and the
// game's winners w (nil: the game goes on).
func handOf(after, before, w []int) []float64 {
	n := len(after)
	vals := make([]float64, n)
	for me := range n {
		other := math.Inf(-1)
		for i := range n {
			if i != me {
				other = max(other, float64(after[i]-before[i]))
			}
		}
		vals[me] = float64(after[me]-before[me]) - other
		vals[me] += winValue(w, me)
	}
	return vals
}

// winValue is winBonus shared among the winners w if seat is one of
// them, less winBonus if it is not, 0 if the game goes on (w nil).
func winValue(w []int, seat int) float64 {
	if w == nil {
		return 0
	}
	for _, x := range w {
		if x == seat {
			return winBonus / float64(len(w))
		}
	}
	return -winBonus
}

// normal is a standard normal draw (sum of twelve uniforms, less six).
func normal(r *arlington.Rand) float64 {
	x := 0.0
	for range 12 {
		x += float64(r.Uint64()>>11) / (1 << 53)
	}
	return x - 6
}
