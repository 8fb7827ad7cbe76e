package spiderweb

import (
	"reflect"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDealLink: opening a link to a deal (?deal=N) counts the game
// the browser leaves, as the new-game dialog does; the linked game is the
// deal as named, whatever the player's settings (open tableau, relaxed
// dealing, another variant), and the settings stay as they were.
func TestBrowserDealLink(t *testing.T) {
	t.Parallel()
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800) // a random 4-suit Arachnid deal
	p.keys("d")
	p.waitJS(`document.querySelector("#st-moves").textContent === "1"`, "the deal")
	p.idle()
	if g := statsGroup4(p, srv.URL); g.Played != 0 {
		t.Fatalf("before the link: %d games counted", g.Played)
	}
	var code int
	p.eval(`fetch("/api/settings", {method: "PUT", headers: {"Content-Type": "application/json"},
	  body: JSON.stringify({newGame: {variant: "spider", suits: 1, open: true, relaxed: true, autoRemove: false, winnable: false}})}).then((r) => r.status)`, &code)
	if code != 200 {
		t.Fatalf("storing the settings: %d", code)
	}

	// The links are written as they were when the Spider page was the
	// front page (/?deal=617): the server sends them on to /spider/.
	open := func(query string) {
		t.Helper()
		p.do(chromedp.Navigate(srv.URL + "/" + query))
		p.waitJS(`location.pathname === "/spider/" && document.body.dataset.ready === "1" && document.body.dataset.busy === "0"`, "the Spider page to start "+query)
	}
	open("?deal=617")
	if g := statsGroup4(p, srv.URL); g.Played != 1 || g.Won != 0 {
		t.Fatalf("the game left for the link: played %d, won %d; want it counted as a loss", g.Played, g.Won)
	}
	v := p.serverView()
	if v.Deal != 617 || v.Variant != "arachnid" || v.Suits != 4 || v.Open || v.Relaxed || !v.AutoRemove || v.Moves != 0 {
		t.Fatalf("?deal=617 started %+v; want deal 617 as named, without the player's settings", v)
	}
	p.shot("deal-link")

	// A link naming its options gets them; the settings stay the player's.
	open("?deal=5&variant=spider&suits=2")
	v = p.serverView()
	if v.Deal != 5 || v.Variant != "spider" || v.Suits != 2 || v.Open || v.Relaxed {
		t.Fatalf("?deal=5&variant=spider&suits=2 started %+v", v)
	}
	if g := statsGroup4(p, srv.URL); g.Played != 1 {
		t.Fatalf("a game left without a move was counted: played %d", g.Played)
	}
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	var form struct {
		Variant string `json:"variant"`
		Suits   string `json:"suits"`
		Open    bool   `json:"open"`
	}
	p.eval(`(() => { const f = document.querySelector("#form-new");
	  return {variant: f.variant.value, suits: f.suits.value, open: f.open.checked}; })()`, &form)
	if form.Variant != "spider" || form.Suits != "1" || !form.Open {
		t.Fatalf("after the links the new-game dialog offers %+v; want the player's settings (spider, 1 suit, open)", form)
	}
}

// TestLongBrowserBadDealLink: a link the server refuses (a deal that is not a
// number, a suit count it does not deal) says why and leaves the player on
// the game they were playing, which it does not count as left; before, the
// page showed an empty table.
func TestLongBrowserBadDealLink(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.keys("d")
	p.waitJS(`document.querySelector("#st-moves").textContent === "1"`, "the deal")
	p.idle()
	id := p.gameID()
	want := domOf(p.serverView())
	for _, query := range []string{"?deal=abc", "?deal=617&suits=3"} {
		p.do(chromedp.Navigate(srv.URL + "/" + query))
		p.waitJS(`document.body.dataset.ready === "1" && document.body.dataset.busy === "0"`, "the page to start "+query)
		p.waitJS(`(document.body.dataset.lastError || "") !== ""`, "the refusal of "+query)
		if got := p.gameID(); got != id {
			t.Errorf("%s: the page shows game %s, want the game it had, %s", query, got, id)
		}
		if got := p.dom(); !reflect.DeepEqual(got, want) {
			p.shot("bad-link")
			t.Fatalf("%s: the page shows\n%+v\nwant the game it had\n%+v", query, got, want)
		}
		p.eval(`delete document.body.dataset.lastError`, nil)
	}
	if g := statsGroup4(p, srv.URL); g.Played != 0 {
		t.Errorf("a refused link counted the game it did not leave: played %d", g.Played)
	}
}
