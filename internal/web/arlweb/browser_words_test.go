package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestLongBrowserArlingtonOnePoint (long: a browser, several seconds under
// -race; make test-long runs it): a game to 1 point says "1 point" in the
// lobby, the status line and the players' scores, and a win with one
// point is announced in the singular. The page said "to 1 points".
func TestLongBrowserArlingtonOnePoint(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	var got created
	if code := e.client().do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	bctx := startBrowser(t)
	p := seatTabIn(t, bctx, "Ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelector("#open-tables a.table-link")`)
	texts := map[string]string{
		"the lobby": eval[string](p, `document.querySelector("#open-tables a.table-link").textContent`),
	}
	p.open(e.srv.URL, got.ID)
	p.join("Ann")
	p.until(`document.getElementById("status").textContent.startsWith("Hand ")`)
	texts["the status line"] = eval[string](p, `document.getElementById("status").textContent`)
	texts["the players' scores"] = eval[string](p, `[...document.querySelectorAll("#players .p-score")].map((e) => e.textContent).join(" | ")`)
	// The end is announced from the view alone: the words for a game won
	// with one point, alone and shared.
	texts["a win"] = eval[string](p, `import("/arlington/render.js").then((m) => m.winnersText({ winners: [0], totals: [1, 0] }, ["Ann", "Bob"]))`, chromedp.EvalAwaitPromise)
	texts["a shared win"] = eval[string](p, `import("/arlington/render.js").then((m) => m.winnersText({ winners: [0, 1], totals: [1, 1] }, ["Ann", "Bob"]))`, chromedp.EvalAwaitPromise)
	for where, text := range texts {
		if !strings.Contains(text, "1 point") || strings.Contains(text, "1 points") {
			t.Errorf("%s reads %q, want \"1 point\"", where, text)
		}
	}
}
