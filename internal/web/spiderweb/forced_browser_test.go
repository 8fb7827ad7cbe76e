package spiderweb

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// forcedColors has the page's media queries see forced-colors: active, as
// Windows' high contrast themes do: the browser then drops box-shadows
// and background colours and draws text and outlines in system colours.
func forcedColors() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "forced-colors", Value: "active"}}})
		return err
	})
}

// TestBrowserForcedColors: in forced colours the hint's destination is
// still marked (it was a box-shadow alone, dropped, so the hint showed
// only the cards to move) and the analysis's timeline keeps its colours
// (winnable, lost, unknown: backgrounds, all forced to one colour).
func TestBrowserForcedColors(t *testing.T) {
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	p.do(forcedColors())
	p.keys("h")
	p.waitJS(`document.querySelector(".pile.hint-dst .card:last-child")`, "the hint's destination")
	var mark struct{ Outline, Shadow string }
	p.eval(`(() => { const s = getComputedStyle(document.querySelector(".pile.hint-dst .card:last-child"));
	  return { outline: s.outlineStyle, shadow: s.boxShadow }; })()`, &mark)
	if mark.Outline == "none" && mark.Shadow == "none" {
		t.Errorf("in forced colours the hint's destination has no outline (%q) nor shadow (%q): it is not marked", mark.Outline, mark.Shadow)
	}
	// The timeline's marks and legend, as analysis.js draws them.
	var colours []string
	p.eval(`(() => { const line = document.getElementById("an-timeline"), legend = document.createElement("span");
	  const marks = ["winnable", "lost", "unknown"].map((k) => { const e = document.createElement("span"); e.className = "pt " + k; line.appendChild(e); return e; });
	  legend.className = "key lost"; line.after(legend);
	  const out = [...marks, legend].map((e) => getComputedStyle(e).backgroundColor);
	  for (const e of [...marks, legend]) e.remove();
	  return out; })()`, &colours)
	want := []string{"rgb(46, 139, 78)", "rgb(200, 16, 46)", "rgb(154, 154, 154)", "rgb(200, 16, 46)"}
	for i, c := range colours {
		if c != want[i] {
			t.Errorf("in forced colours the timeline's mark %d is %s, want its own colour %s", i, c, want[i])
		}
	}
}
