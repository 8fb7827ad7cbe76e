package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"cardtable/arlington"
	"cardtable/arlington/bot"
)

// arlSeatStats is one --seats entry's results, in the --json output.
type arlSeatStats struct {
	Bot           string     `json:"bot"`
	Wins          float64    `json:"wins"` // a shared win counts 1/k to each of k winners
	WinShare      float64    `json:"winShare"`
	WinShareCI95  [2]float64 `json:"winShareCi95"`
	MeanPoints    float64    `json:"meanPoints"` // final total, per game
	PointsPerHand float64    `json:"pointsPerHand"`
}

type arlSelfplayReport struct {
	Players   int            `json:"players"`
	Games     int            `json:"games"`
	Deals     int            `json:"deals"`
	Duplicate bool           `json:"duplicate"`
	Target    int            `json:"target"`
	Hands     int            `json:"hands"`
	Actions   int            `json:"actions"`
	Seconds   float64        `json:"seconds"`
	Seats     []arlSeatStats `json:"seats"`
}

// arlDeal is one deal's games: with --duplicate one game per rotation of
// the seats, else one game. wins[k] and points[k] are --seats entry k's
// win fraction and final total summed over the deal's games.
type arlDeal struct {
	games, hands, actions int
	wins                  []float64
	points                []float64
}

func runArlingtonSelfplay(fs *pflag.FlagSet) runFunc {
	var f arlTableFlags
	f.register(fs, 100)
	dup := fs.Bool("duplicate", false, "play each deal once per rotation of the seats, so the luck of the cards cancels (--games counts deals)")
	jobs := fs.Int("jobs", 1, "deals played at once")
	asJSON := fs.Bool("json", false, "print one JSON object: games, seats (bot, wins, winShare, winShareCi95, meanPoints)")
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("unexpected argument %q", pos[0])
		}
		names, err := f.bots()
		if err != nil {
			return err
		}
		if *jobs < 1 || *jobs > maxJobs {
			return flagErr("%s: want 1 to %d", flagValue("jobs", *jobs), maxJobs)
		}
		start := time.Now()
		deals, err := f.playDeals(ctx, env, names, *dup, *jobs)
		if err != nil {
			return err
		}
		rep := arlReport(names, deals, *dup)
		rep.Target, rep.Seconds = f.target, time.Since(start).Seconds()
		if *asJSON {
			b, err := json.Marshal(rep)
			if err != nil {
				return err
			}
			fmt.Fprintln(env.Stdout, string(b))
			return nil
		}
		kind := ""
		if *dup {
			kind = fmt.Sprintf(" (%s, duplicate: each played with the seats rotated)", plural(len(deals), "deal"))
		}
		fmt.Fprintf(env.Stdout, "arlington selfplay: %d players, %s%s, target %d, seeds %d to %d\n",
			f.players, plural(rep.Games, "game"), kind, f.target, f.seed, f.seed+uint64(f.games)-1)
		fmt.Fprintf(env.Stdout, "%-4s  %-7s  %8s  %7s  %11s  %12s  %s\n", "seat", "bot", "wins", "share", "points/hand", "points/game", "share 95% CI")
		for i, st := range rep.Seats {
			fmt.Fprintf(env.Stdout, "%-4d  %-7s  %8.1f  %6.1f%%  %11.2f  %12.2f  %.1f%%-%.1f%%\n", i+1, st.Bot, st.Wins, 100*st.WinShare,
				st.PointsPerHand, st.MeanPoints, 100*st.WinShareCI95[0], 100*st.WinShareCI95[1])
		}
		fmt.Fprintf(env.Stdout, "hands: %d (%.1f a game); cards and views checked after every one of %d actions; %.1f s\n",
			rep.Hands, float64(rep.Hands)/float64(rep.Games), rep.Actions, rep.Seconds)
		return nil
	}
}

