package spiderweb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// TestAnalysisTakenInTurns: an address refused while another address's
// analysis ran has the next turn; the address whose analysis ran last is
// refused until the other has come back or its claim has lapsed. Before,
// one client sending an analysis as each of its own ended (one every
// 20 s at most) held the server's one slot for good.
func TestAnalysisTakenInTurns(t *testing.T) {
	clk := &clock{webtest.Clock{T: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}} // moves only when told
	entered, free := make(chan struct{}, 4), make(chan struct{}, 4)
	h := newHarness(t, Options{Now: clk.now, Analyze: func(ctx context.Context, g *spider.Game) (*Analysis, error) {
		entered <- struct{}{}
		select {
		case <-free:
		case <-time.After(10 * time.Second): // an analysis the test did not expect: fail, not hang
			return nil, errors.New("analysis never freed")
		}
		return solverAnalyze(ctx, g)
	}})
	const flooder, player = "198.51.100.7:4000", "203.0.113.9:5000"
	analyse := func(addr string) *httptest.ResponseRecorder {
		var g gameResponse
		h.call("POST", "/api/games/load", nearWon, http.StatusCreated, &g) // quick to analyse
		req := httptest.NewRequest("POST", "/api/games/"+g.ID+"/analysis", strings.NewReader(`{"giveUp":true}`))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = addr
		return h.serve(req)
	}
	running := make(chan int, 1)
	go func() { running <- analyse(flooder).Code }()
	<-entered
	if rec := analyse(player); rec.Code != http.StatusServiceUnavailable ||
		!strings.Contains(rec.Body.String(), "another analysis is running on the server") {
		t.Fatalf("while the flooder's ran: %d %s", rec.Code, rec.Body)
	}
	free <- struct{}{}
	if c := <-running; c != http.StatusOK {
		t.Fatalf("the flooder's analysis: %d", c)
	}
	// The flooder at once again: the player, refused meanwhile, has the turn.
	rec := analyse(flooder)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
		!strings.Contains(rec.Body.String(), "another analysis is waiting its turn on the server: try again in ") {
		t.Fatalf("the flooder again before the player's turn: %d %s", rec.Code, rec.Body)
	}
	clk.advance(analysisRetry * time.Second)
	free <- struct{}{}
	if rec := analyse(player); rec.Code != http.StatusOK {
		t.Fatalf("the player back after Retry-After: %d %s", rec.Code, rec.Body)
	}
	<-entered
	// The flooder, refused meanwhile, is next in line: the player again
	// is refused until the flooder has had its turn.
	if rec := analyse(player); rec.Code != http.StatusServiceUnavailable ||
		!strings.Contains(rec.Body.String(), "another analysis is waiting its turn on the server") {
		t.Fatalf("the player again before the flooder's turn: %d %s", rec.Code, rec.Body)
	}
	free <- struct{}{}
	if rec := analyse(flooder); rec.Code != http.StatusOK {
		t.Fatalf("the flooder on its turn: %d %s", rec.Code, rec.Body)
	}
	<-entered
	// The player, in line since, has the next turn; once its place lapses,
	// unrefreshed, the flooder may go on.
	clk.advance(turnWait)
	free <- struct{}{}
	if rec := analyse(flooder); rec.Code != http.StatusOK {
		t.Fatalf("the flooder once the player's place lapsed: %d %s", rec.Code, rec.Body)
	}
	<-entered
}

// TestAnalysisTurnsFairToAPlayer: two addresses of one client (a
// machine's IPv4 address and its IPv6 /64) asking for the analysis every
// second, each analysis taking 20 s, and a player asking every 10 s: over
// 10 minutes the player has about every third turn. Before, the slot
// remembered only that someone had been refused, not who, and the
// player had no turn at all.
func TestAnalysisTurnsFairToAPlayer(t *testing.T) {
	turns, inLine := turnsAgainstTwoAddresses(t, 10)
	total := turns[flooderV4] + turns[flooderV6] + turns[player]
	t.Logf("turns in 10 minutes: %v", turns)
	if turns[player] < total/3-1 {
		t.Errorf("the player had %d of %d turns, want about a third", turns[player], total)
	}
	if inLine > 3 {
		t.Errorf("%d places in line for 3 addresses", inLine)
	}
}

const flooderV4, flooderV6, player = "198.51.100.7", "2001:db8:1:2::", "203.0.113.9"

// turnsAgainstTwoAddresses plays 10 minutes on a test clock of two
// addresses of one client asking for the analysis every second, each
// analysis taking 20 s, and a player asking every period seconds; it
// returns the turns each had and the places left in line.
func turnsAgainstTwoAddresses(t *testing.T, period int) (map[string]int, int) {
	var a analysisTurns
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	var owner string
	var ends int
	turns := map[string]int{}
	for s := 0; s < 600; s++ {
		now := t0.Add(time.Duration(s) * time.Second)
		if owner != "" && s == ends {
			a.release(now)
			owner = ""
		}
		askers := []string{flooderV4, flooderV6}
		if s%period == 0 {
			askers = append(askers, player)
		}
		for _, k := range askers {
			if taken, _ := a.take(k, now); taken {
				if owner != "" {
					t.Fatalf("second %d: %s took the slot while %s's analysis ran", s, k, owner)
				}
				owner, ends = k, s+20
				turns[k]++
			}
		}
	}
	return turns, len(a.line)
}

