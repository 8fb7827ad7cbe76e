package arlweb

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonSeatReplaced: once the player's seat is open in
// more windows than the server keeps, the oldest page is closed as
// replaced: it says the seat is played in another window, disables its
// actions and does not reconnect by itself (coming back would push the
// newer one out in turn). Its "Play here" takes the seat back, and the
// person plays from it again.
func TestBrowserArlingtonSeatReplaced(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	p.join("Ann")
	enabled := selLegal + ":not(:disabled)"
	p.until(`document.querySelector(` + q(enabled) + `)`) // Ann's turn
	// The same person opens the seat again, as other windows would: each
	// connection says hello once open.
	open := `window.others = []; for (let i = 0; i < ` + strconv.Itoa(table.MaxSeatConns) + `; i++) {
	  const w = new WebSocket(location.origin.replace("http", "ws") + "/api/arlington/tables/" + ` + q(id) + ` + "/ws");
	  w.onopen = () => w.send(JSON.stringify({type: "hello", since: -1}));
	  others.push(w);
	}`
	p.do(chromedp.Evaluate[chromedp.Void](open))
	p.until(`document.getElementById("conn").textContent.startsWith("playing in another window")`)
	if retry := eval[string](p, `document.body.dataset.retryMs ?? "none"`); retry != "none" {
		t.Fatalf("the replaced page plans to reconnect in %s ms", retry)
	}
	if alive := eval[int](p, `others.filter((w) => w.readyState === WebSocket.OPEN).length`); alive != table.MaxSeatConns {
		t.Fatalf("%d of the newer connections open", alive)
	}
	if n, on := p.count(selLegal), p.count(enabled); n == 0 || on != 0 {
		t.Fatalf("the replaced page shows %d actions, %d of them enabled; want them all disabled", n, on)
	}
	checkStopped(t, p, "playing in another window")
	p.shot("replaced")
	// Play here: the page reconnects (replacing another connection in
	// turn) and its actions work again.
	p.do(chromedp.Click(chromedp.CSS("#play-here")))
	p.until(`document.getElementById("conn").textContent === "connected" && document.querySelector(` + q(enabled) + `)`)
	// Back to playing: the turn, the Hint button and the cards again.
	p.until(`document.getElementById("status").textContent.includes("your turn") && document.querySelector("#btn-hint:not(:disabled)") && document.querySelector("#hand button:not(:disabled)")`)
	p.play()
	if sent := eval[int](p, `__ws.sent.length`); sent != 1 {
		t.Fatalf("the page sent %d actions, want 1", sent)
	}
}
