package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// ArlConfig sets up an Arlington load run: live tables on a server, each
// seat of a person held by a simulated person with an identity of their
// own and a WebSocket of their own (docs/api.md, "Arlington tables").
type ArlConfig struct {
	URL      string // the server, e.g. http://127.0.0.1:8080
	Tables   int    // tables in play at once
	People   int    // seats per table held by simulated people (at least 2 without bots)
	Bots     int    // seats per table held by the server's bots
	BotLevel string // the bots' level ("" is random: the cheapest)
	Target   int    // the game's target score (0: the server's default)
	// Duration is how long the people play once every table is set up
	// and connected (setup is not measured); the play stops sooner once
	// MaxActions actions are acknowledged, if MaxActions > 0.
	Duration   time.Duration
	MaxActions int64
	// Think is a person's mean pause before acting (exponentially
	// distributed), 0 for none. It sets the action rate: one table has
	// one action in flight at a time, so Tables/Think actions a second.
	Think time.Duration
	Seed  uint64
	// Dialers is how many tables are set up at once (default 32).
	Dialers int
	// URLs, if set, are several servers (or entry points) of one
	// cluster: each request and each connection goes to the next in
	// turn, as through a load balancer without stickiness. URL is then
	// unused.
	URLs []string
	// ForwardedFor gives each table's people an address of their own,
	// 10.x.y.z in X-Forwarded-For, for servers that trust this client as
	// a proxy (serve --trusted-proxy 127.0.0.1): the bounds per client
	// address then apply per table, as to people on their own machines.
	ForwardedFor bool
	// Reconnect opens a connection that ended (a server killed) again,
	// through the next URL, instead of counting it an error; the view it
	// gets must hold every event seen before (ArlResult.Lost counts those
	// that do not), and each outage is noted (ArlResult.Outages).
	Reconnect bool
	// OnPlay, if set, is called when the play begins, after setup.
	OnPlay func()
}

// Latency is the distribution of one kind of latency.
type Latency struct {
	N                  int
	P50, P90, P99, Max time.Duration
}

func latencyOf(d []time.Duration) Latency {
	if len(d) == 0 {
		return Latency{}
	}
	slices.Sort(d)
	at := func(p int) time.Duration { return d[min(len(d)-1, len(d)*p/100)] }
	return Latency{N: len(d), P50: at(50), P90: at(90), P99: at(99), Max: d[len(d)-1]}
}

func (l Latency) String() string {
	return fmt.Sprintf("p50 %.2fms, p90 %.2fms, p99 %.2fms, max %.2fms (%d samples)",
		ms(l.P50), ms(l.P90), ms(l.P99), ms(l.Max), l.N)
}

// ArlResult is what an Arlington load run measured. Latency is from the
// moment a person sends an action to the moment a view that includes it
// arrives: Actor at the person who acted (the acknowledgement: the action
// is stored by then), Others at every other person at the table (the
// broadcast). All, the two together, is what the target is about.
type ArlResult struct {
	Tables, People, Bots int
	Think                time.Duration
	Setup                time.Duration // creating, joining and connecting every table
	Elapsed              time.Duration // the measured play
	Actions              int64         // actions sent by the people
	Over                 int64         // tables whose game ended during the run
	Errors               int64         // error messages, refused requests, dropped connections
	Missed               int64         // views not timed: their reader lagged sentKept actions behind
	Reconnects           int64         // connections opened again after they ended (Reconnect)
	Lost                 int64         // reconnections whose view lacked or changed events seen before
	Outages              []Outage      // every connection that ended and what followed (Reconnect)
	FirstError           string
	Actor, Others, All   Latency
}

// Outage is one person's connection ending during play: when it ended,
// when that person next had a view of the table (a server running it
// answered again), and when it next saw the table move on (a view with
// an event it had not seen before the end, which waits for someone's
// action too). Zero: never.
type Outage struct {
	Table                  string
	Seat                   int
	Ended, Served, MovedOn time.Time
	EventsBeforeLoss       int // events the person had seen when the connection ended
}

// ActionsPerSecond is the people's actions per second over the run.
func (r ArlResult) ActionsPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Actions) / r.Elapsed.Seconds()
}

func (r ArlResult) String() string {
	var b strings.Builder
	think := "no thinking"
	if r.Think > 0 {
		think = fmt.Sprintf("thinking %v an action on average", r.Think)
	}
	fmt.Fprintf(&b, "%d tables, %d people and %d bots each, %s: set up in %.1fs\n",
		r.Tables, r.People, r.Bots, think, r.Setup.Seconds())
	fmt.Fprintf(&b, "%d actions in %.1fs = %.0f actions/s; %d games over; %d errors; %d views not timed\n",
		r.Actions, r.Elapsed.Seconds(), r.ActionsPerSecond(), r.Over, r.Errors, r.Missed)
	fmt.Fprintf(&b, "action to view, all receivers: %v\n", r.All)
	fmt.Fprintf(&b, "  at the actor:    %v\n", r.Actor)
	fmt.Fprintf(&b, "  at the others:   %v", r.Others)
	if r.FirstError != "" {
		fmt.Fprintf(&b, "\nfirst error: %s", r.FirstError)
	}
	return b.String()
}

