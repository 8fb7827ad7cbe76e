package obs

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A scrape lists the tables once for its three gauges (and counts the
// cache once for its two), and the figures it shows agree: live is open
// plus finished of the same reading.
func TestGaugesReadOncePerScrape(t *testing.T) {
	tables, cache := 0, 0
	m := New(Gauges{
		Tables: func() (int, int) { tables++; return 3 + tables, 2 },
		Cache:  func() (int, int) { cache++; return 100, 7 },
	})
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, err := io.ReadAll(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if tables != 1 || cache != 1 {
		t.Errorf("one scrape read the tables %d times and the cache %d times, want once each", tables, cache)
	}
	for _, want := range []string{
		"cardtable_arlington_live_tables 6\n", "cardtable_arlington_open_tables 4\n",
		"cardtable_arlington_finished_tables 2\n", "cardtable_spider_cache_bytes 100\n", "cardtable_spider_cache_games 7\n",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics lack %q:\n%s", strings.TrimSpace(want), b)
		}
	}
}

// The database pool's figures appear when the store has a pool
// (PostgreSQL), the wait as a counter in seconds, and not otherwise.
func TestDBPoolMetrics(t *testing.T) {
	scrape := func(g Gauges) string {
		rec := httptest.NewRecorder()
		New(g).Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		return rec.Body.String()
	}
	got := scrape(Gauges{DBPool: func() (int, int, time.Duration) { return 16, 16, 1500 * time.Millisecond },
		DBRefused: func() int64 { return 7 }})
	for _, want := range []string{
		"# TYPE cardtable_db_connection_refused_total counter\n", "cardtable_db_connection_refused_total 7\n",
		"cardtable_db_connections_in_use 16\n", "cardtable_db_connections_max 16\n",
		"# TYPE cardtable_db_connection_wait_seconds_total counter\n", "cardtable_db_connection_wait_seconds_total 1.5\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("metrics lack %q:\n%s", strings.TrimSpace(want), got)
		}
	}
	if got := scrape(Gauges{}); strings.Contains(got, "cardtable_db_connections") {
		t.Errorf("metrics without a pool show one:\n%s", got)
	}
}