// TestAnalysisTurnOnlyForThoseInLine: an address never refused does not
// take the turn of one refused while another's analysis ran, and the
// line is bounded.
func TestAnalysisTurnOnlyForThoseInLine(t *testing.T) {
	var a analysisTurns
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	if taken, _ := a.take("a", now); !taken {
		t.Fatal("the free slot refused")
	}
	if taken, running := a.take("player", now); taken || !running {
		t.Fatalf("while a's ran: taken %v running %v", taken, running)
	}
	a.release(now)
	if taken, running := a.take("newcomer", now); taken || running {
		t.Fatalf("an address never refused took the player's turn: taken %v running %v", taken, running)
	}
	if taken, _ := a.take("player", now); !taken {
		t.Fatal("the player refused on its turn")
	}
	for i := range 2 * maxInLine {
		a.take(fmt.Sprint("x", i), now)
	}
	if len(a.line) != maxInLine {
		t.Errorf("%d places in line, want the bound %d", len(a.line), maxInLine)
	}
	a.release(now)
	if taken, _ := a.take("late", now.Add(turnWait)); !taken {
		t.Error("the free slot refused once every place had lapsed")
	}
}

// TestAnalysisFirstInLineComesPromptly: a full line of addresses that
// keep their places fresh but never come back when first holds the
// free slot at most 15 s each (frontWait and frontGrace), not the 20 s
// of a place's general lapse; and one that comes back as Retry-After
// says is never late.
func TestAnalysisFirstInLineComesPromptly(t *testing.T) {
	var a analysisTurns
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	a.take("running", t0)
	for i := range maxInLine {
		a.take(fmt.Sprint("absent", i), t0)
	}
	a.release(t0.Add(time.Second))
	// Every second each absent address still in line but the first asks
	// again (refused, its place kept fresh); the first never asks, as if
	// it knew, and gives up once its place lapsed. Count how long each
	// first in line holds the free slot.
	var held time.Duration
	front, since := "", t0
	gone := map[string]bool{}
	for s := 1; s < maxInLine*25; s++ {
		now := t0.Add(time.Duration(s) * time.Second)
		a.mu.Lock()
		a.lapse(now)
		first := ""
		if len(a.line) > 0 {
			first = a.line[0].key
		}
		a.mu.Unlock()
		if first != front {
			if front != "" {
				held = max(held, now.Sub(since))
				gone[front] = true
			}
			front, since = first, now
		}
		if first == "" {
			break
		}
		for i := range maxInLine {
			if k := fmt.Sprint("absent", i); k != first && !gone[k] {
				if taken, _ := a.take(k, now); taken {
					t.Fatalf("second %d: %s, not first, took the slot", s, k)
				}
			}
		}
	}
	if front != "" {
		t.Fatalf("the line never emptied: %s still first", front)
	}
	t.Logf("the longest a first in line that did not come held the free slot: %v", held)
	// At most frontWait and frontGrace, give or take the second of this
	// clock; under turnWait, which held it 20 s.
	if want := frontWait + frontGrace; held > want+time.Second || want+time.Second >= turnWait {
		t.Errorf("a first in line that did not come held the free slot %v, want at most %v", held, want)
	}

	// Refused while an analysis runs; the slot frees a second later; back
	// when told, it has its turn.
	var b analysisTurns
	b.take("running", t0)
	b.take("player", t0)
	b.release(t0.Add(time.Second))
	if taken, _ := b.take("player", t0.Add(analysisRetry*time.Second)); !taken {
		t.Error("the first in line, back as Retry-After said, lost its turn")
	}
}

// TestAnalysisFirstInLineBackALittleLate: the first in line that comes
// back a second or two after the Retry-After (a network's delay, a
// person pressing again) still has its turn, whether the slot freed
// before or after the Retry-After; and a player asking every 13 s
// against two addresses asking every second has about every third turn.
// Before, the first place lapsed exactly 10 s after the slot freed, and
// one back 100 ms late went to the back of the line.
func TestAnalysisFirstInLineBackALittleLate(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name      string
		freed, at time.Duration // after the player's refusal
	}{
		{"freed at once, back 1 s late", 0, frontWait + time.Second},
		{"freed a second later, back 2 s late", time.Second, frontWait + 2*time.Second},
		{"freed as told, back 2 s late", frontWait, frontWait + 2*time.Second},
		{"freed 3 s after, back 4 s after that", frontWait + 3*time.Second, frontWait + 7*time.Second},
	} {
		var a analysisTurns
		a.take("running", t0)
		a.take("player", t0)
		a.release(t0.Add(c.freed))
		if taken, _ := a.take("newcomer", t0.Add(c.freed)); taken {
			t.Fatalf("%s: an address never refused took the player's turn", c.name)
		}
		if taken, _ := a.take("player", t0.Add(c.at)); !taken {
			t.Errorf("%s: the first in line lost its turn", c.name)
		}
	}

	turns, _ := turnsAgainstTwoAddresses(t, 13)
	total := turns[flooderV4] + turns[flooderV6] + turns[player]
	t.Logf("turns in 10 minutes, the player asking every 13 s: %v", turns)
	if turns[player] < total/3-1 {
		t.Errorf("the player had %d of %d turns, want about a third", turns[player], total)
	}
}
