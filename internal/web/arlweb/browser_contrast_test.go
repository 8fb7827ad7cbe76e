package arlweb

import (
	"encoding/json"
	"testing"

	"github.com/chromedp/chromedp"
)

// contrastJS measures the contrast of the text of each element matching
// a selector against what lies under it, over the felt's lightest shade
// (--felt-light, the middle of its gradient): the worst place it can be.
// It gives each selector's lowest ratio, or 0 where nothing matches.
const contrastJS = `((sels) => {
  const rgb = (c) => { const p = c.match(/[\d.]+/g).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const probe = document.createElement("i");
  probe.style.color = getComputedStyle(document.documentElement).getPropertyValue("--felt-light");
  document.body.appendChild(probe);
  const felt = rgb(getComputedStyle(probe).color);
  probe.remove();
  const out = {};
  for (const sel of sels) {
    out[sel] = 0;
    for (const e of document.querySelectorAll(sel)) {
      const layers = [];
      let opacity = 1;
      for (let x = e; x && x !== document.body; x = x.parentElement) {
        const s = getComputedStyle(x);
        opacity *= +s.opacity;
        const bg = rgb(s.backgroundColor);
        if (bg.a > 0) layers.push(bg);
      }
      let under = felt;
      for (const l of layers.reverse()) under = over(l, under);
      const fg = rgb(getComputedStyle(e).color);
      const text = over({ ...fg, a: fg.a * opacity }, under);
      const a = lum(text), b = lum(under);
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (!out[sel] || ratio < out[sel]) out[sel] = ratio;
    }
  }
  return out;
})`

// TestBrowserArlingtonSmallTextContrast: the players' badges ("dealer",
// "to play") and the points on the action buttons ("+8 for you",
// "Bot 2 −8"), small type, keep 4.5:1 against what lies under them over
// the felt's lightest shade. They were 3.4:1 (the badges, light on a
// lighter pill) and 4.3:1 and 3.7:1 (the points, pale colours at 85%
// opacity on a button).
func TestBrowserArlingtonSmallTextContrast(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	_, _, p := openTable(t, e, "Ann", longGame, "", "random")
	p.join("Ann")
	p.until(`document.querySelector("#actions button[data-action]:not(:disabled)") && document.querySelector("#players .badge")`)
	// Points of both kinds, on a button of the action list as actions.js
	// draws them (which a deal offers at the first turn is chance), made
	// and measured in one step: a view redraws the list.
	sels := []string{"#players .badge", "#actions .act .pts.gain", "#actions .act .pts.hurt"}
	got := eval[map[string]float64](p, `(() => {
	  const list = document.querySelector("#actions .act-list");
	  for (const k of ["gain", "hurt"]) {
	    const b = document.createElement("button"), pts = document.createElement("span");
	    b.className = "act"; pts.className = "pts " + k; pts.textContent = k === "gain" ? "+8 for you" : "Bot 2 −8";
	    b.append(pts, "Lead the set"); list.appendChild(b);
	  }
	  return `+contrastJS+`(`+jsonOf(sels)+`);
	})()`)
	for _, sel := range sels {
		if r := got[sel]; r < 4.5 {
			t.Errorf("%s: text contrast %.2f:1, want 4.5:1 or more", sel, r)
		}
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestBrowserArlingtonEmptyListsContrast: the lobby's empty lists ("no
// one yet", "none") keep 4.5:1 over the felt's lightest shade; at 60%
// opacity they were 3.9:1.
func TestBrowserArlingtonEmptyListsContrast(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelector("#open-tables li") && document.querySelector(".none")`)
	got := eval[map[string]float64](p, contrastJS+`([".none"])`)
	if r := got[".none"]; r < 4.5 {
		t.Errorf("the lobby's empty lists: text contrast %.2f:1, want 4.5:1 or more", r)
	}
}
