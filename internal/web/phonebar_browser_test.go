package web_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// TestBrowserBarsFitSmallPhone: at 360×640 (a small phone held upright)
// the lobby's header keeps its links inside the window and the page does
// not scroll sideways. Its four links (cardtable, Spider, Rules, Your
// games) ran 2 px past the window's edge, so the whole page slid
// sideways under a finger. TestLongBrowserBarsFitSmallPhone checks every
// page.
func TestBrowserBarsFitSmallPhone(t *testing.T) {
	t.Parallel()
	p := openSite(t, webtest.StartBrowser(t), siteServer(t), 360, 640)
	p.open("/arlington/", lobbyReady)
	p.barFits("/arlington/")
	// The smallest phones in use, 320 px wide: "Your games" ran 12 px
	// past the edge.
	p.step("a 320 px window", chromedp.EmulateViewport(320, 568))
	p.barFits("/arlington/ at 320 px")
}

// TestLongBrowserBarsFitSmallPhone (long: six pages, about 8 s under
// -race): as TestBrowserBarsFitSmallPhone, on every page.
func TestLongBrowserBarsFitSmallPhone(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := openSite(t, webtest.StartBrowser(t), siteServer(t), 360, 640)
	p.open("/", frontReady)
	var table struct{ ID string }
	if code := p.fetch("POST", "/api/arlington/tables", `{"players": 2, "bots": ["", "random"]}`, &table); code != http.StatusCreated {
		t.Fatalf("creating a table: %d", code)
	}
	loaded := `document.readyState === "complete"`
	for _, page := range []struct{ path, ready string }{
		{"/", frontReady},
		{"/spider/", spiderReady},
		{"/arlington/", lobbyReady},
		{"/arlington/games", `location.pathname === "/arlington/games" && ` + loaded},
		{"/arlington/rules", `location.pathname === "/arlington/rules" && ` + loaded},
		{"/arlington/t/" + table.ID, tableReady},
	} {
		p.open(page.path, page.ready)
		p.barFits(page.path)
	}
}

// barFits: the page at path does not scroll sideways, and its header's
// links are inside the window.
func (p *sitePage) barFits(path string) {
	p.t.Helper()
	p.noSideways(path)
	var out []string
	p.eval(`[...document.querySelectorAll("header a")].filter((a) => { const r = a.getBoundingClientRect();
	  return r.width > 0 && (r.left < 0 || r.right > document.documentElement.clientWidth); }).map((a) => a.textContent)`, &out)
	if len(out) > 0 {
		p.t.Errorf("%s: the header's links %q run past the window's edge", path, out)
	}
}

// TestBrowserBarTapsPhoneLandscape: a phone turned sideways (844×390,
// touch) is wider than 600 px, and the header's links fell back to the
// desktop's 36 px height: under a thumb's 40. A touch screen keeps them
// 44 px high whatever its width; a desktop window of that size (no
// touch) keeps the compact bar.
func TestBrowserBarTapsPhoneLandscape(t *testing.T) {
	t.Parallel()
	p := openSite(t, webtest.StartBrowser(t), siteServer(t), 844, 390)
	p.step("a phone held sideways", chromedp.EmulateViewport(844, 390, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateLandscape))
	p.open("/arlington/", lobbyReady)
	var low []string
	p.eval(`[...document.querySelectorAll("header a")].filter((a) => a.getBoundingClientRect().height < 44).map((a) => a.textContent + " " + a.getBoundingClientRect().height)`, &low)
	if len(low) > 0 {
		p.t.Errorf("on a touch screen held sideways the header's links %q are under 44 px high", low)
	}
	p.barFits("/arlington/ sideways")
	p.step("a desktop window of that size", chromedp.EmulateViewport(844, 390))
	var h float64
	p.eval(`document.querySelector("header a").getBoundingClientRect().height`, &h)
	if h != 36 {
		p.t.Errorf("in a desktop window (no touch) the header's links are %v px high, want the compact 36", h)
	}
}

