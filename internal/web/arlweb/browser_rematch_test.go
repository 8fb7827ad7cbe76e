package arlweb

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
	"cardtable/internal/web/webtest"
)

// TestLongBrowserArlingtonRematch (long: a browser and a whole game,
// several seconds under -race; make test-long runs it): two people and a
// bot finish a game to 1 point; Ann asks to play again and lands at the
// new table, where the status line says it waits for Bob; Bob's page
// shows and says (once) the rematch is ready, and his click takes
// him there (each clicks with the button scrolled under the page's sticky
// bar, where a click once landed on the bar instead); each sits one seat
// on from where they sat, the bot too, and the game starts. Ann's games
// then list the finished game and replay it.
func TestLongBrowserArlingtonRematch(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	var got created
	if code := e.client().do("POST", "/api/arlington/tables", table.Config{Players: 3, Bots: []string{"", "random", ""}, Target: 1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	bctx := startBrowser(t)
	ann, bob := newSeatTab(t, bctx, "Ann"), newSeatTab(t, bctx, "Bob")
	ann.open(e.srv.URL, got.ID)
	ann.join("Ann")
	bob.open(e.srv.URL, got.ID)
	bob.join("Bob")
	annSeat, bobSeat := eval[int](ann, `window.__ws.seat`), eval[int](bob, `window.__ws.seat`)
	ann.auto(true)
	bob.auto(true)
	ann.untilPlayed(`document.querySelector("#btn-rematch")`)
	bob.untilPlayed(`document.querySelector("#btn-rematch")`)
	ann.auto(false)
	bob.auto(false)
	if text := eval[string](bob, `document.querySelector("#btn-rematch").textContent`); text != "Play again" {
		t.Errorf("before anyone asks, the button says %q", text)
	}
	// The result's two buttons stand apart as other rows of buttons do:
	// they touched.
	for _, size := range [][2]int64{{390, 844}, {844, 390}, {1280, 800}} {
		ann.do(chromedp.EmulateViewport(size[0], size[1]))
		if gap := endButtonsGap(ann); gap < 5.5 || gap > 6.5 {
			t.Errorf("at %dx%d, %.1f px between \"Watch the replay\" and \"Play again\", want 6 (the gap of the page's other rows of buttons)", size[0], size[1], gap)
		}
	}
	ann.do(chromedp.EmulateViewport(390, 844))
	// As when a game ends with the page scrolled down to the hand: the
	// click must bring the button out from under the bar, not land there.
	webtest.ScrollUnderBar(t, ann.ctx, "#btn-rematch", ".bar")
	bob.recordSaid()
	ann.do(chromedp.Click(chromedp.CSS("#btn-rematch")))
	moved := `!location.pathname.endsWith(` + q("/"+got.ID) + `) && window.__ws && window.__ws.seat >= 0`
	if err := webtest.Wait(ann.ctx, moved, "Ann at the rematch"); err != nil {
		t.Fatalf("%v; page: %s", err, ann.diag())
	}
	// Seated at the rematch, Ann is told whom it waits for; she was told
	// "take your held seat", which she had.
	ann.until(`document.getElementById("status").textContent.startsWith("Waiting")`)
	if s := eval[string](ann, `document.getElementById("status").textContent`); s != "Waiting for Bob to take the seat held for this rematch." {
		t.Errorf("Ann, seated at the rematch, reads %q", s)
	}
	bob.until(`document.querySelector("#btn-rematch").textContent === "Rematch ready: join"`)
	if said := bob.said(); saidCount(said, "say: The rematch is ready") != 1 {
		t.Errorf("Bob's page said %q, want the rematch ready said once", said)
	}
	// Reached by keyboard from under the bar, it comes out below it.
	webtest.FocusBelowBar(t, bob.ctx, "#btn-rematch", ".bar")
	webtest.ScrollUnderBar(t, bob.ctx, "#btn-rematch", ".bar")
	bob.do(chromedp.Click(chromedp.CSS("#btn-rematch")))
	if err := webtest.Wait(bob.ctx, moved, "Bob at the rematch"); err != nil {
		t.Fatalf("%v; page: %s", err, bob.diag())
	}
	annPath, bobPath := eval[string](ann, `location.pathname`), eval[string](bob, `location.pathname`)
	if annPath != bobPath || !strings.HasPrefix(annPath, "/arlington/t/") {
		t.Fatalf("Ann is at %s, Bob at %s: want the same new table", annPath, bobPath)
	}
	if a, b := eval[int](ann, `window.__ws.seat`), eval[int](bob, `window.__ws.seat`); a != (annSeat+1)%3 || b != (bobSeat+1)%3 {
		t.Errorf("seats %d and %d became %d and %d, want each one on", annSeat, bobSeat, a, b)
	}
	// The bot moved on too, and with every seat taken the game starts.
	ann.until(`window.__ws.seats.length === 3 && window.__ws.seats[2].bot === "random"`)
	ann.until(`document.querySelector("#hand svg")`)

	// Ann's games list the finished one, with her seat marked and its
	// replay opening from the deal.
	ann.do(chromedp.Navigate(e.srv.URL + "/arlington/games"))
	ann.until(`document.querySelector("#games li.game button")`)
	if n := ann.count("#games li.game"); n != 1 {
		t.Errorf("Ann's games list %d games, want the one finished", n)
	}
	if text := eval[string](ann, `document.querySelector("#games li.game").textContent`); !strings.Contains(text, "Ann (you)") || !strings.Contains(text, "to 1") {
		t.Errorf("Ann's game reads %q", text)
	}
	ann.do(chromedp.Click(chromedp.CSS("#games li.game button")))
	ann.until(`document.getElementById("rp-pos").textContent.startsWith("Step 1 of ")`)
}

// TestLongBrowserArlingtonHeldSeat (long: a browser and two pages,
// several seconds under -race; the short suite has the update it relies
// on, in internal/table's TestRematch): at a rematch whose other seats are
// all taken (the asker's and a bot's), the person whose seat is held opens
// its page and is offered the join form though no seat is open to anyone,
// the status line asking him to take his seat;
// it takes the held seat and the game starts. The old game is played out
// on the server, so only the part under test runs in the browser.
func TestLongBrowserArlingtonHeldSeat(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	ann := e.client()
	var old created
	if code := ann.do("POST", "/api/arlington/tables", table.Config{Players: 3, Bots: []string{"", "", "random"}, Target: 1}, &old); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	ann.join(old.ID, "Ann")
	bob := newSeatTab(t, startBrowser(t), "Bob")
	bob.open(e.srv.URL, old.ID)
	bob.join("Bob")
	playOutHere(t, e, old.ID)
	var re rematched
	if code := ann.do("POST", "/api/arlington/tables/"+old.ID+"/rematch", nil, &re); code != http.StatusCreated || re.Seat < 0 {
		t.Fatalf("rematch: %d %+v", code, re)
	}
	bob.open(e.srv.URL, re.ID)
	if open := eval[bool](bob, `window.__ws.seats.some((s) => s.open)`); open {
		t.Fatal("the rematch has an open seat: the test needs none")
	}
	bob.until(`!document.querySelector(` + q(selJoin) + `).hidden`)
	// He is asked to take it; the words were the same for everyone.
	if s := eval[string](bob, `document.getElementById("status").textContent`); s != "Your seat is held for this rematch: take it to play." {
		t.Errorf("Bob, whose seat the rematch holds, reads %q", s)
	}
	bob.do(chromedp.Click(chromedp.CSS(selJoinSend)))
	bob.until(`window.__ws.seat >= 0`)
	bob.until(`document.querySelector("#hand svg")`)
	if seat := eval[int](bob, `window.__ws.seat`); !re.Seats[seat].Reserved {
		t.Errorf("Bob took seat %d, not the one held for him (%+v)", seat, re.Seats)
	}
}

// playOutHere plays table id's game to its end on the server: each person
// at it plays a random legal action on their turn, the bots their own.
func playOutHere(tb testing.TB, e *env, id string) {
	tb.Helper()
	ctx := context.Background()
	st, err := e.db.LoadTable(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := e.hub.Table(id)
	if err != nil {
		tb.Fatal(err)
	}
	sub, err := t.Subscribe(ctx, "", -1)
	if err != nil {
		tb.Fatal(err)
	}
	defer sub.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	for {
		var u table.Update
		select {
		case got, ok := <-sub.Updates():
			if !ok {
				tb.Fatalf("subscription ended: %v", sub.Err())
			}
			u = got
		case <-time.After(10 * time.Second):
			tb.Fatal("no update for 10 s")
		}
		if u.Status == table.StatusOver {
			return
		}
		if u.View == nil || u.View.ToMove < 0 || st.Seats[u.View.ToMove].Player == "" {
			continue
		}
		p := st.Seats[u.View.ToMove].Player
		v, err := t.View(ctx, p)
		if err != nil || v.ToMove != v.Seat {
			continue // an older update: the move was made
		}
		legal := v.Legal()
		if err := t.Act(ctx, p, -1, legal[rng.IntN(len(legal))]); err != nil && !errors.Is(err, table.ErrNotYourTurn) {
			tb.Fatalf("seat %d acts: %v", v.Seat, err)
		}
	}
}

// endButtonsGap is the space between the result's replay and rematch
// buttons: across, side by side, or down, when the row wrapped.
func endButtonsGap(p *seatTab) float64 {
	p.tb.Helper()
	return eval[float64](p, `(() => {
	  const a = document.getElementById("btn-replay").getBoundingClientRect();
	  const b = document.getElementById("btn-rematch").getBoundingClientRect();
	  return b.top < a.bottom ? b.left - a.right : b.top - a.bottom;
	})()`)
}
