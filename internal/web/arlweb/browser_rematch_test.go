package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
	"cardtable/internal/web/webtest"
)

// TestLongBrowserArlingtonRematch (long: a browser and a whole game,
// several seconds under -race; make test-long runs it): two people and a
// bot finish a game to 1 point; Ann asks to play again and lands at the
// new table; Bob's page says the rematch is ready, and his click takes
// him there; each sits one seat on from where they sat, the bot too, and
// the game starts. Ann's games then list the finished game and replay it.
func TestLongBrowserArlingtonRematch(t *testing.T) {
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
	ann.until(`document.querySelector("#btn-rematch")`)
	bob.until(`document.querySelector("#btn-rematch")`)
	ann.auto(false)
	bob.auto(false)
	if text := eval[string](bob, `document.querySelector("#btn-rematch").textContent`); text != "Play again" {
		t.Errorf("before anyone asks, the button says %q", text)
	}
	ann.do(chromedp.Click(chromedp.CSS("#btn-rematch")))
	moved := `!location.pathname.endsWith(` + q("/"+got.ID) + `) && window.__ws && window.__ws.seat >= 0`
	if err := webtest.Wait(ann.ctx, moved, "Ann at the rematch"); err != nil {
		t.Fatalf("%v; page: %s", err, ann.diag())
	}
	bob.until(`document.querySelector("#btn-rematch").textContent === "Rematch ready: join"`)
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