// TestBrowserArlingtonPagesOnPhone: on a phone (360×740 and 390×844) the
// lobby, the Rules page and "Your games" show their names whole in the
// bar (the lobby's, beside four links, was cut to "A"), and the bar fits
// in the room the page keeps clear under it (--bar-pad). Only the table
// page, whose bar also holds the connection line, keeps its name for
// screen readers alone; the rule that does so hid every Arlington page's
// name. Each choice of the lobby's lists shows whole once chosen: the
// turn timer's default, its rule in its words, read "default (60 s with
// bots or rated, off withou".
func TestBrowserArlingtonPagesOnPhone(t *testing.T) {
	t.Parallel()
	srv := siteServer(t)
	loaded := `document.readyState === "complete"`
	for _, size := range [][2]int64{{360, 740}, {390, 844}} {
		p := openSite(t, webtest.StartBrowser(t), srv, size[0], size[1])
		for _, path := range []string{"/arlington/", "/arlington/rules", "/arlington/games"} {
			p.open(path, `location.pathname === "`+path+`" && `+loaded)
			var got struct{ Shown, Whole, Bar, Pad float64 }
			p.eval(`(() => { const h = document.querySelector("header h1");
			  return {Shown: h.checkVisibility() ? h.getBoundingClientRect().width : 0, Whole: h.scrollWidth,
			    Bar: document.querySelector("header").getBoundingClientRect().height,
			    Pad: parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--bar-pad"))}; })()`, &got)
			if got.Shown < 40 || got.Whole > got.Shown+1 {
				t.Errorf("%dx%d %s: its name is not shown whole in the bar (%v px of %v)", size[0], size[1], path, got.Shown, got.Whole)
			}
			if got.Bar > got.Pad {
				t.Errorf("%dx%d %s: the bar is %v px high, more than the %v px the page keeps clear under it", size[0], size[1], path, got.Bar, got.Pad)
			}
			if path != "/arlington/" {
				continue
			}
			// Six seats: a list for each, a person or a bot.
			p.step("six seats", chromedp.SetValue(chromedp.CSS("#players"), "6"),
				chromedp.Evaluate[chromedp.Void](`document.getElementById("players").dispatchEvent(new Event("change"))`))
			cut, err := webtest.CutChoices(p.ctx, "#create")
			if err != nil {
				t.Fatal(err)
			}
			if len(cut) > 0 {
				t.Errorf("%dx%d: the lobby's lists cut these choices short: %q", size[0], size[1], cut)
			}
			// The default named as the table is set: off at a casual table of
			// people alone, 60 s once a seat is a bot's (table.Config).
			// "off" is offered only while Rated is not ticked (a rated
			// table needs a timer), and ticking Rated moves off to the default.
			var said []string
			p.eval(`(() => { const list = document.getElementById("timer");
			  const said = () => list.options[0].text + (list.querySelector('option[value="-1"]').disabled ? ", no off" : ", off") + " / " + list.value;
			  const out = [said()];
			  for (const s of document.querySelectorAll("#seats select")) { s.value = ""; s.dispatchEvent(new Event("change", { bubbles: true })); }
			  out.push(said());
			  const rated = document.getElementById("rated");
			  rated.click();
			  out.push(said());
			  const seat = document.querySelector("#seats select");
			  seat.value = "random"; seat.dispatchEvent(new Event("change", { bubbles: true }));
			  list.value = "-1";
			  out.push(said());
			  rated.click();
			  out.push(said());
			  return out; })()`, &said)
			want := []string{"default (60 s), no off / 0", "default (60 s), no off / 0", "default (off), off / 0",
				"default (60 s), off / -1", "default (60 s), no off / 0"}
			if !slices.Equal(said, want) {
				t.Errorf("%dx%d: the turn timer read %q (bots and rated; people alone, rated; casual; a bot, casual, off chosen; rated again), want %q",
					size[0], size[1], said, want)
			}
		}
	}
}
