package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jackc/pgx/v5"

	"cardtable/arlington"
	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
)

// startNode starts a `cardtable serve` on db (this test binary acting as
// the program, asMain) on a free loopback port, trusting this client to
// name its people's addresses; it is killed when the test ends.
func startNode(t *testing.T, exe, db string) *node {
	t.Helper()
	nd, err := newNode(exe, db, nil, "--trusted-proxy", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := nd.start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nd.kill)
	return nd
}

// seatPlayer plays seat 0 of one table through whichever live server it
// draws at each connection, as a load balancer would send it, and
// reconnects with the event count it has whenever its connection ends.
type seatPlayer struct {
	id     string
	client *http.Client
	live   func() []string // the live servers' URLs

	mu     sync.Mutex
	have   int            // events seen
	events map[int]string // each event seen, as sent (compact JSON)
	views  []struct{ dialled, at time.Time }
	over   bool
}

func (p *seatPlayer) run(ctx context.Context) {
	for ctx.Err() == nil {
		urls := p.live()
		base := urls[rand.IntN(len(urls))]
		dialled := time.Now()
		u := "ws" + strings.TrimPrefix(base, "http") + "api/arlington/tables/" + p.id + "/ws"
		dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		conn, _, err := websocket.Dial(dctx, u, &websocket.DialOptions{HTTPClient: p.client})
		cancel()
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond): // as Retry-After asks, shortened
			}
			continue
		}
		p.serve(ctx, conn, dialled)
		conn.CloseNow()
	}
}

// serve reads views and plays the seat's turns until the connection ends.
func (p *seatPlayer) serve(ctx context.Context, conn *websocket.Conn, dialled time.Time) {
	p.mu.Lock()
	hello, _ := json.Marshal(map[string]any{"type": "hello", "since": p.have})
	p.mu.Unlock()
	if conn.Write(ctx, websocket.MessageText, hello) != nil {
		return
	}
	for {
		_, b, err := conn.Read(ctx)
		if err != nil {
			return
		}
		var m struct {
			Type   string   `json:"type"`
			Legal  []string `json:"legal"`
			Status string   `json:"status"`
			View   *struct {
				EventCount int               `json:"eventCount"`
				Events     []json.RawMessage `json:"events"`
			} `json:"view"`
		}
		if json.Unmarshal(b, &m) != nil || m.Type != "view" || m.View == nil {
			continue
		}
		p.mu.Lock()
		p.views = append(p.views, struct{ dialled, at time.Time }{dialled, time.Now()})
		for _, raw := range m.View.Events {
			var e struct{ N int }
			var buf bytes.Buffer
			if json.Unmarshal(raw, &e) == nil && json.Compact(&buf, raw) == nil {
				p.events[e.N] = buf.String()
			}
		}
		p.have = max(p.have, m.View.EventCount)
		p.over = m.Status == "over"
		p.mu.Unlock()
		if len(m.Legal) > 0 {
			time.Sleep(20 * time.Millisecond) // a person's pace, roughly: the bots wait on it
			msg, _ := json.Marshal(map[string]any{"type": "action", "action": m.Legal[0]})
			if conn.Write(ctx, websocket.MessageText, msg) != nil {
				return
			}
		}
	}
}

// resumed is when the table was first seen again on a connection dialled
// after at; zero if not yet.
func (p *seatPlayer) resumed(at time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, v := range p.views {
		if v.dialled.After(at) {
			return v.at
		}
	}
	return time.Time{}
}

