package loadgen

import (
	"context"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"cardtable/arlington/bot"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/arlweb"
)

// arlServer is a server with live tables over a fresh database, in this
// process, allowing tables tables. The tests' people think faster than
// people do, so the per-connection message limit is lifted.
func arlServer(tb testing.TB, tables int) string {
	tb.Helper()
	return arlServerWith(tb, tables, web.Options{}, 0)
}

// arlServerWith is arlServer with the web layer's options o and a bound
// of perAddr WebSockets from one address (0: the default).
func arlServerWith(tb testing.TB, tables int, o web.Options, perAddr int) string {
	tb.Helper()
	// One address plays every table, as in arlington loadtest.
	return arlServerHub(tb, table.Options{MaxTables: tables, MaxPerAddress: -1, Reserve: -1}, o, perAddr)
}

// arlServerHub is arlServerWith with the hub's bounds on tables ho
// (MaxTables, MaxPerAddress, Reserve).
func arlServerHub(tb testing.TB, ho table.Options, o web.Options, perAddr int) string {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "load.db"))
	if err != nil {
		tb.Fatal(err)
	}
	ho.Store, ho.Logf = db, tb.Logf
	ho.Bots = func(level string, seed uint64) (table.Bot, error) { return bot.New(level, seed) }
	hub, err := table.NewHub(ctx, ho)
	if err != nil {
		tb.Fatal(err)
	}
	o.Games = []web.Routes{arlweb.New(hub, arlweb.Options{Limits: arlweb.Limits{Burst: 1000, Every: time.Millisecond, PerAddress: perAddr}})}
	srv := httptest.NewServer(web.New(o))
	tb.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		hub.Close()
		cancel()
		db.Close()
	})
	return srv.URL
}

