package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonSetsLookWide: with a set on the table, the page
// goes from a phone's width (390 px, the small card pictures) to 1200
// px: the sets on the table are drawn again with the large pictures.
// They kept the small ones, their redraw keeping what did not change.
func TestBrowserArlingtonSetsLookWide(t *testing.T) {
	t.Parallel()
	r := redrawRigAt(t)
	p := r.p
	r.setDown()
	const uses = `[...document.querySelectorAll("#players .sets use, #players .p-known use")].map((u) => u.getAttribute("href"))`
	if got := eval[[]string](p, uses); len(got) == 0 || !allPrefixed(got, "#cardsm-") {
		t.Fatalf("at 390 px the sets show %q, not the small pictures", got)
	}
	p.do(chromedp.EmulateViewport(1200, 900))
	// The page redraws at the media query's change event, after the
	// width changed: the test waits for the large pictures, within its
	// bound (the large pictures, #card-*, on every set's card).
	p.until(uses + `.every((h) => h.startsWith("#card-"))`)
}

func allPrefixed(xs []string, prefix string) bool {
	for _, x := range xs {
		if len(x) < len(prefix) || x[:len(prefix)] != prefix {
			return false
		}
	}
	return true
}

// TestBrowserArlingtonSyncKeepsFocus: the page's keyed redraw (sync,
// common.js, which draws the action buttons) puts buttons in a new order
// where the focused one goes before others, as a cleared selection puts
// the actions matching it back after the others: the focus stays on
// the button it was on (moving it in the page dropped the focus onto the
// page's body), and the order is the new one.
func TestBrowserArlingtonSyncKeepsFocus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	for _, c := range []struct {
		name          string
		before, after string // the keys in order; the focus on "c"
	}{
		{"to the front", "abcd", "cabd"},
		{"one back", "abcd", "acbd"},
		{"reversed", "abcd", "dcba"},
		{"with one gone and one new", "abcd", "ecda"},
		{"to the back", "cabd", "abdc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.do(chromedp.Evaluate[chromedp.Void](`window.__sync = undefined; import("/arlington/common.js").then((m) => {
			  const box = document.createElement("div");
			  document.body.appendChild(box);
			  const entries = (keys) => [...keys].map((k) => ({ key: k, make: () => { const b = document.createElement("button"); b.textContent = k; return b; } }));
			  m.sync(box, entries(` + q(c.before) + `));
			  [...box.children].find((b) => b.textContent === "c").focus();
			  m.sync(box, entries(` + q(c.after) + `));
			  window.__sync = { order: [...box.children].map((b) => b.textContent).join(""), focus: document.activeElement.tagName === "BUTTON" ? document.activeElement.textContent : document.activeElement.tagName };
			  box.remove();
			})`))
			p.until(`window.__sync !== undefined`)
			type res struct{ Order, Focus string }
			got := eval[res](p, `window.__sync`)
			if got.Order != c.after {
				t.Errorf("the buttons are %q, not %q", got.Order, c.after)
			}
			if got.Focus != "c" {
				t.Errorf("the focus is on %s, not the button c", got.Focus)
			}
		})
	}
}
