package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonFieldDrawnAway: a watcher types a name in the join
// form, scrolled down the page, and the last seat is taken meanwhile: the
// redraw hides the form. The page does not try to keep the hidden field
// where it was (a hidden field's place reads as the window's top, so
// keeping it scrolled the page up by the field's distance from the
// window's top, 150 px here).
func TestBrowserArlingtonFieldDrawnAway(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Watcher")
	p.do(chromedp.EmulateViewport(390, 400))
	p.open(e.srv.URL, id)
	p.until(`!document.querySelector(` + q(selJoin) + `).hidden`)
	// The page made tall enough to scroll (room above the form and below),
	// the field 150 px down the window.
	eval[bool](p, `(() => { document.body.style.paddingTop = "600px"; document.body.style.paddingBottom = "3000px"; const f = document.querySelector(`+q(selName)+`);
	  window.scrollBy(0, f.getBoundingClientRect().top - 150); f.focus(); return true; })()`)
	p.do(chromedp.SendKeys(chromedp.CSS(selName), "Wa"))
	before := eval[float64](p, `window.scrollY`)
	if before < 100 {
		t.Fatalf("the page scrolled only %.0f px: the test cannot see it scroll up", before)
	}
	// What the page's script asks to scroll (the browser's own scroll
	// anchoring, as the form goes, is not the page's doing).
	eval[bool](p, `(() => { window.__scrolls = []; const by = window.scrollBy; window.scrollBy = (x, y) => { window.__scrolls.push(y); return by.call(window, x, y); }; return true; })()`)
	e.client().join(id, "Bob")
	p.until(`document.querySelector(` + q(selJoin) + `).hidden`)
	// Two frames after the redraw: any scroll it asked for is done.
	eval[bool](p, `(() => { window.__framed = false; requestAnimationFrame(() => requestAnimationFrame(() => { window.__framed = true; })); return true; })()`)
	p.until(`window.__framed`)
	if asked := eval[[]float64](p, `window.__scrolls`); len(asked) > 0 {
		t.Errorf("the page scrolled by %v px as the join form it was typing in went away (at %.0f px before)", asked, before)
	}
}
