package cli

// Helpers of the online tests: a server's table, clients driven as a
// person would, and checks of what they logged.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/arlington"
)

// arlNewTable creates a table on the server at url and returns its link.
func arlNewTable(tb testing.TB, url string, args ...string) string {
	tb.Helper()
	out, errs, code := arlRun(tb, "", append([]string{"arlington", "new-table", "--server", url}, args...)...)
	if code != exitOK {
		tb.Fatalf("new-table %v: exit %d: %s", args, code, errs)
	}
	link := strings.TrimSuffix(out, "\n")
	if strings.Contains(link, "\n") || !strings.HasPrefix(link, strings.TrimSuffix(url, "/")+"/arlington/t/") {
		tb.Fatalf("new-table printed %q, not a link alone", out)
	}
	return link
}

// arlClient is a connect run in this process.
type arlClient struct {
	code     int
	out, err string
	log      string // its --log file
}

// arlOwnIdentity gives a connect run an identity file of its own unless
// args name one: two runs in a test are two players, as two people
// would be.
func arlOwnIdentity(tb testing.TB, args []string) []string {
	for _, a := range args {
		if a == "--identity" || strings.HasPrefix(a, "--identity=") {
			return args
		}
	}
	return append(args, "--identity", filepath.Join(tb.TempDir(), "identity.json"))
}

// arlConnect starts `cardtable arlington connect LINK ARGS --log FILE`
// and returns FILE; wait returns the client once it has exited. Without
// --identity in ARGS the run has an identity file of its own.
func arlConnect(tb testing.TB, link, stdin string, args ...string) (log string, wait func() arlClient) {
	tb.Helper()
	args = arlOwnIdentity(tb, args)
	log = filepath.Join(tb.TempDir(), "messages.jsonl")
	done := make(chan arlClient, 1)
	go func() {
		out, errs, code := arlRun(tb, stdin, append([]string{"arlington", "connect", link, "--log", log}, args...)...)
		done <- arlClient{code, out, errs, log}
	}()
	return log, func() arlClient {
		select {
		case c := <-done:
			return c
		case <-time.After(3 * time.Minute):
			tb.Fatal("connect did not end")
			return arlClient{}
		}
	}
}

// arlTerminal starts `cardtable arlington connect LINK ARGS --log FILE`
// (with an identity file of its own, as arlConnect) for a person at the
// terminal whose lines the test hands over one at a time, so the game moves only as fast as the test lets it. feed hands
// over one "auto" (false if the client took none for a minute); finish
// feeds "auto" until the client exits and returns it.
func arlTerminal(tb testing.TB, link string, args ...string) (log string, feed func() bool, finish func() arlClient) {
	tb.Helper()
	args = arlOwnIdentity(tb, args)
	log = filepath.Join(tb.TempDir(), "terminal.jsonl")
	pr, pw := io.Pipe()
	done := make(chan arlClient, 1)
	go func() {
		out, errb := &syncBuffer{}, &syncBuffer{}
		code := Run(context.Background(), append([]string{"arlington", "connect", link, "--log", log}, args...), pr, out, errb)
		pr.Close() // a line still being written fails, and the writer exits
		done <- arlClient{code, out.String(), errb.String(), log}
	}()
	lines, stop := make(chan struct{}), make(chan struct{})
	// The writer exits when the test ends (stop) or the client has
	// stopped reading (the pipe is closed).
	go func() {
		for {
			select {
			case <-lines:
				if _, err := io.WriteString(pw, "auto\n"); err != nil {
					return
				}
			case <-stop:
				return
			}
		}
	}()
	tb.Cleanup(func() { close(stop); pw.Close() })
	feed = func() bool {
		select {
		case lines <- struct{}{}:
			return true
		case <-time.After(time.Minute):
			return false
		}
	}
	finish = func() arlClient {
		tb.Helper()
		deadline := time.NewTimer(3 * time.Minute)
		defer deadline.Stop()
		for {
			select {
			case c := <-done:
				return c
			case lines <- struct{}{}:
			case <-deadline.C:
				tb.Fatal("connect did not end")
				return arlClient{}
			}
		}
	}
	return log, feed, finish
}

