package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
	"cardtable/internal/table/leakscan"
)

// clusterServers is how many servers the long cluster test runs.
const clusterServers = 3

// clusterSeat is one remote client of the long cluster test: a person at
// the terminal (arlington connect), whose "auto" lines the test hands
// over so that the game moves only as far as the test allows.
type clusterSeat struct {
	seat   int // counting from 1, as the terminal does
	log    string
	feed   func() bool
	finish func() arlClient
}

// clusterTable is one table of the test and its two clients.
type clusterTable struct {
	id, link string
	seats    []*clusterSeat
}

// TestLongClusterKills is the proof of several servers: PostgreSQL, the
// servers and nginx in front (startTestCluster); three tables, each with
// a server bot and two remote `arlington connect` clients reaching the
// servers only through nginx. The test lets the games move on to a
// point, kills a server with SIGKILL while every table waits for a
// person, lets them move on again, starts the killed server again and
// kills the next, in turn; then the games play to their end. Every client
// must finish with no event lost or repeated (its log goes on from
// exactly what it had, across reconnects), the same public log as the
// other clients and as the game the database stored (its record,
// replayed), and the leak scan must pass on every message every client
// received, with its control: a hidden card planted in one of those
// messages is caught.
func TestLongClusterKills(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it; TestClusterNginxConfig is the quick check of the harness")
	}
	tc := startTestCluster(t, clusterServers)
	var tables []*clusterTable
	for i := range 3 {
		link := arlNewTable(t, tc.proxy, "--seats", "human,greedy,human", "--target", "24", "--turn-timer", "off")
		ct := &clusterTable{link: link, id: link[strings.LastIndex(link, "/")+1:]}
		for _, seat := range []int{1, 3} {
			log, feed, finish := arlTerminal(t, link, "--seat", strconv.Itoa(seat), "--name", fmt.Sprintf("t%d s%d", i, seat))
			ct.seats = append(ct.seats, &clusterSeat{seat: seat, log: log, feed: feed, finish: finish})
		}
		tables = append(tables, ct)
	}
	var allowed atomic.Int64 // the event count the clients play up to
	stop := make(chan struct{})
	errc := make(chan error, 6)
	var feeders sync.WaitGroup
	for _, ct := range tables {
		for _, s := range ct.seats {
			// Exits at the game's end, when stop closes, or when the
			// client takes no line for a minute.
			feeders.Go(func() {
				if err := feedSeat(s, &allowed, stop); err != nil {
					errc <- err
				}
			})
		}
	}
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }); feeders.Wait() }
	defer halt()
	const step = 12 // events between kills
	kills := max(3, clusterServers)
	for k := range kills {
		allowed.Store(int64(step * (k + 1)))
		waitTables(t, tables, step*(k+1), errc)
		// In turn, passing over a server that runs none of the tables
		// now (new tables go to the least loaded server as its last
		// heartbeat told, so they may start on one): every kill hits.
		i, held := k%len(tc.c.nodes), int64(0)
		for range tc.c.nodes {
			if held = tablesHeld(t, tc.db, tc.c.nodes[i].addr); held > 0 || len(tc.c.nodes) == 1 {
				break
			}
			i = (i + 1) % len(tc.c.nodes)
		}
		victim := tc.c.nodes[i]
		t.Logf("kill -9 server %d (pid %d), running %d of the tables, at %d events", i+1, victim.pid(), held, step*(k+1))
		victim.kill()
		if len(tc.c.nodes) == 1 {
			// Alone, the server must come back for the tables to go on.
			if err := victim.start(t.Context()); err != nil {
				t.Fatal(err)
			}
			continue
		}
		// The tables move on on the survivors before the victim returns.
		allowed.Store(int64(step*(k+1) + step/2))
		waitTables(t, tables, step*(k+1)+step/2, errc)
		if err := victim.start(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	// The feeders play the games to their end and exit; then each
	// client, done, is collected.
	allowed.Store(1 << 40)
	t.Logf("the kills are over; the games play to their end")
	feeders.Wait()
	select {
	case err := <-errc:
		t.Fatal(err)
	default:
	}
	for _, ct := range tables {
		var clients []arlClient
		for _, s := range ct.seats {
			clients = append(clients, s.finish())
		}
		checkClusterTable(t, tc, ct, clients)
		// Every table's server was killed under it at least once (every
		// server running one of them is, in turn, while the games are
		// paused short of their end): it changed hands, and its clients
		// reconnected by themselves.
		if e := tableEpoch(t, tc.db, ct.id); len(tc.c.nodes) > 1 && e < 2 {
			t.Errorf("table %s: epoch %d: it never changed servers", ct.id, e)
		}
		for _, c := range clients {
			if !strings.Contains(c.err, "reconnecting") {
				t.Errorf("table %s: a client did not report a reconnection:\n%s", ct.id, c.err)
			}
		}
	}
}

// tablesHeld is how many open tables the server at addr runs, as the
// database says.
func tablesHeld(t *testing.T, db, addr string) int64 {
	t.Helper()
	return queryInt(t, db, `SELECT count(*) FROM live_tables t JOIN servers s ON t.owner = s.id
		WHERE s.addr = $1 AND t.status = 'open'`, addr)
}

// tableEpoch is how many servers have held a table (its epoch, 1 at
// creation and one more at each take-over), read from the database.
func tableEpoch(t *testing.T, db, id string) int64 {
	t.Helper()
	return queryInt(t, db, "SELECT epoch FROM live_tables WHERE id = $1", id)
}

// queryInt is the one number query answers in the database db.
func queryInt(t *testing.T, db, query string, args ...any) int64 {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var n int64
	if err := conn.QueryRow(t.Context(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s %v: %v", query, args, err)
	}
	return n
}

// feedSeat hands s's client an "auto" line whenever its log shows its
// turn short of allowed events, once for each event count: a message
// that changes nothing of the game (another seat's presence, after a
// reconnect) must not hand over a second line, which the client would
// keep for its next turn, and a backlog of lines blocks the feeding.
// The kills happen while every table waits for a person, so no action
// is lost to one and none needs a second line; if the log shows the same
// turn for 10 s all the same, the line is handed over again. It returns
// nil at the game's end or when stop closes.
func feedSeat(s *clusterSeat, allowed *atomic.Int64, stop <-chan struct{}) error {
	fedAt, fedWhen := -1, time.Time{}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		st := readLogState(s.log)
		if st.over {
			return nil
		}
		again := st.count == fedAt && time.Since(fedWhen) > 10*time.Second
		if st.toMove == s.seat-1 && int64(st.count) < allowed.Load() && (st.count > fedAt || again) {
			fedAt, fedWhen = st.count, time.Now()
			if !s.feed() {
				return fmt.Errorf("seat %d (%s): the client took no line for a minute", s.seat, s.log)
			}
			continue
		}
		select {
		case <-stop:
			return nil
		case <-tick.C: // look at the log again
		}
	}
}

// waitTables waits until every client of every table has seen at least
// n events (or its game's end), failing on a feeder's error or after two
// minutes.
func waitTables(t *testing.T, tables []*clusterTable, n int, errc <-chan error) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		done := true
		for _, ct := range tables {
			for _, s := range ct.seats {
				if st := readLogState(s.log); st.count < n && !st.over {
					done = false
				}
			}
		}
		if done {
			return
		}
		select {
		case err := <-errc:
			t.Fatal(err)
		case <-tick.C:
		}
		if time.Now().After(deadline) {
			for _, ct := range tables {
				for _, s := range ct.seats {
					t.Logf("table %s seat %d: %+v", ct.id, s.seat, readLogState(s.log))
				}
			}
			t.Fatalf("the tables did not reach %d events in two minutes", n)
		}
	}
}

