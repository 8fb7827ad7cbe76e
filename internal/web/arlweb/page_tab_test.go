package arlweb

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// The page tests' browser tab: actions, waits, screenshots, the phone
// checks and the Content-Security-Policy witnesses.

// screens are the two screens the pages are checked on: a desktop's
// 1280×800 and a phone's 390×844.
var screens = []struct {
	name string
	w, h int64
}{{"desktop", 1280, 800}, {"phone", 390, 844}}

// tab is one browser tab on the page under test.
type tab struct {
	t     *testing.T
	ctx   context.Context
	shots int // screenshots taken
}

// do runs browser actions as one step, bounded (webtest.Do).
func (p *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := webtest.Do(p.ctx, "a browser action", steps...); err != nil {
		p.t.Fatalf("%v; page: %s", err, p.diag())
	}
}

// diag is what the page shows, for a failure's message.
func (p *tab) diag() string {
	ctx, cancel := context.WithTimeout(p.ctx, 3*time.Second)
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const t = (id) => { const e = document.getElementById(id); return e ? e.textContent.slice(0, 200) : "-"; };
	  return ["conn", "status", "error", "preview", "actions", "winners"].map((id) => id + ": " + t(id)).join(" | "); })()`))
	return s
}

// eval runs JavaScript and decodes its JSON result into out (if not nil).
// bounded (webtest.Eval).
func (p *tab) eval(js string, out any) {
	p.t.Helper()
	if err := webtest.Eval(p.ctx, js, out); err != nil {
		p.t.Fatalf("%v; page: %s", err, p.diag())
	}
}

// wait waits for a page condition (a JS expression) to hold.
func (p *tab) wait(cond, what string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	js := `new Promise((ok) => { const f = () => (` + cond + `) ? ok(true) : setTimeout(f, 40); f(); })`
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](js, chromedp.EvalAwaitPromise)); err != nil {
		p.t.Fatalf("waiting for %s: %v; page: %s", what, err, p.diag())
	}
}

// waitAcross is wait for a condition that holds after a navigation:
// while the page changes an evaluation fails, so it asks again
// (webtest.Wait).
func (p *tab) waitAcross(cond, what string) {
	p.t.Helper()
	if err := webtest.Wait(p.ctx, cond, what); err != nil {
		p.t.Fatalf("%v; page: %s", err, p.diag())
	}
}

// shot writes a screenshot of a checked state as a test artifact, when
// webtest.ArtifactsEnv names a folder (webtest.Screenshot).
func (p *tab) shot(what string) {
	p.t.Helper()
	p.shots++
	webtest.Screenshot(p.t, p.ctx, what)
}

// phoneCheck: on a 390 px screen nothing scrolls sideways and every
// visible control (buttons, hand cards, inputs, links in the bar) is at
// least 44 px each way (a check box with its label).
func (p *tab) phoneCheck(where string) {
	p.t.Helper()
	var r struct {
		Width int
		Small []string
	}
	p.eval(`(() => {
	  const small = [];
	  for (const e of document.querySelectorAll("button, input, select, summary, .bar a, .table-link")) {
	    // A box or a radio is tapped through its label.
	    const b = ((e.type === "checkbox" || e.type === "radio") && e.closest("label") || e).getBoundingClientRect();
	    if (!b.width || !b.height || e.closest("[hidden]") || e.closest("details:not([open]) > :not(summary)")) continue;
	    if (b.width < 44 || b.height < 44) small.push((e.id || e.className || e.tagName) + " " + Math.round(b.width) + "x" + Math.round(b.height) + " " + e.textContent.slice(0, 20));
	  }
	  return {width: document.documentElement.scrollWidth, small};
	})()`, &r)
	if r.Width > 390 {
		p.t.Errorf("%s: the page is %d px wide on a 390 px screen: it scrolls sideways", where, r.Width)
	}
	for _, s := range r.Small {
		p.t.Errorf("%s: a control smaller than 44 px: %s", where, s)
	}
}

// cspRecorder keeps the document's Content-Security-Policy violations; it
// is added before the page's scripts run (a script added through the
// debugging protocol is not subject to the policy).
const cspRecorder = `window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push({directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, source: e.sourceFile + ":" + e.lineNumber});
}, true);`

// cspWatch installs the recorder in the tab and collects the console's
// security messages (a second witness).
type cspWatch struct {
	mu   sync.Mutex
	msgs []string
}

func watchCSP(p *tab) *cspWatch {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspRecorder})
		return err
	}))
	w := &cspWatch{}
	messages := chromedp.Console(p.ctx)
	// Ends with the tab's context, which ends the iteration.
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Source == "security" || strings.Contains(m.Text, "Content Security Policy") {
				w.mu.Lock()
				w.msgs = append(w.msgs, m.Text)
				w.mu.Unlock()
			}
		}
	}()
	return w
}

func (w *cspWatch) console() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.msgs...)
}

type cspViolation struct{ Directive, Blocked, Sample, Source string }

// check: the page broke no part of the policy; then the control, an
// inline script and an inline style planted on purpose, must be refused
// and seen by both witnesses, which shows they would have seen the page's.
func (w *cspWatch) check(p *tab, where string) {
	p.t.Helper()
	var before []cspViolation
	p.eval(`window.__csp`, &before)
	for _, v := range before {
		p.t.Errorf("%s violates the policy: %+v", where, v)
	}
	had := len(w.console())
	p.eval(`(() => {
	  const s = document.createElement("script");
	  s.textContent = "window.__inlineRan = true";
	  document.body.append(s);
	  const d = document.createElement("div");
	  d.setAttribute("style", "outline: 1px solid red");
	  document.body.append(d);
	  return 1;
	})()`, nil)
	p.wait(`window.__csp.some((v) => v.directive.startsWith("script-src")) && window.__csp.some((v) => v.directive.startsWith("style-src"))`, "the planted violations to be reported")
	var ran bool
	p.eval(`window.__inlineRan === true`, &ran)
	if ran {
		p.t.Errorf("%s: the planted inline script ran", where)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(w.console()) < had+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // polling the collector for a condition
	}
	if got := w.console(); len(got) < had+2 {
		b, _ := json.Marshal(got)
		p.t.Errorf("%s: the console reported %d security messages for the 2 planted violations: %s", where, len(got)-had, b)
	}
}

// newTab opens a tab at the given screen size.
// Every step in it has its own bound (webtest.StepTimeout).
func newTab(t *testing.T, bctx context.Context, w, h int64) *tab {
	p := &tab{t: t, ctx: webtest.OpenTab(t, bctx, w, h)}
	// A tab that took no screenshot of its own leaves one of where the
	// test ended (before the tab closes: cleanups run last first).
	t.Cleanup(func() {
		if p.shots == 0 {
			webtest.Screenshot(t, p.ctx, fmt.Sprintf("end-%dx%d", w, h))
		}
	})
	p.do(reducedMotion(), focusEmulated())
	p.watchErrors()
	return p
}

// watchErrors fails the test if the page throws an uncaught exception or
// leaves a promise rejection unhandled: webtest.WatchErrors.
func (p *tab) watchErrors() { webtest.WatchErrors(p.ctx, p.t) }
