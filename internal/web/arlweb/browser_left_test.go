package arlweb

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
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

// TestBrowserArlingtonLeftInOneWindow: Ann has the table open in two
// windows and leaves the game in play in one: the other stops too,
// saying she left and offering Come back, and her seat is away and not
// present, as she expects of a Leave. Before, the other window stayed
// connected and seated, so the seat showed her present while the
// stand-in played it, and that window had no way back but a reload.
func TestBrowserArlingtonLeftInOneWindow(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "")
	a := seatTabIn(t, startBrowser(t), "Ann")
	a.open(e.srv.URL, id)
	a.join("Ann")
	a.until(`!document.getElementById("seated").hidden`)
	ctx2, cancel := chromedp.NewContext(a.ctx) // the same browser: the same person
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx2, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(hooks, selLegal)})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	b := asSeatTab(t, ctx2, "Ann-B")
	b.open(e.srv.URL, id)
	b.until(`window.__ws.seat === 0`)
	e.client().join(id, "Bob") // the game starts
	a.until(`window.__ws.count >= 0`)
	b.until(`window.__ws.count >= 0`)
	a.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("leave").click()`))
	conn := `document.getElementById("conn").textContent`
	a.until(conn + `.startsWith("you left")`)
	b.until(conn + `.startsWith("you left")`)
	if c := eval[string](b, conn); c != "you left this table: a bot plays your seat Come back" {
		t.Errorf("Ann's other window says %q", c)
	}
	var sum table.Summary
	e.client().do("GET", "/api/arlington/tables/"+id, nil, &sum)
	if s := sum.Seats[0]; !s.Away || s.Present {
		t.Errorf("Ann's seat after she left in one window: %+v; want away, not present", s)
	}
	// Come back in the other window: connected, and back at the table.
	b.do(chromedp.Click(chromedp.CSS("#come-back")))
	annAway := `(window.__ws.seats.find((s) => s.seat === window.__ws.seat) || {}).away`
	b.until(conn + ` === "connected" && window.__ws.seat === 0 && !` + annAway)
}