// checkClusterTable checks one finished table: each client played to the
// end with its log whole, the clients agree with each other and with the
// record the database kept, and nothing any client received leaks.
func checkClusterTable(t *testing.T, tc *testCluster, ct *clusterTable, clients []arlClient) {
	t.Helper()
	var evs [][]arlington.Event
	for _, c := range clients {
		evs = append(evs, arlCheckFinished(t, c))
	}
	arlSameEvents(t, evs[0], evs[1])
	rec := fetchRecord(t, tc.proxy, ct.id)
	r, _, err := arlington.Load(strings.NewReader(rec))
	if err != nil {
		t.Fatalf("table %s: the stored record: %v", ct.id, err)
	}
	s, err := arlington.New(r.Config, r.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range r.Moves {
		if err := s.Apply(m.Seat, m.Action); err != nil {
			t.Fatalf("table %s: the stored record's move %d: %v", ct.id, i, err)
		}
	}
	arlSameEvents(t, evs[0], s.Events(0))
	know, err := leakscan.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range ct.seats {
		raw := logLines(t, clients[i].log)
		n, err := scanClientLog(know, st.seat-1, raw)
		if err != nil {
			t.Fatalf("table %s seat %d: %v", ct.id, st.seat, err)
		}
		if n == 0 {
			t.Fatalf("table %s seat %d: nothing scanned", ct.id, st.seat)
		}
		if i == 0 {
			plantLeak(t, know, st.seat-1, raw)
		}
	}
	t.Logf("table %s: %d events, %d moves stored, each client's messages scanned", ct.id, len(evs[0]), len(r.Moves))
}

// fetchRecord is a finished table's record, seed included, through base.
func fetchRecord(t *testing.T, base, id string) string {
	t.Helper()
	resp, err := http.Get(base + "api/arlington/tables/" + id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("record of %s: %s %s", id, resp.Status, b)
	}
	return string(b)
}

// logLines is a --log file's messages.
func logLines(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSpace(b), []byte("\n"))
}

