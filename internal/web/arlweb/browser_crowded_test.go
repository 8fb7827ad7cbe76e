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

// TestBrowserArlingtonCrowdedJoinConnectsAtOnce: a page refused a
// spectator place has no connection, only an attempt planned; joining
// connects it at once, as the seated person, not at that attempt. Here
// the planned attempt is cancelled (every timer the page set), so only
// the join's own connection can bring the seat's view.
func TestBrowserArlingtonCrowdedJoinConnectsAtOnce(t *testing.T) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	for range table.MaxAddrWatch {
		e.client().dial(id, -1).waitFor(isView)
	}
	p := seatTabIn(t, startBrowser(t), "ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/" + id))
	p.until(`!document.getElementById("join").hidden`)
	// Between attempts (the last refused one closed, the next one waiting
	// its timer), the page's timers are all cleared at once.
	p.until(`(() => {
	  if (document.body.dataset.next !== "wait") return false;
	  const top = setTimeout(() => {}, 0);
	  for (let i = 1; i <= top; i++) clearTimeout(i);
	  return true;
	})()`)
	eval[bool](p, `(() => { document.getElementById("name").value = "Ann"; document.getElementById("join-form").requestSubmit(); return true })()`)
	p.until(`document.querySelector("#hand button") !== null`)
	if s := e.hub.List()[0].Seats[0]; s.Name != "Ann" || !s.Present {
		t.Fatalf("after joining the seat is %+v", s)
	}
}
