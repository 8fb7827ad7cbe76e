package spiderweb

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// cspRecorder is installed in every document before the page's own scripts
// run (a script the browser's debugging protocol adds is not subject to
// the page's policy): it keeps each Content-Security-Policy violation the
// document reports.
const cspRecorder = `window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push({directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample,
    source: e.sourceFile + ":" + e.lineNumber});
}, true);`

// cspViolation is what cspRecorder keeps.
type cspViolation struct {
	Directive, Blocked, Sample, Source string
}

// cspConsole collects the browser's own security messages for the tab (the
// console's "Refused to ... because it violates the following Content
// Security Policy directive"), a second witness besides the page's events.
type cspConsole struct {
	mu   sync.Mutex
	msgs []string
}

func (c *cspConsole) watch(ctx context.Context) {
	messages := chromedp.Console(ctx)
	// Ends with the tab's context, which ends the iteration.
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Source == "security" || strings.Contains(m.Text, "Content Security Policy") {
				c.mu.Lock()
				c.msgs = append(c.msgs, m.Text)
				c.mu.Unlock()
			}
		}
	}()
}

func (c *cspConsole) all() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.msgs...)
}

// TestBrowserCSP plays through the page under the server's
// Content-Security-Policy and checks that the page breaks none of it; then
// it breaks the policy on purpose (an inline script and an inline style) to
// show that a violation would be seen, both by the page's
// securitypolicyviolation events and in the browser's console.
func TestBrowserCSP(t *testing.T) {
	t.Parallel()
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("browser tests skipped with -short")
	}
	bctx := startBrowser(t)
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			// Side by side, each its own player (a browser context) on
			// a server of its own: in one context the two tabs would
			// share one game.
			t.Parallel()
			srv := pageServer(t)
			ctx := webtest.OpenTab(t, bctx, size.w, size.h, chromedp.WithNewBrowserContext())
			p := &browserPage{t: t, ctx: ctx, srv: srv}
			p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument,
					page.AddScriptToEvaluateOnNewDocumentParams{Source: cspRecorder})
				return err
			}))
			var console cspConsole
			console.watch(ctx)
			p.watchErrors()
			p.load()

			// What the page does: a new game, moves by drag and by click,
			// and on the desktop a hint, the dialogs (saved games,
			// statistics with charts, locate, display column), four-colour
			// suits.
			p.newGameByNumber(617)
			p.drag(p.bottomPoint(4), p.bottomPoint(5))
			p.play(spider.Cards(4, 5, 1))
			p.expect("drag JC onto QD")
			p.click(p.bottomPoint(0))
			p.click(p.bottomPoint(3))
			p.play(spider.Cards(0, 3, 1))
			p.expect("click 9C then TH")
			// The phone shows the same page with smaller card faces: the
			// dialogs are tried once, on the desktop.
			if size.name == "desktop" {
				p.clickSel("#btn-hint")
				p.waitJS(`!document.querySelector("#toast").hidden`, "the hint's text")
				p.newGameByNumber(618) // leaves 617 with moves: a lost game, for the charts
				p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
				p.waitJS(`document.querySelector("#dlg-saves").open`, "the saved games dialog")
				p.eval(`document.querySelector("#save-name").value = ""`, nil)
				p.do(chromedp.SendKeys(chromedp.CSS("#save-name"), "csp "+size.name))
				p.clickSel(`#form-save button[type=submit]`)
				p.waitJS(`[...document.querySelectorAll("#saves-list td")].some((td) => td.textContent === "csp `+size.name+`")`, "the save listed")
				p.clickSel(`#dlg-saves [data-close]`)
				p.menu("#btn-game-menu", `#menu-game [data-act="stats"]`)
				p.waitJS(`document.querySelector("#dlg-stats").open && document.querySelector("#stats-charts svg circle")`, "the statistics charts")
				p.clickSel(`#dlg-stats [data-close]`)
				p.menu("#btn-cards-menu", `#menu-cards [data-act="locate"]`)
				p.waitJS(`document.querySelector("#dlg-locate").open`, "the locate dialog")
				p.do(chromedp.SendKeys(chromedp.CSS("#locate-card"), "ks\n"))
				p.waitJS(`document.querySelector("#locate-text").textContent !== ""`, "the locate answer")
				p.clickSel(`#dlg-locate [data-close]`)
				p.menu("#btn-cards-menu", `#menu-cards [data-act="column"]`)
				p.waitJS(`document.querySelector("#dlg-column").open`, "the display column dialog")
				p.clickSel(`#column-piles button[aria-label="Pile 1"]`)
				p.waitJS(`document.querySelector("#column-text").textContent.startsWith("Pile 1")`, "pile 1 displayed")
				p.clickSel(`#dlg-column [data-close]`)
				p.menu("#btn-cards-menu", `#menu-cards [data-set="fourColor"]`)
				p.waitJS(`document.documentElement.classList.contains("four-color")`, "four-colour suits")
				p.menu("#btn-cards-menu", `#menu-cards [data-set="fourColor"]`)

				// The shared sprite (/shared/cards.js) draws Arlington's
				// jokers too: both faces exist, and a joker shown through
				// <use> has a size, so its symbol is not empty.
				var joker struct {
					Big, Small string
					Width      float64
				}
				p.eval(`(() => {
				  const big = document.querySelector("#card-JK text"), small = document.querySelector("#cardsm-JK text");
				  const ns = "http://www.w3.org/2000/svg";
				  const svg = document.createElementNS(ns, "svg");
				  svg.setAttribute("viewBox", "0 0 200 280");
				  svg.setAttribute("width", "200");
				  svg.setAttribute("height", "280");
				  const u = document.createElementNS(ns, "use");
				  u.setAttribute("href", "#card-JK");
				  svg.append(u);
				  document.body.append(svg);
				  const width = u.getBBox().width;
				  svg.remove();
				  return {big: big ? big.textContent : "", small: small ? small.textContent : "", width};
				})()`, &joker)
				if joker.Big != "JOKER" || joker.Small != "JK" || joker.Width < 100 {
					t.Errorf("the joker's faces: %+v; want JOKER, JK and a card-sized drawing", joker)
				}
			}
			p.idle()

			// The control: an inline script and an inline style, which the
			// policy must refuse and both witnesses must report. The
			// page's own violations, had there been any, were reported
			// before these.
			p.eval(`(() => {
			  const s = document.createElement("script");
			  s.textContent = "window.__inlineRan = true";
			  document.body.append(s);
			  const d = document.createElement("div");
			  d.setAttribute("style", "outline: 1px solid red");
			  document.body.append(d);
			  return 1;
			})()`, nil)
			p.waitJS(`window.__csp.some((v) => v.directive.startsWith("script-src")) && window.__csp.some((v) => v.directive.startsWith("style-src"))`,
				"the planted violations to be reported")
			var ran bool
			p.eval(`window.__inlineRan === true`, &ran)
			if ran {
				t.Error("the planted inline script ran: the policy does not refuse inline scripts")
			}
			deadline := time.Now().Add(webtest.StepTimeout)
			for len(console.all()) < 2 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond) // polling the collector for a condition
			}
			if n := len(console.all()); n < 2 {
				t.Errorf("the console reported %d security messages for the planted violations, want 2: %q", n, console.all())
			}

			var got []cspViolation
			p.eval(`window.__csp`, &got)
			var page []cspViolation
			for _, v := range got {
				if !strings.Contains(v.Sample, "__inlineRan") && !strings.Contains(v.Sample, "outline: 1px solid red") {
					page = append(page, v)
				}
			}
			planted := len(got) - len(page)
			if planted < 2 {
				t.Errorf("found %d of the 2 planted violations among %+v", planted, got)
			}
			for _, v := range page {
				t.Errorf("the page violates the policy: %+v", v)
			}
			if msgs := console.all(); len(msgs) > planted {
				b, _ := json.MarshalIndent(msgs, "", "  ")
				t.Errorf("the console has %d security messages, %d planted: %s", len(msgs), planted, b)
			}
		})
	}
}