// clientMsg is a logged server message, as the leak scan reads it.
type clientMsg struct {
	table.Update
	Type string `json:"type"`
}

// scanClientLog checks every message a client received, as sent, against
// what its seat may know (a message without a view against the last
// view's moment), and returns how many it scanned.
func scanClientLog(know *leakscan.Knowledge, seat int, raw [][]byte) (int, error) {
	var last table.Update
	n := 0
	for i, b := range raw {
		var m clientMsg
		if err := json.Unmarshal(b, &m); err != nil {
			return n, fmt.Errorf("message %d: %w", i, err)
		}
		if m.View != nil {
			last = m.Update
		}
		if last.View == nil {
			continue // before the deal: no card is anyone's yet
		}
		if err := know.Check(seat, last, b); err != nil {
			return n, fmt.Errorf("message %d (%.200s…): %w", i, b, err)
		}
		n++
	}
	return n, nil
}

// plantLeak is the scan's control on these very messages: a mid-game
// message, clean as received, with a card the seat never knew planted
// in a field of its own, must be caught.
func plantLeak(t *testing.T, know *leakscan.Knowledge, seat int, raw [][]byte) {
	t.Helper()
	for _, b := range raw {
		var m clientMsg
		if json.Unmarshal(b, &m) != nil || m.View == nil || m.View.EventCount < 10 || m.View.Phase == arlington.PhaseOver {
			continue
		}
		mo := know.At[m.View.EventCount]
		for s, hand := range mo.Hands {
			for _, c := range hand.Cards() {
				if s == seat || c == card.Joker || mo.Ever(seat).Has(c) {
					continue
				}
				if err := know.Check(seat, m.Update, b); err != nil {
					t.Fatalf("the control's message is flagged before the plant: %v", err)
				}
				var f map[string]any
				if err := json.Unmarshal(b, &f); err != nil {
					t.Fatal(err)
				}
				f["debug"] = "next: " + c.String()
				planted, _ := json.Marshal(f)
				if err := know.Check(seat, m.Update, planted); err == nil {
					t.Fatalf("a planted %v is not caught in %s", c, planted)
				}
				return
			}
		}
	}
	t.Fatal("no message with a hidden card to plant")
}
