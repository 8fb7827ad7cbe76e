package cli

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web"
	"cardtable/spider"
	"cardtable/spider/solver"
)

func TestServeHint(t *testing.T) {
	// The 10 s bound is for players; under -race on a busy machine the
	// search can take longer, and the test is about the move, not the time.
	defer func(d time.Duration) { hintTimeout = d }(hintTimeout)
	hintTimeout = 5 * time.Minute
	g, _ := spider.NewGame(617, spider.Options{Suits: 2})
	m, err := serveHint(context.Background(), solver.NewHinter(1), g)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Pos().CheckMove(m); err != nil {
		t.Fatalf("hint %v is illegal: %v", m, err)
	}
}

// TestServeHintNoCoreLoggedBusy: a hint that waited its whole time for a
// solver core is refused for load, logged at INFO with reason busy
// (docs/hosting.md "Logs"), in words saying so; one whose player left
// while it waited is a client gone.
func TestServeHintNoCoreLoggedBusy(t *testing.T) {
	defer func(d time.Duration) { hintTimeout = d }(hintTimeout)
	hintTimeout = 20 * time.Millisecond
	for range cap(hintSlots) {
		hintSlots <- struct{}{}
	}
	defer func() {
		for range cap(hintSlots) {
			<-hintSlots
		}
	}()
	g, _ := spider.NewGame(617, spider.Options{Suits: 2})
	left, leave := context.WithCancel(context.Background())
	leave()
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		reason string
	}{{"stayed", context.Background(), "busy"}, {"left", left, "client gone"}} {
		_, err := serveHint(tc.ctx, solver.NewHinter(1), g)
		var buf syncBuffer
		log := slog.New(slog.NewJSONHandler(&buf, nil))
		web.NewEventLog(log, 0, nil).Fault(tc.ctx, log, "request failed", "192.0.2.7", err)
		var l map[string]any
		if err := json.Unmarshal([]byte(buf.String()), &l); err != nil {
			t.Fatalf("%s: %q: %v", tc.name, buf.String(), err)
		}
		if l["level"] != "INFO" || l["reason"] != tc.reason {
			t.Errorf("%s: logged %v, want INFO with reason %q", tc.name, l, tc.reason)
		}
		if msg, _ := web.Message(err); tc.name == "stayed" && msg != "the server's hint searches are all taken; try again in a moment" {
			t.Errorf("%s: the player reads %q", tc.name, msg)
		}
	}
}

// TestServeHintsFollowTheirLine: the server's hints come from one Hinter
// kept across requests (docs/solver.md, "Following the hints"), so hints
// followed through the API do not lead back to a position. In this saved
// game a fresh choice at each hint moves the same run back and forth; with
// a Hinter made for each request the test fails at hint 2.
func TestServeHintsFollowTheirLine(t *testing.T) {
	// The 10 s bound is for players; under -race on a busy machine the
	// search can take longer, and the test is about the moves.
	defer func(d time.Duration) { hintTimeout = d }(hintTimeout)
	hintTimeout = 5 * time.Minute
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "hints.db"))
	// One of the two saved games: the other loops the same way and takes
	// twice as long under -race; spider/solver's tests follow both.
	text, err := os.ReadFile("../../spider/solver/testdata/hint-loops/arachnid-1suit.txt")
	if err != nil {
		t.Fatal(err)
	}
	id := loadGame(t, url, string(text))
	g, err := spider.Load(string(text)) // the server's game, followed here
	if err != nil {
		t.Fatal(err)
	}
	seen := map[spider.Position]int{}
	for i := 0; i < 3 && !g.Won(); i++ {
		if j, ok := seen[*g.Pos()]; ok {
			t.Fatalf("hint %d leads back to the position before hint %d", i, j)
		}
		seen[*g.Pos()] = i
		cmd := hintMove(t, url+"api/games/"+id+"/hint")
		m, err := spider.ParseMove(cmd)
		if err != nil {
			t.Fatalf("hint %d: %q: %v", i, cmd, err)
		}
		body, _ := json.Marshal(map[string]string{"cmd": cmd})
		if _, err := post(t, url+"api/games/"+id+"/commands", string(body), http.StatusOK); err != nil {
			t.Fatalf("hint %d: %v", i, err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("hint %d, %v: %v", i, m, err)
		}
	}
}

// loadGame uploads a save file as the player's new game and returns its id.
func loadGame(tb testing.TB, url, save string) string {
	tb.Helper()
	resp, err := browser.Post(url+"api/games/load", "text/plain", strings.NewReader(save))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var r gameReply
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != http.StatusCreated || r.ID == "" {
		tb.Fatalf("loading a save: %s, %+v, %v", resp.Status, r, err)
	}
	return r.ID
}

// hintMove asks the hint at url and returns its move.
func hintMove(tb testing.TB, url string) string {
	tb.Helper()
	resp, err := browser.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var h struct {
		Move string `json:"move"`
		Text string `json:"text"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil || resp.StatusCode != http.StatusOK || h.Move == "" {
		tb.Fatalf("GET %s: %s, %+v, %v", url, resp.Status, h, err)
	}
	return h.Move
}
