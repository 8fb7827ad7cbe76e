package arlweb

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// trickClear has p's page play on at the fast speed with its cards
// moving (no reduced motion) and checks, at two moments, that each name
// under a card of the trick is clear of its card as drawn (its taker's
// ring included): halfway through the move of a card onto a trick that
// has at least minCards then, and once a whole trick is taken and held.
// The card rose alone, half-faded over its name ("Bot 2 (random)" across
// its lower edge), and the taker's ring ran over "Ann". The page is left
// playing no more, the speed still fast.
func trickClear(t *testing.T, p *seatTab, minCards int) {
	t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "no-preference"}}})
		return err
	}), chromedp.SetValue(chromedp.CSS("#speed"), "fast"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("speed").dispatchEvent(new Event("change"))`))
	p.auto(true)
	defer p.auto(false)
	// The move is held halfway, looked at and let finish, in one step of
	// the page: the wait sees the card as it is put down (its observer).
	p.untilPlayed(`(() => {
	  const a = document.querySelector("#play .arrive");
	  const move = a && a.getAnimations()[0];
	  if (!move || document.querySelectorAll("#play figure").length < ` + strconv.Itoa(minCards) + `) return false;
	  move.pause();
	  move.currentTime = move.effect.getComputedTiming().duration / 2;
	  window.__moving = (` + overCards + `)();
	  move.finish();
	  return true;
	})()`)
	if over := eval[[]string](p, `window.__moving`); len(over) > 0 {
		t.Errorf("halfway through a card's move onto the trick, these names are over their cards: %q", over)
	}
	// The trick held is measured at rest: its last card may still be
	// moving in when the page marks it held.
	p.untilPlayed(`document.querySelector("#play.held .played.taker") !== null &&
	  (document.getAnimations().forEach((a) => a.finish()), window.__held = (` + overCards + `)(), window.__level = (` + unlevelCards + `)(), true)`)
	if over := eval[[]string](p, `window.__held`); len(over) > 0 {
		t.Errorf("in a trick taken, these names are over their cards (or the taker's ring): %q", over)
	}
	if off := eval[[]string](p, `window.__level`); len(off) > 0 {
		t.Errorf("in a trick taken, these cards side by side do not stand level: %q", off)
	}
}

// unlevelCards is a JS function giving the pairs of the trick's cards, by
// their players' names, that sit side by side (their figures on one line)
// with their tops more than half a pixel apart: a card over a name of one
// line stood 7 px lower than one over a name of two.
const unlevelCards = `() => {
  const fs = [...document.querySelectorAll("#play figure")].map((f) =>
    ({ box: f.getBoundingClientRect(), top: f.querySelector(".card").getBoundingClientRect().top, name: f.querySelector("figcaption").textContent }));
  return fs.flatMap((a, i) => fs.slice(i + 1).filter((b) => a.box.top < b.box.bottom && b.box.top < a.box.bottom && Math.abs(a.top - b.top) > 0.5)
    .map((b) => a.name + " " + a.top.toFixed(1) + " / " + b.name + " " + b.top.toFixed(1)));
}`

// overCards is a JS function giving the names under the trick's cards
// whose boxes meet their card's, the card's ring (outline) included.
const overCards = `() => [...document.querySelectorAll("#play figure")].filter((f) => {
  const card = f.querySelector(".card"), st = getComputedStyle(card);
  const ring = st.outlineStyle === "none" ? 0 : parseFloat(st.outlineWidth) + parseFloat(st.outlineOffset);
  const c = card.getBoundingClientRect(), n = f.querySelector("figcaption").getBoundingClientRect();
  return n.top < c.bottom + ring && n.bottom > c.top - ring && n.left < c.right + ring && n.right > c.left - ring;
}).map((f) => f.querySelector("figcaption").textContent)`