// TestLongFailoverKills: three servers (the real binary) on one
// PostgreSQL, tables with a person (this test, through a server drawn at
// random at each connection) and two bots. Again and again the server
// holding the most tables is killed with -9 and started again; every
// table it held resumes on a survivor (the person's reconnection gets a
// view again), and at the end every event the person was sent is in the
// stored game, in order, the stored moves replaying cleanly: nothing
// acknowledged is lost or applied twice. It logs the failover times
// (kill to the table's first view again) with their p50 and p99; the
// kills are CARDTABLE_FAILOVER_KILLS (default 3). Last, a server is
// stopped with SIGTERM (a rolling restart): it exits 0 within 10 s and
// its tables are back on the others at once.
func TestLongFailoverKills(t *testing.T) {
	if testing.Short() {
		t.Skip("three server processes killed in turn; TestServersShareTables is the quick version")
	}
	kills := 3
	if v, err := strconv.Atoi(os.Getenv("CARDTABLE_FAILOVER_KILLS")); err == nil && v > 0 {
		kills = v
	}
	db := pgtest.DB(t)
	t.Setenv(asMain, "1") // the servers are this binary, acting as cardtable
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	procs := []*node{startNode(t, exe, db), startNode(t, exe, db), startNode(t, exe, db)}
	live := func() []string {
		mu.Lock()
		defer mu.Unlock()
		var out []string
		for _, p := range procs {
			out = append(out, p.url)
		}
		return out
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	const tables = 6
	var players []*seatPlayer
	for i := range tables {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
		base := procs[i%3].url
		id := newTable(t, c, base, `{"players":3,"target":300,"bots":["","random","random"]}`)
		resp, err := c.Post(base+"api/arlington/tables/"+id+"/join", "application/json", strings.NewReader(`{"name":"P"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("join: %s", resp.Status)
		}
		p := &seatPlayer{id: id, client: c, live: live, events: map[int]string{}}
		players = append(players, p)
		wg.Go(func() { p.run(ctx) })
	}
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var times, handoffs []time.Duration
	// Each round kills a server with -9; the last stops one with SIGTERM
	// (a rolling restart), which hands its tables over at once.
	for round := range kills + 1 {
		term := round == kills
		// The victim: the server holding the most tables in play.
		held := map[string][]string{}
		rows, err := conn.Query(ctx, `SELECT s.addr, t.id FROM live_tables t JOIN servers s ON s.id = t.owner WHERE t.status = 'open'`)
		if err != nil {
			t.Fatal(err)
		}
		var addr, id string
		if _, err := pgx.ForEachRow(rows, []any{&addr, &id}, func() error {
			held[addr] = append(held[addr], id)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		victim := -1
		for i, p := range procs {
			if victim < 0 || len(held[hostOf(t, p.url)]) > len(held[hostOf(t, procs[victim].url)]) {
				victim = i
			}
		}
		ids := held[hostOf(t, procs[victim].url)]
		if len(ids) == 0 {
			t.Logf("round %d: no table in play left", round)
			break
		}
		mu.Lock()
		dead := procs[victim]
		procs = slices.Delete(procs, victim, victim+1)
		mu.Unlock()
		killed := time.Now()
		if term {
			if !dead.stop(stopBound) {
				t.Fatalf("still running %v after SIGTERM: %s", stopBound, dead.tail())
			}
			if st := dead.cmd.ProcessState; !st.Success() {
				t.Fatalf("exit after SIGTERM: %v: %s", st, dead.tail())
			}
		} else {
			dead.kill()
		}
		for _, id := range ids {
			p := players[slices.IndexFunc(players, func(p *seatPlayer) bool { return p.id == id })]
			for {
				if at := p.resumed(killed); !at.IsZero() {
					if term {
						handoffs = append(handoffs, at.Sub(killed))
					} else {
						times = append(times, at.Sub(killed))
					}
					break
				}
				if time.Since(killed) > 30*time.Second {
					t.Fatalf("round %d: table %s not back 30 s after its server was killed", round, id)
				}
				time.Sleep(20 * time.Millisecond) // the player's next view
			}
		}
		if term {
			t.Logf("SIGTERM: %d tables back in %v (the stop included)", len(ids), handoffs)
			break
		}
		t.Logf("round %d: %d tables back in %v", round, len(ids), times[len(times)-len(ids):])
		np := startNode(t, exe, db)
		mu.Lock()
		procs = append(procs, np)
		mu.Unlock()
	}
	cancel()
	wg.Wait()
	if len(times) == 0 {
		t.Fatal("no table was killed")
	}
	slices.Sort(times)
	pct := func(q float64) time.Duration { return times[min(len(times)-1, int(q*float64(len(times))))] }
	t.Logf("failover over %d tables in %d kills: p50 %v, p99 %v, max %v", len(times), kills, pct(0.50), pct(0.99), times[len(times)-1])
	// Nothing acknowledged lost or doubled.
	store, err := pgstore.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, p := range players {
		checkStored(t, store, p)
	}
}

// checkStored replays p's table from the stored moves and checks that
// every event p was sent is there, the same.
func checkStored(t *testing.T, store *pgstore.DB, p *seatPlayer) {
	t.Helper()
	s, err := store.LoadTable(context.Background(), p.id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := arlington.New(arlington.Config{Players: 3, Target: 300}, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range s.Moves {
		a, err := arlington.ParseAction(m.Action)
		if err == nil {
			err = st.Apply(m.Seat, a)
		}
		if err != nil {
			t.Fatalf("table %s: stored move %d (%d %s) does not replay: %v", p.id, i, m.Seat, m.Action, err)
		}
	}
	v := st.View(0)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.have > v.EventCount {
		t.Fatalf("table %s: the player was sent %d events, %d are stored", p.id, p.have, v.EventCount)
	}
	for _, e := range v.Events {
		seen, ok := p.events[e.N]
		if !ok {
			continue
		}
		b, _ := json.Marshal(e)
		if string(b) != seen {
			t.Fatalf("table %s: event %d sent as %s, stored as %s", p.id, e.N, seen, b)
		}
	}
	if len(p.events) == 0 {
		t.Fatalf("table %s: the player saw nothing", p.id)
	}
}
