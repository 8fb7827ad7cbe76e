package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonLeftGameStaysAway: Leave pressed on the table page
// as the game starts (the last seat filled while the button was still
// shown) leaves the person's seat to the stand-in, marked away. The page
// then stops: it says so, does not reconnect (a dropped connection
// coming back would mark the person back at the table they chose to
// leave, and the stand-in would stop) and leaves the seat not present.
// "Come back" is the person's choice and marks them back. Before, the
// page stayed connected and its next connection marked them back.
func TestBrowserArlingtonLeftGameStaysAway(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	p.join("Ann")
	p.until(`!document.getElementById("seated").hidden`)
	e.client().join(id, "Bob") // the game starts
	p.until(`window.__ws.count >= 0`)
	// The click that landed as the game started (the button is hidden
	// once the page draws the started game).
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("leave").click()`))
	annAway := `(window.__ws.seats.find((s) => s.seat === window.__ws.seat) || {}).away`
	conn := `document.getElementById("conn").textContent`
	p.until(conn + `.startsWith("you left") || ` + annAway)
	p.do(chromedp.Evaluate[chromedp.Void](`window.__ws.drop()`)) // a network blip, say
	p.until(conn + `.startsWith("you left") || !` + annAway)
	if c := eval[string](p, conn); c != "you left this table: a bot plays your seat Come back" {
		t.Fatalf("after leaving the game in play the page's connection line says %q", c)
	}
	if retry := eval[string](p, `document.body.dataset.retryMs ?? "none"`); retry != "none" {
		t.Fatalf("the page that left plans to reconnect in %s ms", retry)
	}
	var sum table.Summary
	e.client().do("GET", "/api/arlington/tables/"+id, nil, &sum)
	if s := sum.Seats[0]; !s.Away {
		t.Fatalf("Ann's seat after she left: %+v; want away", s)
	}
	// Come back: connected, and marked back at the table.
	p.do(chromedp.Click(chromedp.CSS("#come-back")))
	p.until(conn + ` === "connected" && window.__ws.seat === 0 && !` + annAway)
}
