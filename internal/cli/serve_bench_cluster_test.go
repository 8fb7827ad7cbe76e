package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"cardtable/internal/loadgen"
	"cardtable/internal/pgtest"
)

func TestServeBenchClusterUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"both", []string{"--servers", "1", "--target", "http://127.0.0.1:1"}, "--servers or --target, not both"},
		{"negative", []string{"--servers", "-1"}, `--servers "-1": want at least 0`},
		{"sqlite shared", []string{"--servers", "2", "--db", "x.db"}, `--servers "2" needs --db postgres://`},
		{"no tables", []string{"--servers", "1", "--tables", "0"}, "--tables \"0\": want at least 1"},
		{"seven seats", []string{"--servers", "1", "--people", "4", "--bots", "3"}, "--people \"4\" and --bots \"3\" make 7 seats: want 2 to 6"},
		{"kills alone", []string{"--servers", "1", "--kills", "2"}, `--kills "2" needs --servers 2 or more, not --servers "1"`},
		{"negative kills", []string{"--servers", "1", "--kills", "-1"}, `--kills "-1": want at least 0`},
		{"kills without servers", []string{"--kills", "2"}, "--kills is for live tables: it needs --servers or --target"},
		{"tables without servers", []string{"--tables", "0"}, "--tables is for live tables"},
		{"json without servers", []string{"--json"}, "--json is for live tables"},
		{"games with servers", []string{"--servers", "1", "--games", "10"}, "--games is not for live tables"},
		{"target not a url", []string{"--target", "127.0.0.1:8080"}, `--target "127.0.0.1:8080": want http://HOST:PORT`},
		{"kills too often", []string{"--servers", "2", "--db", "postgres://x@127.0.0.1:1/x", "--kills", "2",
			"--kill-every", "10ms"}, `--kill-every "10ms": want at least 1s`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := arlRun(t, "", append([]string{"serve", "bench"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errOut, exitUsage, tc.want)
			}
		})
	}
}

// TestFailoverTimes: a kill's tables are those whose people lost a
// connection within a second of it; each is timed to the earliest view
// any of them had again (or of the table moving on); a table that never
// got there is counted apart, and an outage unrelated to a kill is not a
// table hit.
func TestFailoverTimes(t *testing.T) {
	k := time.Unix(1000, 0)
	at := func(ms int) time.Time { return k.Add(time.Duration(ms) * time.Millisecond) }
	outs := []loadgen.Outage{
		{Table: "a", Seat: 0, Ended: at(10), Served: at(5000), MovedOn: at(6000)},
		{Table: "a", Seat: 1, Ended: at(20), Served: at(5100), MovedOn: at(5500)}, // the earlier of each counts
		{Table: "b", Seat: 0, Ended: at(300), Served: at(400), MovedOn: at(700)},
		{Table: "c", Seat: 0, Ended: at(500), Served: at(900)},                      // never moved on
		{Table: "d", Seat: 0, Ended: at(-50), Served: at(60), MovedOn: at(100)},     // before the kill
		{Table: "e", Seat: 0, Ended: at(2000), Served: at(2050), MovedOn: at(2100)}, // long after it
	}
	lat, never := failoverTimes([]time.Time{k}, outs, movedOn)
	if lat.N != 2 || never != 1 || lat.P50 != 5500 || lat.Max != 5500 {
		t.Fatalf("moved on: %+v, %d never; want 2 tables timed (0.7 s and 5.5 s) and 1 never", lat, never)
	}
	lat, never = failoverTimes([]time.Time{k}, outs, servedAgain)
	if lat.N != 3 || never != 0 || lat.P50 != 900 || lat.Max != 5000 {
		t.Fatalf("served again: %+v, %d never; want 3 tables timed (0.4, 0.9 and 5 s)", lat, never)
	}
}

// TestLongServeBenchServers runs the benchmark of several servers for
// real: two servers on a PostgreSQL, a few tables, one server killed and
// started again. Every figure is reported and nothing acknowledged is
// lost.
func TestLongServeBenchServers(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it; TestServeBenchClusterUsage and TestFailoverTimes are the quick checks")
	}
	db := pgtest.DB(t)
	t.Setenv(asMain, "1") // the servers are this binary, acting as cardtable
	out, errOut, code := arlRun(t, "", "serve", "bench", "--servers", "2", "--db", db, "--tables", "6",
		"--think", "100ms", "--kills", "1", "--kill-every", "8s", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep clusterReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	t.Logf("%s", out)
	switch {
	case rep.Servers != 2 || rep.Store != "postgres" || rep.Tables != 6:
		t.Fatalf("setup %+v", rep)
	case rep.Lost != 0 || rep.Errors != 0:
		t.Fatalf("%d lost, %d errors (%s)", rep.Lost, rep.Errors, rep.FirstError)
	case rep.Acked < 20 || rep.All.P99 <= 0:
		t.Fatalf("%d actions acknowledged, %+v", rep.Acked, rep.All)
	case rep.Kills != 1 || rep.KillError != "" || rep.Failover.N == 0 || rep.Stuck != 0 || rep.NotMovedOn != 0 || rep.Reconnects == 0:
		t.Fatalf("%d kills (%s): failover %+v, %d tables not moving on, %d reconnections", rep.Kills, rep.KillError,
			rep.Failover, rep.Stuck, rep.Reconnects)
	case len(rep.RSS) != 2 || rep.RSS[0].PeakRSSMB <= 0 || rep.RSS[1].PeakRSSMB <= 0:
		t.Fatalf("memory %+v", rep.RSS)
	case rep.PG == nil || rep.PG.Commits < 1 || rep.PG.Inserted < 1:
		t.Fatalf("PostgreSQL per action %+v: each action is at least one committed insert", rep.PG)
	}
}

// TestServeBenchSaysStore: the live-table report says the database its
// servers ran on: a temporary SQLite file when --servers is given no
// --db, the file given, PostgreSQL, or, with --target and no --db, that
// the servers' database is not known here: a temporary file and the
// user's are told apart.
func TestServeBenchSaysStore(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    clusterFlags
		want string
	}{
		{"servers without --db", clusterFlags{servers: 1}, "1 server(s) on a temporary SQLite database (removed after the run)\n"},
		{"servers on a file", clusterFlags{servers: 1, db: "/tmp/b.db"}, `1 server(s) on the SQLite database "/tmp/b.db"` + "\n"},
		{"servers on PostgreSQL", clusterFlags{servers: 2, db: "postgres://u:secret@h/d"}, "2 server(s) on PostgreSQL\n"},
		{"target without --db", clusterFlags{target: "http://a:1,http://b:2"}, "2 server(s) at --target, on a database not known here (no --db postgres://... given)\n"},
		{"target on PostgreSQL", clusterFlags{target: "http://a:1", db: "postgres://h/d"}, "1 server(s) at --target, on PostgreSQL\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := newClusterReport(tc.f, loadgen.ArlResult{}, &killRun{}, &nodeMemWatch{})
			rep.Servers = max(tc.f.servers, len(strings.Split(tc.f.target, ",")))
			var b strings.Builder
			printClusterReport(&b, loadgen.ArlResult{}, rep)
			first, _, _ := strings.Cut(b.String(), "\n")
			if first+"\n" != tc.want {
				t.Fatalf("first line %q, want %q", first, tc.want)
			}
			if strings.Contains(b.String(), "secret") {
				t.Fatalf("the report shows the database's password: %s", b.String())
			}
		})
	}
}
