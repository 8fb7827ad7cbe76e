package arlweb

import (
	"fmt"
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
	t.Parallel()
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
		!strings.Contains(msg, "you can still join the game") {
		t.Fatalf("the refused page says %q", msg)
	}
	// Refused again and again, the page waits longer each time (a wait
	// of 500 ms or more comes by the fourth attempt); it tried every 125
	// to 250 ms for ever, the socket's opening starting the wait afresh.
	p.until(`Number(document.body.dataset.retryMs) >= 500`)
	joinRefused(t, e, p)
}

// TestBrowserArlingtonCrowdedTableJoins: a visitor refused a spectator
// place because the table has the most it takes (not for their address)
// is shown the join form too, the table having an open seat: the page
// goes by the refusal's seatOpen, not its words, which differ here from
// the crowded address's (a page matching the words "take an open seat"
// showed no form).
func TestBrowserArlingtonCrowdedTableJoins(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	tb, err := e.hub.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	for i := range table.MaxSpectators {
		s, err := tb.Subscribe(t.Context(), fmt.Sprintf("watcher%d", i), -1)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
	}
	p := seatTabIn(t, startBrowser(t), "ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/" + id))
	p.until(`!document.getElementById("join").hidden`)
	if msg := eval[string](p, `document.getElementById("error").textContent`); !strings.Contains(msg, "the most a table takes") {
		t.Fatalf("the refused page says %q", msg)
	}
	joinRefused(t, e, p)
}

// TestBrowserArlingtonCrowdedJoinConnectsAtOnce: a page refused a
// spectator place has no connection, only an attempt planned; joining
// connects it at once, as the seated person, not at that attempt. Here
// the planned attempt is cancelled (every timer the page set), so only
// the join's own connection can bring the seat's view.
func TestBrowserArlingtonCrowdedJoinConnectsAtOnce(t *testing.T) {
	t.Parallel()
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
	joinRefused(t, e, p)
}

// TestBrowserArlingtonCrowdedFullNoForm: a visitor refused a spectator
// place at a table with no open seat (its one person's seat taken, the
// game started) is told why and shown no join form: the refusal has no
// seatOpen, and the page offers a seat only on it, whatever the
// refusal's class (a page showing the form on every too_many refusal
// offered a seat there was not).
func TestBrowserArlingtonCrowdedFullNoForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	e.client().join(id, "Bob")
	for range table.MaxAddrWatch {
		e.client().dial(id, -1).waitFor(isView)
	}
	p := seatTabIn(t, startBrowser(t), "ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/" + id))
	p.until(`document.getElementById("error").textContent.includes("spectators from your address")`)
	if msg := eval[string](p, `document.getElementById("error").textContent`); strings.Contains(msg, "you can still join") {
		t.Fatalf("the refused page says %q", msg)
	}
	if eval[bool](p, `!document.getElementById("join").hidden`) {
		t.Fatal("the join form shows at a table with no open seat")
	}
}

// TestBrowserArlingtonCrowdedSeatGoneHidesForm: a refused page shown the
// join form (a seat open) hides it again when a later refusal, its next
// attempt's, says no seat is open (someone else took the seat): the
// form stayed, offering a seat that was gone.
func TestBrowserArlingtonCrowdedSeatGoneHidesForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	for range table.MaxAddrWatch {
		e.client().dial(id, -1).waitFor(isView)
	}
	p := seatTabIn(t, startBrowser(t), "ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/" + id))
	p.until(`!document.getElementById("join").hidden`)
	e.client().join(id, "Bob")
	p.until(`document.getElementById("join").hidden && !document.getElementById("error").textContent.includes("you can still join")`)
}

// joinRefused takes the open seat as Ann through the join form of p, a
// page refused a spectator place, and checks she holds it, present.
func joinRefused(t *testing.T, e *env, p *seatTab) {
	t.Helper()
	eval[bool](p, `(() => { document.getElementById("name").value = "Ann"; document.getElementById("join-form").requestSubmit(); return true })()`)
	p.until(`document.querySelector("#hand button") !== null`)
	if s := e.hub.List()[0].Seats[0]; s.Name != "Ann" || !s.Present {
		t.Fatalf("after joining the seat is %+v", s)
	}
}