// TestLongArlingtonLoad is a small Arlington load run (20 tables of three
// people, 400 actions), so the generator is tested against the server:
// every person acts, every action reaches every seat, nothing fails.
func TestLongArlingtonLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	url := arlServer(t, 20)
	res, err := RunArlington(context.Background(), ArlConfig{URL: url, Tables: 20, People: 3,
		Duration: time.Minute, MaxActions: 400, Think: 20 * time.Millisecond, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v", res)
	if res.Errors != 0 || res.Missed != 0 {
		t.Fatalf("%d errors (%s), %d views not timed", res.Errors, res.FirstError, res.Missed)
	}
	if res.Actor.N < 400 || res.Actor.N < int(res.Actions)-20 {
		t.Fatalf("%d actions, %d acknowledged: want at least 400, all but those in flight at the end", res.Actions, res.Actor.N)
	}
	// Each action reaches the two other people (but those in flight at the end).
	if res.Others.N < 2*res.Actor.N-40 || res.Others.N > 2*res.Actor.N+40 {
		t.Fatalf("%d broadcasts timed for %d actions of three-seat tables", res.Others.N, res.Actor.N)
	}
	if res.All.P50 <= 0 || res.All.P99 < res.All.P50 || res.All.Max < res.All.P99 {
		t.Fatalf("latency %v", res.All)
	}
}

// TestArlingtonLoadBots runs tables where people play with bots, and a
// refused setup (more tables than the server allows) is an error.
func TestArlingtonLoadBots(t *testing.T) {
	url := arlServer(t, 3)
	res, err := RunArlington(context.Background(), ArlConfig{URL: url, Tables: 3, People: 2, Bots: 1,
		Duration: time.Minute, MaxActions: 30, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 0 || res.Actor.N < 30 || res.Others.N == 0 {
		t.Fatalf("result %v", res)
	}
	_, err = RunArlington(context.Background(), ArlConfig{URL: url, Tables: 4, People: 2,
		Duration: 300 * time.Millisecond, Seed: 3})
	if err == nil {
		t.Fatal("a fourth table on a server of three was set up")
	}
}

// A server whose limit of live tables is below the run's refuses the
// tables past it: the run ends with a TableLimitError that says so, with
// the tables it made and the server's words, not with the raw answer.
func TestArlingtonLoadServerFull(t *testing.T) {
	url := arlServer(t, 2)
	_, err := RunArlington(context.Background(), ArlConfig{URL: url, Tables: 3, People: 2,
		Duration: time.Minute, MaxActions: 10, Seed: 5})
	var full *TableLimitError
	if !errors.As(err, &full) {
		t.Fatalf("error %v (%T), want a *TableLimitError", err, err)
	}
	const want = `the server's limit of live tables was reached: it refused a new table (429 Too Many Requests) ` +
		`after this load test had made 2 (the server said "too many tables: 2 tables open")`
	if full.Count != 2 || err.Error() != want {
		t.Fatalf("error %q (%d made), want %q", err, full.Count, want)
	}
}

// A server's bound on the live tables from one address refuses the
// tables past it: the run's error is that AddressLimitError itself, its
// words with the count of tables made once every creation under way has
// ended (the three are created at once), not table i's error, whose
// words were fixed before that count was known.
func TestArlingtonLoadAddressTableBound(t *testing.T) {
	url := arlServerHub(t, table.Options{MaxTables: 10, MaxPerAddress: 2, Reserve: -1}, web.Options{}, 0)
	_, err := RunArlington(context.Background(), ArlConfig{URL: url, Tables: 3, People: 2,
		Duration: time.Minute, MaxActions: 10, Seed: 6})
	limit, ok := err.(*AddressLimitError)
	if !ok || !limit.Tables {
		t.Fatalf("error %q (%T), want a table's *AddressLimitError", err, err)
	}
	const want = `the server's limit of live tables from one address was reached: it refused a new table ` +
		`(429 Too Many Requests) after this load test had made 2 (the server said "too many tables: 2 tables open from your address")`
	if limit.Count != 2 || err.Error() != want {
		t.Fatalf("error %q (%d made), want %q", err, limit.Count, want)
	}
}

// A server that rate-limits table creation (as cardtable serve does, per
// address) gets its tables created at the pace it asks for (429 and
// Retry-After), not an error.
func TestLongArlingtonLoadRateLimited(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	rl := web.RateLimit{Player: web.Bucket{Burst: 10, Every: time.Millisecond},
		Address: web.Bucket{Burst: 1, Every: 300 * time.Millisecond}, MaxKeys: 100}
	url := arlServerWith(t, 3, web.Options{RateLimit: &rl}, 0)
	res, err := RunArlington(context.Background(), ArlConfig{URL: url, Tables: 3, People: 2,
		Duration: time.Minute, MaxActions: 10, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 0 || res.Actions == 0 {
		t.Fatalf("result %v", res)
	}
}

// BenchmarkArlingtonLoad plays 100 tables of three people over WebSockets
// on loopback, the server in this process (so its memory is not measured
// apart: cardtable arlington loadtest does that), each person thinking
// 200 ms on average: about 500 actions a second. It reports the latency
// from an action to each view that includes it.
//
//	go test -run '^$' -bench ArlingtonLoad -benchtime 5x ./internal/loadgen
func BenchmarkArlingtonLoad(b *testing.B) {
	url := arlServer(b, 100_000) // each run's tables stay (closed when idle)
	var res ArlResult
	for b.Loop() {
		var err error
		res, err = RunArlington(context.Background(), ArlConfig{URL: url, Tables: 100, People: 3,
			Duration: 2 * time.Second, Think: 200 * time.Millisecond, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if res.Errors != 0 {
			b.Fatalf("%d errors: %s", res.Errors, res.FirstError)
		}
	}
	b.ReportMetric(res.ActionsPerSecond(), "actions/s")
	b.ReportMetric(ms(res.All.P50), "p50-ms")
	b.ReportMetric(ms(res.All.P99), "p99-ms")
	b.ReportMetric(ms(res.All.Max), "max-ms")
}
