package cli

import (
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web"
)

// TestSuppressedSummaryAtStop: the event log writes a minute's share of
// lines of one kind and counts the rest for a summary line; a server
// stopping mid-minute still writes that summary, so every event is either
// logged or counted.
func TestSuppressedSummaryAtStop(t *testing.T) {
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "e.db"))
	// The share is per minute of the clock: the requests may straddle
	// the turn of a minute, which gives them two shares. Two shares and
	// more still leave some to summarize.
	const n = 2*web.EventsPerMinute + 7
	for range n {
		req, err := http.NewRequest("GET", s.url+"no-such-page", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Upgrade", "websocket") // a refused WebSocket: one event each
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	s.stop()
	select {
	case code := <-s.done:
		s.done <- code
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop")
	}
	out := s.log.String()
	logged := strings.Count(out, `msg="websocket refused"`) // the summary names it too, as of=
	counted := 0
	for _, m := range regexp.MustCompile(`summary="suppressed (\d+) similar"`).FindAllStringSubmatch(out, -1) {
		k, _ := strconv.Atoi(m[1])
		counted += k
	}
	if logged+counted != n || counted == 0 {
		t.Fatalf("%d refused WebSockets: %d logged, %d in summaries; want all %d accounted for:\n%s", n, logged, counted, n, out)
	}
}
