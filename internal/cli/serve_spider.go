package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"time"

	"cardtable/internal/web"
	"cardtable/internal/web/spiderweb"
	"cardtable/spider"
	"cardtable/spider/solver"
)

// The solver's services to the Spider pages: hints, the analysis of a
// finished game and winnable deals. Each is bounded in time and in how
// many run at once, so that the solver never takes the server from its
// players.

// Solver searches on the server are bounded so that they cannot take every
// core from the players: hints run at most one a core, deal searches one at
// a time.
var (
	hintSlots  = make(chan struct{}, runtime.NumCPU())
	dealSearch = make(chan struct{}, 1)
)

// acquire takes a slot, or gives up when ctx ends.
func acquire(ctx context.Context, slots chan struct{}) error {
	select {
	case slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// hintTimeout bounds a hint's search (a variable so that tests on a loaded
// machine can wait longer than a player would).
var hintTimeout = 10 * time.Second

// hintLines bounds the lines of earlier hints a server keeps (a line is
// at most a game's moves, 4 bytes each): about one for each game whose
// player asked for a hint, up to this many; a dropped one costs a new
// choice.
const hintLines = 10_000

// serveHint is the fair hint (solver.Hinter: it sees only what the player
// sees, and keeps to the line of the hint that led here), within
// hintTimeout.
func serveHint(ctx context.Context, hints *solver.Hinter, g *spider.Game) (spider.Move, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, hintTimeout)
	defer cancel()
	if err := acquire(ctx, hintSlots); err != nil {
		if parent.Err() != nil {
			return spider.Move{}, err // the player is gone
		}
		// Every core's hint taken for all of hintTimeout: the
		// machine's load, logged as a refusal for it (docs/hosting.md
		// "Logs"), not a fault.
		return spider.Move{}, web.Busy(web.Public(fmt.Errorf("%w: waiting for a solver core: %w", web.ErrUnavailable, err),
			"the server's hint searches are all taken; try again in a moment"))
	}
	defer func() { <-hintSlots }()
	m, err := hints.Hint(ctx, g)
	if errors.Is(err, solver.ErrNoMove) {
		return m, fmt.Errorf("%w: %w", spiderweb.ErrNoMove, err)
	}
	return m, err
}

// analysisLimits bound one analysis on the server: the command line's
// per-position default, 20 s in all, and smaller search tables than the
// command line's (a server has other work). The handler runs one at a time.
var analysisLimits = solver.AnalyzeLimits{
	Position: solver.Limits{Nodes: 1_000_000, MemoryBytes: 256 << 20},
	Total:    solver.Limits{Time: 20 * time.Second},
}

// serveAnalyze is the analysis of a game that is over (the handler checks
// that it is), within analysisLimits and the request's context.
func serveAnalyze(ctx context.Context, g *spider.Game) (*spiderweb.Analysis, error) {
	a := solver.Analyze(ctx, g, analysisLimits)
	if err := ctx.Err(); err != nil {
		return nil, err // the player is gone
	}
	return webAnalysis(a), nil
}

// webAnalysis is a in the web handlers' terms.
func webAnalysis(a *solver.Analysis) *spiderweb.Analysis {
	out := &spiderweb.Analysis{LastWinnable: a.LastWinnable, Line: a.Line, Complete: a.Complete(), TimeLimit: analysisLimits.Total.Time}
	for _, p := range a.Points {
		out.Results = append(out.Results, p.Verdict.String())
	}
	switch a.StoppedBy {
	case solver.TimeLimit:
		out.StoppedBy = "time"
	case solver.NodeLimit:
		out.StoppedBy = "nodes"
	case solver.Cancelled:
		out.StoppedBy = "cancelled"
	}
	return out
}

// Winnable deal search: a deal proven winnable from the solver's cache, else
// random deals tried with the full-information solver, each for a short
// time (a deal is winnable when the solver finds a win).
const (
	winnableTries = 10
	winnableTime  = 1500 * time.Millisecond
)

// poolTop is how the server tops up its winnable pool: one solve at a
// time, each bounded by nodes (about a second at four suits), with a pause
// between, so it uses at most about a sixth of one core.
func poolTop(log *slog.Logger) solver.TopOptions {
	var kinds []spider.Options
	for _, v := range []spider.Variant{spider.Arachnid, spider.Spider} {
		for _, s := range []int{1, 2, 4} {
			kinds = append(kinds, spider.Options{Variant: v, Suits: s})
		}
	}
	return solver.TopOptions{
		Kinds:  kinds,
		Limits: solver.Limits{Nodes: 3_000_000, MemoryBytes: 256 << 20},
		Pause:  5 * time.Second,
		Random: rand.Uint64,
		Proven: func(o spider.Options, n uint64) {
			log.Debug("winnable pool: deal proven", "variant", o.Variant.String(), "suits", o.Suits, "deal", n)
		},
	}
}

// serveWinnableDeal draws from the pool (instant); only a combination the
// pool has nothing for is searched on the request.
func serveWinnableDeal(ctx context.Context, pool *solver.Pool, o spider.Options) (uint64, bool, error) {
	if err := ctx.Err(); err != nil {
		return 0, false, err // the request is gone; nobody needs the deal
	}
	random := func(n uint64) uint64 { return rand.Uint64N(n) }
	if n, ok := pool.Draw(o.Variant, o.Suits, web.PlayerFromContext(ctx), random); ok {
		return n, true, nil
	}
	if err := acquire(ctx, dealSearch); err != nil {
		return 0, false, err
	}
	defer func() { <-dealSearch }()
	suits := o.Suits
	if suits == 0 {
		suits = 4 // as spider.NewGame reads it
	}
	for range winnableTries {
		n := rand.Uint64()
		if n == 0 {
			continue
		}
		// A verdict is all this needs: ProveWinnable skips Solve's further
		// searches for a short line. It proves the deal under the strict
		// rules, which the relaxed variant's deals also satisfy.
		_, ok := solver.ProveWinnable(ctx, n, o.Variant, suits, solver.Limits{Time: winnableTime, MemoryBytes: 256 << 20})
		if err := ctx.Err(); err != nil {
			return 0, false, err
		}
		if ok {
			return n, true, nil
		}
	}
	return 0, false, nil
}
