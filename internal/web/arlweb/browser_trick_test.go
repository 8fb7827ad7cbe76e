package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLongBrowserArlingtonTrickNames (long: a browser, several seconds under
// -race; make test-long runs it): the name under each card of the trick
// in play is shown whole ("Bot 2 (random)" on two lines), on a phone and
// a desktop. It was cut to "Bot 2 (ra…", and two long names alike could
// not be told apart. On the phone the names stay clear of their cards
// (trickClear).
func TestLongBrowserArlingtonTrickNames(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	bctx := startBrowser(t)
	for _, size := range []struct {
		name string
		w, h int64
	}{{"phone", 390, 844}, {"desktop", 1280, 800}} {
		t.Run(size.name, func(t *testing.T) {
			id := e.client().create("", "random", "random", "random")
			p := newSeatTab(t, bctx, size.name)
			p.do(chromedp.EmulateViewport(size.w, size.h))
			p.open(e.srv.URL, id)
			p.join("Ann")
			p.auto(true)
			// Caught in one look, while the page plays on: a trick in play
			// with a bot's card, and which of its names do not fit.
			p.until(`(() => {
			  const fs = [...document.querySelectorAll("#play figcaption")];
			  if (!fs.some((f) => f.textContent.startsWith("Bot "))) return false;
			  window.__clipped = fs.filter((f) => f.scrollWidth > f.clientWidth || f.scrollHeight > f.clientHeight).map((f) => f.textContent);
			  return true;
			})()`)
			p.auto(false)
			p.shot("arlington-trick-names-" + size.name)
			if clipped := eval[[]string](p, `window.__clipped`); len(clipped) > 0 {
				t.Errorf("names cut short under the trick's cards: %q", clipped)
			}
			// On the desktop TestBrowserArlingtonSixSeatsDesktop does it.
			if size.name == "phone" {
				trickClear(t, p, 3)
			}
		})
	}
}