// arlRun is one run's shared state.
type arlRun struct {
	cfg     ArlConfig
	hc      *http.Client
	start   chan struct{} // closed when every table is connected: play
	errs    atomic.Int64
	missed  atomic.Int64
	over    atomic.Int64
	acts    atomic.Int64
	recon   atomic.Int64
	lost    atomic.Int64
	open    atomic.Int64 // the people's WebSockets open now
	made    atomic.Int64 // the tables this run has created
	nextURL atomic.Uint64
	errMu   sync.Mutex
	first   error
	tables  []*arlTable
	// wg holds the people's readers and their actions on the way; all
	// exit when the run's context ends.
	wg sync.WaitGroup
	// acked counts the actions acknowledged (timed at their actor);
	// enough is closed when it reaches MaxActions.
	acked      atomic.Int64
	enough     chan struct{}
	enoughOnce sync.Once
}

// ack counts an acknowledged action.
func (r *arlRun) ack() {
	if n := r.acked.Add(1); r.cfg.MaxActions > 0 && n >= r.cfg.MaxActions {
		r.enoughOnce.Do(func() { close(r.enough) })
	}
}

func (r *arlRun) fail(err error) {
	r.errs.Add(1)
	r.errMu.Lock()
	defer r.errMu.Unlock()
	if r.first == nil {
		r.first = err
	}
}

// arlTable is one table and the actions sent at it: the person who sends
// an action notes when and at which event count, and every person at the
// table times the first view past that count.
type arlTable struct {
	id     string
	people []*person
	xff    string // its people's X-Forwarded-For ("": none)

	mu   sync.Mutex
	seq  int                  // actions sent at this table
	sent [sentKept]sentAction // the latest actions sent, action n at n % sentKept
}

// sentAction is one action sent at a table, for timing its views.
type sentAction struct {
	seq    int       // its number at the table, from 1
	at     time.Time // when it was sent
	before int       // the event count it was chosen at
	actor  int       // its seat
}

// sentKept is how many of a table's latest actions the people can still
// time: a person whose reader lags further behind than that loses those
// samples (counted in ArlResult.Missed, never silently).
const sentKept = 16

// person is one simulated person: an identity, a seat and a WebSocket.
type person struct {
	t      *arlTable
	seat   int
	cookie string
	cmu    sync.Mutex   // guards c: the reader replaces it on a reconnect
	epoch  atomic.Int64 // connections opened again so far
	live   atomic.Bool  // c is open and counted in arlRun.open
	c      *websocket.Conn
	rng    *rand.Rand
	// Owned by the person's reader goroutine:
	seen    int // the last action (arlTable.seq) timed here
	acted   int // the event count of the last view this person acted on
	actor   []time.Duration
	others  []time.Duration
	have    int             // events seen so far
	lastEv  json.RawMessage // the last of them, as sent
	outages []Outage
}

// RunArlington sets up cfg.Tables tables, connects their people, lets
// them play for cfg.Duration and measures. The tables are left on the
// server (a finished run closes its connections; the server closes the
// tables once idle).
func RunArlington(ctx context.Context, cfg ArlConfig) (ArlResult, error) {
	if cfg.Tables < 1 || cfg.People < 1 || cfg.People+cfg.Bots < 2 || cfg.Bots < 0 {
		return ArlResult{}, errors.New("arlington load: want at least one table and two seats, one of them a person's")
	}
	if cfg.Dialers <= 0 {
		cfg.Dialers = 32
	}
	if cfg.BotLevel == "" {
		cfg.BotLevel = "random"
	}
	if len(cfg.URLs) == 0 {
		cfg.URLs = []string{cfg.URL}
	}
	tr := &http.Transport{MaxIdleConns: cfg.Dialers * 2, MaxIdleConnsPerHost: cfg.Dialers * 2,
		IdleConnTimeout: time.Minute}
	r := &arlRun{cfg: cfg, hc: &http.Client{Transport: tr, Timeout: time.Minute},
		start: make(chan struct{}), enough: make(chan struct{}), tables: make([]*arlTable, cfg.Tables)}
	defer tr.CloseIdleConnections()

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	res := ArlResult{Tables: cfg.Tables, People: cfg.People, Bots: cfg.Bots, Think: cfg.Think}
	t0 := time.Now()
	defer func() {
		cancel()
		r.wg.Wait()
	}()
	if err := r.setUp(runCtx); err != nil {
		return res, err
	}
	res.Setup = time.Since(t0)

	playCtx, stop := context.WithTimeout(runCtx, cfg.Duration)
	defer stop()
	if cfg.OnPlay != nil {
		cfg.OnPlay()
	}
	begin := time.Now()
	close(r.start)
	select {
	case <-playCtx.Done():
	case <-r.enough:
	}
	res.Elapsed = time.Since(begin)
	if err := ctx.Err(); err != nil {
		return res, err
	}
	cancel() // the readers and actions stop: their connections close
	r.wg.Wait()

	var actor, others []time.Duration
	for _, t := range r.tables {
		for _, p := range t.people {
			actor = append(actor, p.actor...)
			others = append(others, p.others...)
		}
	}
	all := append(slices.Clone(actor), others...)
	res.Actor, res.Others, res.All = latencyOf(actor), latencyOf(others), latencyOf(all)
	res.Actions, res.Over, res.Errors, res.Missed = r.acts.Load(), r.over.Load(), r.errs.Load(), r.missed.Load()
	res.Reconnects, res.Lost = r.recon.Load(), r.lost.Load()
	for _, t := range r.tables {
		for _, p := range t.people {
			res.Outages = append(res.Outages, p.outages...)
		}
	}
	if r.first != nil {
		res.FirstError = r.first.Error()
	}
	return res, nil
}

