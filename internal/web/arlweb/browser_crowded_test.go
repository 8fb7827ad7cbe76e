package arlweb

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonCrowdedAddressJoins: a visitor refused a
// spectator place, their address holding the most a table takes (a
// classroom behind one router), is told what to do, is shown the join
// form as the table has an open seat, and takes that seat: the page then
// plays from it.
func TestBrowserArlingtonCrowdedAddressJoins(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	for range table.MaxAddrWatch {
		e.client().dial(id, -1).waitFor(isView)
	}
	bctx := startBrowser(t)
	p := seatTabIn(t, bctx, "ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/" + id))
	p.until(`!document.getElementById("join").hidden`)
	if msg := eval[string](p, `document.getElementById("error").textContent`); !strings.Contains(msg, "spectators from your address") ||
		!strings.Contains(msg, "you can still take an open seat") {
		t.Fatalf("the refused page says %q", msg)
	}
	// Refused again and again, the page waits longer each time (a wait
	// of 500 ms or more comes by the fourth attempt); it tried every 125
	// to 250 ms for ever, the socket's opening starting the wait afresh.
	p.until(`Number(document.body.dataset.retryMs) >= 500`)
	eval[bool](p, `(() => { document.getElementById("name").value = "Ann"; document.getElementById("join-form").requestSubmit(); return true })()`)
	p.until(`document.querySelector("#hand button") !== null`)
	if s := e.hub.List()[0].Seats[0]; s.Name != "Ann" || !s.Present {
		t.Fatalf("after joining the seat is %+v", s)
	}
}
