package loadgen

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/spiderweb"
)

// spiderServer is the web layer with the Spider handlers over db.
func spiderServer(db *store.DB, o spiderweb.Options) *web.Server {
	return web.New(web.Options{Games: []web.Routes{spiderweb.New(db, o)}})
}

// BenchmarkLoad plays over HTTP on loopback with 1,000 games in play and 50
// players sending moves at once (each owns 20 games); every move is stored
// before it is answered. It reports accepted moves per second and latency
// percentiles. Run a fixed count for stable figures:
//
//	go test -run '^$' -bench '^BenchmarkLoad$' -benchtime 20000x ./internal/loadgen
func BenchmarkLoad(b *testing.B) {
	for _, players := range []int{1, 50} {
		b.Run(map[int]string{1: "players=1", 50: "players=50"}[players], func(b *testing.B) {
			benchLoad(b, 1000, players)
		})
	}
}

func benchLoad(b *testing.B, games, players int) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(spiderServer(db, spiderweb.Options{}))
	defer srv.Close()
	lr, err := NewLoad(ctx, LoadConfig{URL: srv.URL, Games: games, Players: players,
		MaxMoves: int64(b.N), Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer lr.Close()
	b.ResetTimer()
	res, err := lr.Play(ctx)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if res.Errors != 0 {
		b.Fatalf("%d errors", res.Errors)
	}
	b.ReportMetric(res.MovesPerSecond(), "moves/s")
	b.ReportMetric(ms(res.P50), "p50-ms")
	b.ReportMetric(ms(res.P99), "p99-ms")
	b.ReportMetric(float64(res.NewGames), "replaced")
	b.Logf("%v", res)
}

// TestLoadRuns is a small load run, so the generator itself is tested and
// its games check out against the server.
func TestLoadRuns(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "load.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(spiderServer(db, spiderweb.Options{MaxGames: 8}))
	defer srv.Close()
	res, err := Load(ctx, LoadConfig{URL: srv.URL, Games: 20, Players: 4, MaxMoves: 400, Duration: time.Minute, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Moves < 390 || res.Errors != 0 || res.P99 <= 0 || res.P99 < res.P50 {
		t.Fatalf("result %v", res)
	}
	if n, _ := db.CountGames(ctx); n != 20+int(res.NewGames) {
		t.Fatalf("%d games stored, want %d", n, 20+res.NewGames)
	}
}
