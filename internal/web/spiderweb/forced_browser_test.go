package spiderweb

import (
	"context"
	"fmt"
	"math"
	"strings"
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
// (winnable, lost, unknown: backgrounds, all forced to one colour), its
// current point outlined so as to be seen in dark and light themes.
func TestBrowserForcedColors(t *testing.T) {
	t.Parallel()
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
	timelineOutlineSeen(t, p)
}

// timelineOutlineSeen: in a dark high-contrast theme as in a light one,
// the analysis's current point (the timeline's last mark and its legend)
// keeps an outline that stands out from the page: kept in its own
// colours, it was outlined near-black, lost on black.
func timelineOutlineSeen(t *testing.T, p *browserPage) {
	t.Helper()
	for _, scheme := range []string{"dark", "light"} {
		p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "forced-colors", Value: "active"}, {Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}))
		var got struct {
			Canvas   string
			Outlines []string
		}
		p.eval(`(() => { const line = document.getElementById("an-timeline"), legend = document.createElement("span"), pt = document.createElement("span"), bg = document.createElement("div");
		  pt.className = "pt winnable last"; line.appendChild(pt);
		  legend.className = "key last"; line.after(legend);
		  bg.style.cssText = "background-color: Canvas; forced-color-adjust: none"; document.body.appendChild(bg);
		  const out = { canvas: getComputedStyle(bg).backgroundColor, outlines: [pt, legend].map((e) => getComputedStyle(e).outlineStyle + " " + getComputedStyle(e).outlineColor) };
		  for (const e of [pt, legend, bg]) e.remove();
		  return out; })()`, &got)
		canvas := rgbOf(t, got.Canvas)
		if dark := luminance(canvas) < 0.2; dark != (scheme == "dark") {
			t.Fatalf("the %s high-contrast theme's page colour is %s: the theme is not emulated", scheme, got.Canvas)
		}
		for i, o := range got.Outlines {
			style, colour, _ := strings.Cut(o, " ")
			if style == "none" {
				t.Errorf("%s theme: the current point's mark %d has no outline", scheme, i)
				continue
			}
			if r := contrast(rgbOf(t, colour), canvas); r < 3 {
				t.Errorf("%s theme: the current point's mark %d is outlined %s on the page's %s, contrast %.2f, want at least 3", scheme, i, colour, got.Canvas, r)
			}
		}
	}
}

// rgbOf reads a computed "rgb(r, g, b)" colour.
func rgbOf(t *testing.T, s string) [3]float64 {
	t.Helper()
	var c [3]float64
	if _, err := fmt.Sscanf(strings.Replace(s, "rgba", "rgb", 1), "rgb(%g, %g, %g", &c[0], &c[1], &c[2]); err != nil {
		t.Fatalf("colour %q: %v", s, err)
	}
	return c
}

// luminance is a colour's relative luminance (WCAG 2).
func luminance(c [3]float64) float64 {
	var l [3]float64
	for i, v := range c {
		v /= 255
		if v <= 0.03928 {
			l[i] = v / 12.92
		} else {
			l[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// contrast is the WCAG contrast ratio of two colours.
func contrast(a, b [3]float64) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}
