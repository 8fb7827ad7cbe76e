package arlweb

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"

	"cardtable/internal/table"
)

// TestLobbyTargetBounds: the lobby's target field offers what the server
// accepts (1 to table.MaxTarget), so the browser's own check of the field
// catches a target the server would refuse. It offered up to 1000 (the
// engine's bound for a record), and a table to 600 was refused only after
// the form was sent.
func TestLobbyTargetBounds(t *testing.T) {
	e := newEnv(t, Limits{})
	b := lobbyHTML(t, e.srv.URL)
	input := regexp.MustCompile(`<input id="target"[^>]*>`).Find(b)
	if input == nil {
		t.Fatal("the lobby has no target field")
	}
	for _, c := range []struct {
		attr string
		want int
	}{{"min", 1}, {"max", table.MaxTarget}} {
		m := regexp.MustCompile(` ` + c.attr + `="(\d+)"`).FindSubmatch(input)
		if m == nil {
			t.Errorf("the target field %s has no %s", input, c.attr)
			continue
		}
		if got, _ := strconv.Atoi(string(m[1])); got != c.want {
			t.Errorf("the target field's %s is %d, the server's is %d", c.attr, got, c.want)
		}
	}
}

// TestLobbyTimerDefault: the lobby's turn timer names the server's
// default turn (table.DefaultTurnSeconds) in its first choice, which the
// page shows as "default (60 s)" or "default (off)" as the table is set,
// and in the line under it.
func TestLobbyTimerDefault(t *testing.T) {
	e := newEnv(t, Limits{})
	b := lobbyHTML(t, e.srv.URL)
	want := strconv.Itoa(table.DefaultTurnSeconds) + " s"
	for _, c := range []struct{ what, re string }{
		{"the default choice", `<option value="0" selected data-on="([^"]*)">default \(([^)]*)\)</option>`},
		{"the line under the list", `<p id="timer-help" class="help">The default is ([^<]*?) at a table with a bot or a rated one`},
	} {
		m := regexp.MustCompile(c.re).FindSubmatch(b)
		if m == nil {
			t.Errorf("the lobby has no %s of the turn timer (%s)", c.what, c.re)
			continue
		}
		for _, got := range m[1:] {
			if string(got) != want {
				t.Errorf("%s of the turn timer says %q, the server's default is %q", c.what, got, want)
			}
		}
	}
}

// lobbyHTML is the lobby page as the server sends it.
func lobbyHTML(tb testing.TB, url string) []byte {
	tb.Helper()
	res, err := http.Get(url + "/arlington/")
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		tb.Fatalf("GET /arlington/: %d %v", res.StatusCode, err)
	}
	return b
}
