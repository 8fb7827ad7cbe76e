// Package loadgen plays Spider over HTTP as many simulated players at once,
// to measure a server (cardtable serve bench, BenchmarkLoad). It speaks
// only the JSON API of docs/api.md.
package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"cardtable/spider"
)

// LoadConfig sets up a load run: simulated players playing over HTTP.
type LoadConfig struct {
	URL     string // the server, e.g. http://127.0.0.1:8080
	Games   int    // games in play at once
	Players int    // players sending requests at once, each owning Games/Players games
	// The run stops after Duration, or after MaxMoves accepted moves if
	// MaxMoves > 0, whichever comes first (Duration 0: MaxMoves only).
	Duration time.Duration
	MaxMoves int64
	Seed     uint64
	// Think is the mean pause of a player between moves (exponentially
	// distributed), 0 for none: with it the run offers a steady load
	// instead of saturating the server.
	Think time.Duration
}

// LoadResult is what a load run measured.
type LoadResult struct {
	Games, Players int
	Think          time.Duration
	Moves          int64 // commands answered 200 (moves, deals, undos)
	NewGames       int64 // games replaced during the run (stuck, won or long)
	Errors         int64 // answers other than the expected
	Elapsed        time.Duration
	P50, P99, Max  time.Duration // latency of the move requests
}

// MovesPerSecond is the accepted moves per second over the run.
func (r LoadResult) MovesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Moves) / r.Elapsed.Seconds()
}

func (r LoadResult) String() string {
	think := ""
	if r.Think > 0 {
		think = fmt.Sprintf(" (thinking %v a move on average)", r.Think)
	}
	return fmt.Sprintf("%d games, %d players%s: %d moves in %.1fs = %.0f moves/s; latency p50 %.2fms, p99 %.2fms, max %.2fms; %d games replaced, %d errors",
		r.Games, r.Players, think, r.Moves, r.Elapsed.Seconds(), r.MovesPerSecond(),
		ms(r.P50), ms(r.P99), ms(r.Max), r.NewGames, r.Errors)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// LoadRun is a set of games in play, ready to be played by Play.
type LoadRun struct {
	cfg    LoadConfig
	client *http.Client
	games  [][]*loadGame // per player
}

// loadGame is a player's game and the player's own copy of it: the client
// knows the deal number, so it can follow the game and always send moves the
// server will accept (as a good player would), which makes every request a
// stored move.
type loadGame struct {
	id     string
	mirror *spider.Game
}

// maxLoadMoves is when a simulated player gives up a game that wanders.
const maxLoadMoves = 300

// NewLoad starts cfg.Games games on the server.
func NewLoad(ctx context.Context, cfg LoadConfig) (*LoadRun, error) {
	if cfg.Games < 1 || cfg.Players < 1 {
		return nil, errors.New("load: want at least one game and one player")
	}
	cfg.Players = min(cfg.Players, cfg.Games)
	tr := &http.Transport{MaxIdleConns: cfg.Players * 2, MaxIdleConnsPerHost: cfg.Players * 2,
		IdleConnTimeout: time.Minute}
	// One player identity (cookie) for the whole run: its games are its own.
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	lr := &LoadRun{cfg: cfg, client: &http.Client{Transport: tr, Timeout: time.Minute, Jar: jar},
		games: make([][]*loadGame, cfg.Players)}
	rng := rand.New(rand.NewPCG(cfg.Seed, 1))
	for i := range cfg.Games {
		g, err := lr.newGame(ctx, rng, "")
		if err != nil {
			return nil, err
		}
		lr.games[i%cfg.Players] = append(lr.games[i%cfg.Players], g)
	}
	return lr, nil
}

// Load sets up and plays a run, for the command line.
func Load(ctx context.Context, cfg LoadConfig) (LoadResult, error) {
	lr, err := NewLoad(ctx, cfg)
	if err != nil {
		return LoadResult{}, err
	}
	defer lr.Close()
	return lr.Play(ctx)
}

// Close releases the run's connections.
func (lr *LoadRun) Close() { lr.client.CloseIdleConnections() }

func (lr *LoadRun) post(ctx context.Context, path string, body any, want int, v any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", lr.cfg.URL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := lr.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("POST %s: %s: %s", path, resp.Status, bytes.TrimSpace(data))
	}
	if v != nil {
		return json.Unmarshal(data, v)
	}
	return nil
}

