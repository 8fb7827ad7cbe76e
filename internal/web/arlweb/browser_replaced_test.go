package arlweb

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonSeatReplaced: once the player's seat is open in
// more windows than the server keeps, the oldest page is closed as
// replaced: it says the seat is played in another window and does not
// reconnect (coming back would push the newer one out in turn).
func TestBrowserArlingtonSeatReplaced(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	startCtx := startBrowser(t)
	bctx, cancel := context.WithTimeout(startCtx, 30*time.Second)
	defer cancel()
	err := chromedp.Do(bctx,
		chromedp.Navigate(e.srv.URL+"/arlington/t/"+id),
		untilJS(`!document.getElementById("join").hidden`),
		chromedp.SendKeys(chromedp.CSS("#name"), "Ann"),
		chromedp.Click(chromedp.CSS("#join-form button")),
		untilJS(`document.querySelector("#hand svg.card")`),
	)
	if err != nil {
		t.Fatal(err)
	}
	// The same person opens the seat again, as other windows would: each
	// connection says hello once open.
	open := `window.others = []; for (let i = 0; i < ` + strconv.Itoa(table.MaxSeatConns) + `; i++) {
	  const w = new WebSocket(location.origin.replace("http", "ws") + "/api/arlington/tables/" + ` + q(id) + ` + "/ws");
	  w.onopen = () => w.send(JSON.stringify({type: "hello", since: -1}));
	  others.push(w);
	}`
	err = chromedp.Do(bctx,
		chromedp.Evaluate[chromedp.Void](open),
		untilJS(`document.getElementById("conn").textContent === "playing in another window: reload to play here"`),
	)
	if err != nil {
		dctx, dcancel := context.WithTimeout(startCtx, 5*time.Second)
		defer dcancel()
		seen, _ := chromedp.Run(dctx, chromedp.Evaluate[string](`document.getElementById("conn").textContent`))
		t.Fatalf("%v; the connection line shows %q", err, seen)
	}
	retry, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.dataset.retryMs ?? "none"`))
	if err != nil || retry != "none" {
		t.Fatalf("the replaced page plans to reconnect in %s ms (%v)", retry, err)
	}
	alive, err := chromedp.Run(bctx, chromedp.Evaluate[int](`others.filter((w) => w.readyState === WebSocket.OPEN).length`))
	if err != nil || alive != table.MaxSeatConns {
		t.Fatalf("%d of the newer connections open (%v)", alive, err)
	}
}
