package arlweb

import (
	"context"
	"net/url"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserArlingtonReplayGamesFocus: on "Your games", with two
// finished games, Close on a replay gives the keyboard's focus back to
// the Replay button of the game replayed. From the keyboard: Enter on
// the second game's Replay, Enter on Next, the right arrow, Tab to End
// and to Close, Enter; the focus is back on that game's Replay. Then the
// first game's replay opened by a click that does not focus the button
// (as in Safari, or Firefox on a Mac: here the focus is dropped and the
// button clicked from script): Close put the focus on the second game's
// button, kept from the replay before, and scrolled the page to it.
func TestBrowserArlingtonReplayGamesFocus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	ann := e.client()
	ids := []string{finishedTableOf(t, e, ann), finishedTableOf(t, e, ann)}
	p := seatTabIn(t, startBrowser(t), "Ann")
	u, _ := url.Parse(e.srv.URL)
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, c := range ann.hc.Jar.Cookies(u) {
			if _, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: c.Name, Value: c.Value, URL: e.srv.URL, HTTPOnly: new(true)}); err != nil {
				return err
			}
		}
		return nil
	}))
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/games"))
	p.until(`document.querySelectorAll("#games li.game button").length === 2`)
	// The games' buttons, latest first: game 1 is the latest.
	listed := eval[[]string](p, `[...document.querySelectorAll("#games li.game button")].map((b) => b.dataset.id)`)
	if len(listed) != 2 || listed[0] != ids[1] || listed[1] != ids[0] {
		t.Fatalf("the games page lists %v, want %v (latest first)", listed, []string{ids[1], ids[0]})
	}
	const focusedGame = `(() => { const f = document.activeElement; return f ? f.tagName + " " + (f.dataset.id || f.id || "") : "none"; })()`
	step := func(n string) {
		t.Helper()
		p.until(`document.getElementById("rp-pos").textContent.startsWith("Step ` + n + ` of ")`)
	}
	key := func(k string, want string) {
		t.Helper()
		p.do(chromedp.KeyEvent(k))
		if f := eval[string](p, focusedGame); f != want {
			t.Fatalf("after the key %q the focus is on %s, want %s", k, f, want)
		}
	}

	// Game 2 from the keyboard.
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#games button[data-id=` + q(listed[1]) + `]').focus()`))
	key(kb.Enter, "BUTTON rp-next")
	step("1")
	key(kb.Enter, "BUTTON rp-next")
	step("2")
	key(kb.ArrowRight, "BUTTON rp-next")
	step("3")
	key(kb.Tab, "BUTTON rp-last")
	key(kb.Tab, "BUTTON rp-close")
	p.do(chromedp.KeyEvent(kb.Enter))
	if f := eval[string](p, focusedGame); f != "BUTTON "+listed[1] {
		t.Errorf("Close on game 2's replay, opened from the keyboard: the focus went to %s, want game 2's Replay (%s)", f, listed[1])
	}

	// Game 1 by a click that leaves the focus where it was (on <body>).
	p.do(chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(); document.querySelector('#games button[data-id=` + q(listed[0]) + `]').click()`))
	p.until(`!document.getElementById("replay").hidden && document.getElementById("rp-pos").textContent.startsWith("Step 1 of ")`)
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("rp-close").click()`))
	if f := eval[string](p, focusedGame); f != "BUTTON "+listed[0] {
		t.Errorf("Close on game 1's replay, opened by a click that did not focus its button: the focus went to %s, want game 1's Replay (%s)", f, listed[0])
	}
}