// arlReport sums the deals. The confidence intervals treat deals as the
// independent samples (the games of one duplicate deal are not): the
// normal approximation, mean ± 1.96 standard errors, clipped to 0..1.
// Where that says nothing it would print a certainty: one deal has no
// spread, so its interval is all of 0..1; deals that all had the same
// share (a seat that won or lost every game) get the rule of three, ±3/m
// for m deals, the 95% bound for an event not seen in m tries.
func arlReport(names []string, deals []arlDeal, dup bool) arlSelfplayReport {
	n := len(names)
	rep := arlSelfplayReport{Players: n, Deals: len(deals), Duplicate: dup, Seats: make([]arlSeatStats, n)}
	for _, d := range deals {
		rep.Games += d.games
		rep.Hands += d.hands
		rep.Actions += d.actions
	}
	for k := range n {
		st := &rep.Seats[k]
		st.Bot = names[k]
		var sum, sq float64
		for _, d := range deals {
			st.Wins += d.wins[k]
			st.MeanPoints += d.points[k]
			x := d.wins[k] / float64(d.games)
			sum += x
			sq += x * x
		}
		m := float64(len(deals))
		st.WinShare = st.Wins / float64(rep.Games)
		st.MeanPoints /= float64(rep.Games)
		half := 1.0
		if m > 1 {
			variance := (sq - sum*sum/m) / (m - 1)
			half = 1.96 * math.Sqrt(max(variance, 0)/m)
			if variance <= 1e-12 {
				half = 3 / m
			}
		}
		st.WinShareCI95 = [2]float64{max(0, st.WinShare-half), min(1, st.WinShare+half)}
	}
	for k := range n {
		pts := 0.0
		for _, d := range deals {
			pts += d.points[k]
		}
		if rep.Hands > 0 {
			rep.Seats[k].PointsPerHand = pts / float64(rep.Hands)
		}
	}
	return rep
}

// playDeals plays --games deals on jobs goroutines and returns them in
// seed order (so the report does not depend on timing). Progress goes to
// standard error every ten seconds on long runs. Each goroutine exits
// when the deals run out, a game fails or ctx ends.
func (f *arlTableFlags) playDeals(ctx context.Context, env *Env, names []string, dup bool, jobs int) ([]arlDeal, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deals := make([]arlDeal, f.games)
	next := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	start, last := time.Now(), time.Now()
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				d, err := f.playDeal(ctx, names, f.seed+uint64(g), dup)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("deal %d (seed %d): %w", g+1, f.seed+uint64(g), err)
					cancel()
				}
				deals[g] = d
				done++
				if time.Since(last) > selfplayProgressEvery {
					last = time.Now()
					notef(env, "%d of %d deals, %.0f s", done, f.games, time.Since(start).Seconds())
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for g := range f.games {
		select {
		case next <- g:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return deals, nil
}

// playDeal plays one deal: with dup, once for each rotation r, seat i
// holding --seats entry (i+r) mod n. Every action is checked (cards
// accounted for, no hidden card in a view). Bots' seeds come from the
// deal's seed but apart from it (bot.SeatSeed of a salted seed).
func (f *arlTableFlags) playDeal(ctx context.Context, names []string, seed uint64, dup bool) (arlDeal, error) {
	n := len(names)
	d := arlDeal{wins: make([]float64, n), points: make([]float64, n)}
	cfg := arlington.Config{Players: n, Target: f.target}
	rotations := 1
	if dup {
		rotations = n
	}
	for r := range rotations {
		seats := make([]bot.Bot, n)
		entry := make([]int, n) // entry[seat] is the --seats index playing there
		for i := range n {
			entry[i] = (i + r) % n
			seats[i], _ = bot.New(names[entry[i]], bot.SeatSeed(seed^0x5eed_b075, r*n+i))
		}
		s, err := bot.Play(ctx, cfg, seed, seats, bot.Check)
		if err != nil {
			return d, err
		}
		d.games++
		d.hands += s.HandNumber()
		d.actions += len(s.History())
		w := s.Winners()
		for _, seat := range w {
			d.wins[entry[seat]] += 1 / float64(len(w))
		}
		for seat, t := range s.Totals() {
			d.points[entry[seat]] += float64(t)
		}
	}
	return d, nil
}

// selfplayProgressEvery is how often a self-play run says how far it has
// got, on standard error (a var so a test can see the line).
var selfplayProgressEvery = 10 * time.Second
