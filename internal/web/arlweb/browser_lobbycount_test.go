package arlweb

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonLobbyPeopleHere: the lobby tells people, not
// connections: the seated person connected with two windows is one
// player here, and a spectator with two windows is one watching; a table
// nobody is connected to says neither.
func TestBrowserArlingtonLobbyPeopleHere(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	ann, bob := e.client(), e.client()
	id := ann.create("", "", "random")
	ann.join(id, "Ann")
	for _, c := range []*client{ann, ann, bob, bob} {
		c.dial(id, -1).waitFor(isView)
	}
	quiet := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	sub := func(id string) string {
		p.until(`document.querySelector('a[href="/arlington/t/` + id + `"] .t-sub') !== null`)
		return eval[string](p, `document.querySelector('a[href="/arlington/t/`+id+`"] .t-sub').textContent`)
	}
	if got := sub(id); !strings.HasSuffix(got, " · 1 player here · 1 watching") {
		t.Errorf("a table with Ann in two windows and a spectator in two says %q, want 1 player here and 1 watching", got)
	}
	if got := sub(quiet); strings.Contains(got, "here") || strings.Contains(got, "watching") || strings.Contains(got, "connected") {
		t.Errorf("a table nobody is connected to says %q", got)
	}
}
