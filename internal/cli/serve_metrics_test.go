package cli

import (
	"bufio"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardtable/internal/table"

	"github.com/coder/websocket"
)

// scrape reads /metrics at addr into "name{labels}" -> value.
func scrape(tb testing.TB, addr string) map[string]float64 {
	tb.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		tb.Fatalf("GET /metrics: %s %s", resp.Status, b)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			tb.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// TestServeMetrics: after some play, /metrics on its own listener names
// every series the operator's guide promises, with sensible values; the
// public listener does not serve it.
func TestServeMetrics(t *testing.T) {
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "m.db"), "--metrics-addr", "127.0.0.1:0")
	maddr := s.listenAddr(t, "metrics")
	if _, err := post(t, s.url+"api/games", `{"deal":"1"}`, http.StatusCreated); err != nil {
		t.Fatal(err)
	}
	// A table of bots plays by itself; a watcher holds a WebSocket open.
	id := newTable(t, browser, s.url, `{"players":2,"bots":["random","random"]}`)
	conn := watchTable(t, t.Context(), browser, s.url, id)
	defer conn.Close(websocket.StatusNormalClosure, "")

	positive := []string{
		`cardtable_http_requests_total{code="201",route="POST /api/games"}`,
		`cardtable_http_requests_total{code="201",route="POST /api/arlington/tables"}`,
		`cardtable_websocket_connections`,
		`cardtable_arlington_live_tables`,
		`cardtable_arlington_actions_total`,
		`cardtable_arlington_action_broadcast_seconds_count`,
		`cardtable_arlington_action_broadcast_seconds_sum`,
		`cardtable_db_write_seconds_count{op="append_action"}`,
		`cardtable_db_write_seconds_count{op="create_game"}`,
		`cardtable_db_write_seconds_count{op="create_table"}`,
		`cardtable_bot_think_seconds_count{level="random"}`,
		`cardtable_spider_cache_bytes`,
		`cardtable_spider_cache_games`,
		`cardtable_spider_cache_budget_bytes`,
		`go_goroutines`,
	}
	// Actions are counted as they are played and their writes timed once
	// their batch commits, so wait for every series, not only the count.
	var m map[string]float64
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		m = scrape(t, maddr)
		if (m["cardtable_arlington_actions_total"] >= 10 && allPositive(m, positive)) || time.Now().After(deadline) {
			break
		}
	}
	for _, k := range positive {
		if m[k] <= 0 {
			t.Errorf("%s = %v, want > 0", k, m[k])
		}
	}
	if v, ok := m[`cardtable_rate_limit_refusals_total`]; !ok || v != 0 {
		t.Errorf("rate-limit refusals %v (present %v), want 0", v, ok)
	}
	if m["cardtable_websocket_connections"] != 1 || m["cardtable_spider_cache_games"] != 1 || m["cardtable_arlington_live_tables"] != 1 {
		t.Errorf("websockets %v, cached games %v, live tables %v: want 1 each", m["cardtable_websocket_connections"],
			m["cardtable_spider_cache_games"], m["cardtable_arlington_live_tables"])
	}
	// The sum splits into open and finished tables, each its own series.
	open, okOpen := m["cardtable_arlington_open_tables"]
	over, okOver := m["cardtable_arlington_finished_tables"]
	if !okOpen || !okOver || open+over != m["cardtable_arlington_live_tables"] {
		t.Errorf("open tables %v (present %v), finished %v (present %v): want both, summing to live tables %v",
			open, okOpen, over, okOver, m["cardtable_arlington_live_tables"])
	}
	// The budget beside the estimate it bounds: the default, 256 MiB.
	if b, c := m["cardtable_spider_cache_budget_bytes"], m["cardtable_spider_cache_bytes"]; b != 256<<20 || c > b {
		t.Errorf("cache budget %v bytes, estimate %v: want a budget of %d and the estimate within it", b, c, 256<<20)
	}
	// One broadcast per action: an action is counted, then its broadcast.
	// The bots play on while a scrape reads the series one after another
	// (a busy machine lets them play several actions in between), so the
	// broadcasts read are compared with the actions of a later scrape:
	// never more, and every action counted now is broadcast soon after.
	later := scrape(t, maddr)["cardtable_arlington_actions_total"]
	if n, sum := m["cardtable_arlington_action_broadcast_seconds_count"], m["cardtable_arlington_action_broadcast_seconds_sum"]; n > later || sum/n > 1 {
		t.Errorf("%v broadcasts averaging %v s, and %v actions after them", n, sum/n, later)
	}
	for acts, deadline := m["cardtable_arlington_actions_total"], time.Now().Add(20*time.Second); ; time.Sleep(20 * time.Millisecond) {
		if n := scrape(t, maddr)["cardtable_arlington_action_broadcast_seconds_count"]; n >= acts {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("%v actions played, only %v broadcast 20 s later", acts, n)
		}
	}
	var info bool
	for k, v := range m {
		if strings.HasPrefix(k, "cardtable_build_info{") && strings.Contains(k, `commit="`) && strings.Contains(k, `version="`) && v == 1 {
			info = true
		}
	}
	if !info {
		t.Error("no cardtable_build_info{commit,version} 1")
	}
	resp, err := http.Get(s.url + "metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("/metrics on the public listener: %s, want 404", resp.Status)
	}
}

// allPositive reports whether every series in keys is above zero in m.
func allPositive(m map[string]float64, keys []string) bool {
	for _, k := range keys {
		if m[k] <= 0 {
			return false
		}
	}
	return true
}

// TestTableCounts: a finished table still listed counts as finished, not
// open (cardtable_arlington_live_tables once read as live tables only).
func TestTableCounts(t *testing.T) {
	list := []table.Summary{{Status: table.StatusOpen}, {Status: table.StatusOver}, {Status: table.StatusOpen, Started: true}}
	if open, over := tableCounts(list); open != 2 || over != 1 {
		t.Errorf("open %d, over %d: want 2 and 1", open, over)
	}
}