// arlLogged reads a --log file (arlCheckLog) and fails tb on a fault.
func arlLogged(tb testing.TB, name string) (events []arlington.Event, types []string, last map[string]any) {
	tb.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	events, types, last, err = arlCheckLog(b)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return events, types, last
}

// arlCheckLog reads a --log file's text: one JSON object a line. It checks
// that the views' public events arrive with nothing missing or repeated:
// the first view starts at event 0 and every later one goes on from
// exactly the events received before it, after a reconnect too (a server
// that had lost events it sent would start the log again from an earlier
// point). It returns the events, the messages' types and the last view.
func arlCheckLog(b []byte) (events []arlington.Event, types []string, last map[string]any, err error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		var obj map[string]any
		if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
			return nil, nil, nil, fmt.Errorf("line %d is not a JSON object: %v: %.200s", n, err, sc.Text())
		}
		typ, _ := obj["type"].(string)
		types = append(types, typ)
		if typ != "view" || obj["view"] == nil {
			continue
		}
		var m struct {
			View arlington.View `json:"view"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, nil, nil, fmt.Errorf("line %d: %v", n, err)
		}
		if m.View.EventsFrom != len(events) {
			return nil, nil, nil, fmt.Errorf("line %d: events from %d after %d received", n, m.View.EventsFrom, len(events))
		}
		for i, e := range m.View.Events {
			if e.N != m.View.EventsFrom+i {
				return nil, nil, nil, fmt.Errorf("line %d: event %d numbered %d", n, m.View.EventsFrom+i, e.N)
			}
		}
		events = append(events, m.View.Events...)
		if m.View.EventCount != len(events) {
			return nil, nil, nil, fmt.Errorf("line %d: %d events held, the view counts %d", n, len(events), m.View.EventCount)
		}
		last = obj
	}
	return events, types, last, sc.Err()
}

func TestArlCheckLogCatchesLoss(t *testing.T) {
	// The control of the restart test's check: a log whose events start
	// again from an earlier point (a server that lost what it had sent),
	// skip some, or is not JSON, is caught.
	view := func(from, count int) string {
		var evs []string
		for n := from; n < count; n++ {
			evs = append(evs, fmt.Sprintf(`{"n":%d,"hand":1,"kind":"move","seat":0,"action":"pass"}`, n))
		}
		return fmt.Sprintf(`{"type":"view","seat":0,"status":"open","view":{"events":[%s],"eventsFrom":%d,"eventCount":%d}}`,
			strings.Join(evs, ","), from, count)
	}
	tests := []struct {
		name, log, want string
	}{
		{"good", view(0, 3) + "\n" + `{"type":"error","error":"x"}` + "\n" + view(3, 5) + "\n", ""},
		{"lost", view(0, 3) + "\n" + view(0, 2) + "\n", "events from 0 after 3"},
		{"skipped", view(0, 3) + "\n" + view(4, 5) + "\n", "events from 4 after 3"},
		{"not json", view(0, 3) + "\nhello\n", "not a JSON object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			events, _, _, err := arlCheckLog([]byte(tc.log))
			if tc.want == "" && (err != nil || len(events) != 5) {
				t.Fatalf("%d events, %v", len(events), err)
			}
			if tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// arlCheckFinished checks that a connect client played the game to its end.
func arlCheckFinished(tb testing.TB, c arlClient) []arlington.Event {
	tb.Helper()
	if c.code != exitOK || !strings.Contains(c.out, "game over after") {
		tb.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", c.code, c.out, c.err)
	}
	events, _, last := arlLogged(tb, c.log)
	if last == nil || last["status"] != "over" {
		tb.Fatalf("the log does not end with the game over: %v", last)
	}
	if k := events[len(events)-1].Kind; k != arlington.EventScore {
		tb.Fatalf("the last event is %v, not the last hand's score", k)
	}
	return events
}

// arlSameEvents checks that two clients saw the same public log.
func arlSameEvents(tb testing.TB, a, b []arlington.Event) {
	tb.Helper()
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		tb.Fatalf("two clients saw different public logs (%d and %d events)", len(a), len(b))
	}
}
