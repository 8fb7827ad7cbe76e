package arlweb

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonHintForcedColors: in forced colours (Windows' high
// contrast) the hint's cards in the hand are still marked: a box-shadow
// alone marked them, and forced colours drop every box-shadow.
func TestBrowserArlingtonHintForcedColors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	_, _, p := openTable(t, e, "Ann", longGame, "", "random")
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "forced-colors", Value: "active"}}})
		return err
	}))
	p.join("Ann")
	// A hint that plays cards: a hint to pass is taken, until one comes.
	p.until(`(() => {
	  if (document.querySelector("#hand .hand-card.hinted")) return true;
	  const hint = document.getElementById("btn-hint");
	  if (!hint || hint.disabled || !document.querySelector("#actions button[data-action]:not(:disabled)")) return false;
	  const pass = document.querySelector('#actions button.hinted[data-action="pass"]');
	  if (pass) pass.click();
	  else if (window.__askedAt !== window.__ws.count) { window.__askedAt = window.__ws.count; hint.click(); }
	  return false;
	})()`)
	got := eval[string](p, `getComputedStyle(document.querySelector("#hand .hand-card.hinted svg")).outlineStyle`)
	shadow := eval[string](p, `getComputedStyle(document.querySelector("#hand .hand-card.hinted")).boxShadow`)
	if got == "none" && shadow == "none" {
		t.Errorf("in forced colours a hinted card has no outline nor shadow: the hint's cards are not marked")
	}
}