var loadSuits = [3]int{1, 2, 4}

func (lr *LoadRun) newGame(ctx context.Context, rng *rand.Rand, previous string) (*loadGame, error) {
	o := spider.Options{Variant: spider.Variant(rng.IntN(2)), Suits: loadSuits[rng.IntN(3)]}
	body := newGameRequest{Variant: o.Variant.String(), Suits: o.Suits}
	path := "/api/games"
	if previous != "" {
		path += "?previous=" + previous
	}
	var r gameResponse
	if err := lr.post(ctx, path, body, http.StatusCreated, &r); err != nil {
		return nil, err
	}
	g, err := spider.NewGame(r.View.Deal, o)
	if err != nil {
		return nil, err
	}
	return &loadGame{id: r.ID, mirror: g}, nil
}

// pick chooses the player's next command: mostly a random legal move other
// than dealing (dealing when nothing else is left), sometimes an undo. ok is
// false when the game is over or has gone on long enough.
func pick(rng *rand.Rand, g *spider.Game, buf []spider.Move) (string, bool) {
	if g.Won() || g.MovesPlayed() >= maxLoadMoves {
		return "", false
	}
	if g.CanUndo() && rng.IntN(20) == 0 {
		return "undo", true
	}
	legal := g.Pos().Legal(buf[:0])
	var moves []spider.Move
	for _, m := range legal {
		if m.Kind != spider.Deal && !g.Pos().Null(m) {
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		for _, m := range legal {
			if m.Kind == spider.Deal {
				return m.String(), true
			}
		}
		return "", false
	}
	return moves[rng.IntN(len(moves))].String(), true
}

// Play runs the players until the configured duration or move count, and
// measures.
func (lr *LoadRun) Play(ctx context.Context) (LoadResult, error) {
	cfg := lr.cfg
	if err := lr.warmUp(ctx); err != nil {
		return LoadResult{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if cfg.Duration > 0 {
		var c context.CancelFunc
		ctx, c = context.WithTimeout(ctx, cfg.Duration)
		defer c()
	}
	t := &playTally{start: time.Now()}
	lat := make([][]time.Duration, cfg.Players)
	var wg sync.WaitGroup
	for p := range cfg.Players {
		// Each player exits when ctx ends or the move budget is spent.
		wg.Go(func() { lat[p] = lr.player(ctx, p, t) })
	}
	wg.Wait()
	res := LoadResult{Games: cfg.Games, Players: cfg.Players, Think: cfg.Think, Elapsed: time.Since(t.start),
		NewGames: t.newGames.Load(), Errors: t.errs.Load()}
	res.setLatencies(lat)
	return res, t.firstErr
}

// playTally is what the players of a run count together.
type playTally struct {
	start                 time.Time
	moves, newGames, errs atomic.Int64
	errOnce               sync.Once
	firstErr              error // the run's error: the first a player met
}

// fail counts an error; the first one, made by mk, is the run's.
func (t *playTally) fail(mk func() error) {
	t.errs.Add(1)
	t.errOnce.Do(func() { t.firstErr = mk() })
}

// player is player p's part of the run: it moves in its games in turn (a
// game with nothing left to play is replaced by a new one) until ctx ends,
// the run's move budget is spent or an answer is wrong, and returns the
// latencies of its moves.
func (lr *LoadRun) player(ctx context.Context, p int, t *playTally) (lat []time.Duration) {
	cfg := lr.cfg
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(p)+2))
	var buf [256]spider.Move
	mine := lr.games[p]
	for i := 0; ; i = (i + 1) % len(mine) {
		if ctx.Err() != nil {
			return lat
		}
		if !think(ctx, rng, cfg.Think) {
			return lat
		}
		g := mine[i]
		cmd, ok := pick(rng, g.mirror, buf[:])
		if !ok {
			ng, err := lr.newGame(ctx, rng, g.id)
			if err != nil {
				if ctx.Err() == nil {
					t.fail(func() error { return err })
				}
				return lat
			}
			mine[i] = ng
			t.newGames.Add(1)
			continue
		}
		if cfg.MaxMoves > 0 && t.moves.Add(1) > cfg.MaxMoves {
			return lat // the others finish their requests in flight
		}
		t0 := time.Now()
		var r gameResponse
		err := lr.post(ctx, "/api/games/"+g.id+"/commands", commandRequest{Cmd: cmd}, http.StatusOK, &r)
		d := time.Since(t0)
		if err != nil {
			if ctx.Err() != nil {
				return lat // the run ended mid-request
			}
			t.fail(func() error {
				return fmt.Errorf("%v into the run, after %v: %w", time.Since(t.start).Round(time.Millisecond), d.Round(time.Millisecond), err)
			})
			return lat
		}
		if cfg.MaxMoves == 0 {
			t.moves.Add(1)
		}
		lat = append(lat, d)
		if _, err := mirrorCommand(g.mirror, cmd); err != nil {
			t.fail(func() error { return fmt.Errorf("mirror refused %q: %w", cmd, err) })
			return lat
		}
	}
}

// think waits a player's pause before a move, drawn from an exponential
// distribution of mean mean (none if mean is 0); false if ctx ended first.
func think(ctx context.Context, rng *rand.Rand, mean time.Duration) bool {
	if mean <= 0 {
		return true
	}
	pause := time.Duration(rng.ExpFloat64() * float64(mean))
	select {
	case <-ctx.Done():
		return false
	case <-time.After(pause):
		return true
	}
}

// setLatencies sets the moves answered and their latency quantiles from
// every player's latencies.
func (r *LoadResult) setLatencies(lat [][]time.Duration) {
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	r.Moves = int64(len(all))
	if len(all) > 0 {
		slices.Sort(all)
		r.P50 = all[len(all)*50/100]
		r.P99 = all[min(len(all)-1, len(all)*99/100)]
		r.Max = all[len(all)-1]
	}
}

// warmUp has every player open its connection (one GET of its first game,
// all at once) before anything is measured: browsers keep their
// connections, so connection setup is not what a move costs. Without it,
// a thousand players dialling at once measure the kernel's SYN handling.
func (lr *LoadRun) warmUp(ctx context.Context) error {
	var wg sync.WaitGroup
	errs := make([]error, len(lr.games))
	for p, mine := range lr.games {
		wg.Go(func() {
			req, err := http.NewRequestWithContext(ctx, "GET", lr.cfg.URL+"/api/games/"+mine[0].id, nil)
			if err != nil {
				errs[p] = err
				return
			}
			resp, err := lr.client.Do(req)
			if err != nil {
				errs[p] = err
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// mirrorCommand plays a command on the player's copy.
func mirrorCommand(g *spider.Game, cmd string) (spider.Move, error) {
	c, err := spider.ParseCommand(cmd)
	if err != nil {
		return spider.Move{}, err
	}
	m, _, err := g.Apply(c)
	return m, err
}

// The API's request and answer shapes the run uses (docs/api.md): the
// generator is a client like the page, so it declares its own.
type (
	newGameRequest struct {
		Variant string `json:"variant"`
		Suits   int    `json:"suits"`
	}
	commandRequest struct {
		Cmd string `json:"cmd"`
	}
	gameResponse struct {
		ID   string      `json:"id"`
		View spider.View `json:"view"`
	}
)