// setUp creates, joins and connects every table, Dialers at a time; each
// connected person's reader runs (in r.wg) until ctx ends.
func (r *arlRun) setUp(ctx context.Context) error {
	next := make(chan int)
	errc := make(chan error, r.cfg.Dialers)
	var wg sync.WaitGroup
	for range r.cfg.Dialers {
		// Each dialler exits when next closes or a table fails.
		wg.Go(func() {
			for i := range next {
				t, err := r.setUpTable(ctx, i)
				if err != nil {
					errc <- fmt.Errorf("table %d: %w", i, err)
					return
				}
				r.tables[i] = t
				for _, p := range t.people {
					r.wg.Go(func() { r.read(ctx, p) })
				}
			}
		})
	}
	var err error
feed:
	for i := range r.cfg.Tables {
		select {
		case next <- i:
		case err = <-errc:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errc:
		default:
		}
	}
	// A bound on tables is the run's error as it is, not table i's: the
	// tables being created when one was refused are made now, so only
	// now is their count known (the "table i:" wrapping's words would
	// keep an earlier one).
	if limit := (*AddressLimitError)(nil); errors.As(err, &limit) && limit.Tables {
		limit.Count = int(r.made.Load())
		return limit
	}
	if full := (*TableLimitError)(nil); errors.As(err, &full) {
		full.Count = int(r.made.Load())
		return full
	}
	return err
}

// setUpTable creates a table as its first person, seats every person
// (each a new identity: the server hands one to a request without a
// cookie) and connects them.
func (r *arlRun) setUpTable(ctx context.Context, i int) (*arlTable, error) {
	cfg := r.cfg
	bots := make([]string, cfg.People+cfg.Bots)
	for s := cfg.People; s < len(bots); s++ {
		bots[s] = cfg.BotLevel
	}
	var made struct {
		ID string `json:"id"`
	}
	body := map[string]any{"players": len(bots), "bots": bots, "target": cfg.Target, "turnSeconds": -1}
	xff := ""
	if cfg.ForwardedFor {
		xff = fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
	}
	cookie, err := r.post(ctx, "/api/arlington/tables", "", xff, body, http.StatusCreated, &made)
	if se := (*statusError)(nil); errors.As(err, &se) && se.code == http.StatusTooManyRequests {
		// Final (a rate limit's 429 was waited out): one of the
		// server's bounds on tables.
		return nil, tableRefused(se.body)
	}
	if err != nil {
		return nil, err
	}
	r.made.Add(1)
	t := &arlTable{id: made.ID, xff: xff}
	for s := range cfg.People {
		p := &person{t: t, seat: s, cookie: cookie, acted: -1,
			rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i)<<8|uint64(s)))}
		if s > 0 {
			p.cookie = ""
		}
		join := map[string]any{"name": fmt.Sprintf("load %d.%d", i, s), "seat": s}
		if p.cookie, err = r.post(ctx, "/api/arlington/tables/"+t.id+"/join", p.cookie, xff, join, http.StatusOK, nil); err != nil {
			return nil, err
		}
		t.people = append(t.people, p)
	}
	for _, p := range t.people {
		if err := r.connect(ctx, p); err != nil {
			for _, q := range t.people {
				if q.c != nil {
					r.closeConn(q)
				}
			}
			return nil, err
		}
	}
	return t, nil
}
