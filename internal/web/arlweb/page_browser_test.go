package arlweb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// pageArtifacts is where the page tests' screenshots go (gitignored, as
// the web package's: internal/web/testdata/artifacts).
var pageArtifacts = filepath.Join("..", "testdata", "artifacts")

// newSeededEnv is newEnv whose tables all deal from seed (and whose bots
// draw from it too), so a test knows the cards.
func newSeededEnv(tb testing.TB, lim Limits, seed uint64) *env {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "test.db"))
	if err != nil {
		tb.Fatal(err)
	}
	hub, err := table.NewHub(ctx, table.Options{Store: db, Bots: bot.New, BotTime: time.Second, Logf: tb.Logf,
		Seed: func() uint64 { return seed }})
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(web.New(db, web.Options{Games: []web.Routes{New(hub, Options{Limits: lim})}}))
	tb.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		hub.Close()
		cancel()
		db.Close()
	})
	return &env{tb: tb, srv: srv, hub: hub}
}

// choiceSeed finds a deal of a two-seat game in which seat 0 leads first
// and holds a two-card set that fits two spectra (two aces: aces or of a
// kind; a king and queen of one suit: a couple or a run), and returns the
// seed, that set's cards and the spectra in words.
func choiceSeed(tb testing.TB) (seed uint64, cards, spectra []string) {
	tb.Helper()
	for seed := uint64(1); seed < 5000; seed++ {
		s, err := arlington.New(arlington.Config{Players: 2, Target: 1}, seed)
		if err != nil {
			tb.Fatal(err)
		}
		if s.ToMove() != 0 {
			continue
		}
		for _, a := range s.Legal(0) {
			if a.Kind == arlington.PlaySet && a.Set.Jokers() == 0 && a.Set.Len() == 2 && len(arlington.SpectraOf(a.Set)) == 2 {
				for _, c := range a.Set.Cards() {
					cards = append(cards, c.String())
				}
				for _, sp := range arlington.SpectraOf(a.Set) {
					spectra = append(spectra, arlington.SpectrumWords(sp))
				}
				return seed, cards, spectra
			}
		}
	}
	tb.Fatal("no seed below 5000 deals seat 0 a set of two spectra")
	return 0, nil, nil
}

// tab is one browser tab on the page under test.
type tab struct {
	t   *testing.T
	ctx context.Context
}

func (p *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
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
func (p *tab) eval(js string, out any) {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[json.RawMessage](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v; page: %s", js, err, p.diag())
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			p.t.Fatalf("decoding %s: %v", raw, err)
		}
	}
}

// wait waits for a page condition (a JS expression) to hold.
func (p *tab) wait(cond, what string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	js := `new Promise((ok) => { const f = () => (` + cond + `) ? ok(true) : setTimeout(f, 40); f(); })`
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](js, chromedp.EvalAwaitPromise)); err != nil {
		p.t.Fatalf("waiting for %s: %v; page: %s", what, err, p.diag())
	}
}

// waitAcross is wait for a condition that holds after a navigation:
// while the page changes an evaluation fails, so it asks again.
func (p *tab) waitAcross(cond, what string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`!!(`+cond+`)`))
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond) // polling the page for a condition
	}
	p.t.Fatalf("waiting for %s: not within 20 s; page: %s", what, p.diag())
}

// shot saves a screenshot as a PNG artifact.
func (p *tab) shot(name string) {
	p.t.Helper()
	b, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot()) // what the screen shows (PNG)
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.MkdirAll(pageArtifacts, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pageArtifacts, name+".png"), b, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// phoneCheck: on a 390 px screen nothing scrolls sideways and every
// visible control (buttons, hand cards, inputs, links in the bar) is at
// least 44 px each way.
func (p *tab) phoneCheck(where string) {
	p.t.Helper()
	var r struct {
		Width int
		Small []string
	}
	p.eval(`(() => {
	  const small = [];
	  for (const e of document.querySelectorAll("button, input, select, summary, .bar a, .table-link")) {
	    const b = e.getBoundingClientRect();
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
func newTab(t *testing.T, bctx context.Context, w, h int64) *tab {
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
	p := &tab{t: t, ctx: ctx}
	p.do(chromedp.EmulateViewport(w, h))
	p.watchErrors()
	return p
}

// watchErrors fails the test if the page throws an uncaught exception or
// leaves a promise rejection unhandled. The watcher ends with the tab.
func (p *tab) watchErrors() {
	var mu sync.Mutex
	var errs []string
	events := chromedp.Events(p.ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			mu.Lock()
			errs = append(errs, fmt.Sprintf("%s:%d: %s", d.URL, d.LineNumber+1, msg))
			mu.Unlock()
		}
	}()
	p.t.Cleanup(func() { // runs before the tab closes (cleanups run last first)
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			p.t.Errorf("page error: %s", e)
		}
	})
}

// state is what the test reads off the table page.
type pageState struct {
	Mine, Over bool
	Phase      string
	Sig        string
}

const readState = `(() => ({
  mine: !!document.querySelector("#actions .hint-button"),
  over: !document.getElementById("winners").hidden,
  phase: document.getElementById("status").textContent,
  sig: document.getElementById("status").textContent + "|" + document.querySelectorAll("#log li").length + "|" + document.querySelectorAll("#hand .hand-card").length,
}))()`

// playOn plays the person's turns with the first offered action until
// the game is over (bounded).
func (p *tab) playOn() {
	p.t.Helper()
	for range 400 {
		p.wait(`!!document.querySelector("#actions .hint-button") || !document.getElementById("winners").hidden`, "the person's turn or the end")
		var s pageState
		p.eval(readState, &s)
		if s.Over {
			return
		}
		p.eval(`(() => { const more = document.querySelector("#actions button.more"); if (more) more.click(); return 1; })()`, nil)
		p.eval(`(() => { const b = document.querySelector("#actions button[data-action]"); b.click(); return 1; })()`, nil)
		p.wait(`(`+readState+`).sig !== `+jsString(s.Sig), "the action to be played")
	}
	p.t.Fatal("no game over after 400 of the person's actions")
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBrowserArlingtonPage plays a game to its end on a phone-sized
// screen, against a bot, to a target of 1: the legal cards are
// highlighted; a set of two spectra is offered once per spectrum and the
// player chooses; a selection that is not a set is explained by the
// preview, and playing it anyway is refused by the server naming the
// rule; the log tells the plays in words; after the hand the score sheet
// opens; at the end the winners are announced and the replay steps
// through the game with every hand shown. The page breaks no part of the
// Content-Security-Policy on the way. It takes 20 s or so under -race,
// so -short skips it outside CI. Screenshots:
// internal/web/testdata/artifacts/arlington-*.png.
func TestBrowserArlingtonPage(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("long browser test: skipped with -short outside CI, as the web package's TestBrowserCSP")
	}
	seed, both, spectra := choiceSeed(t)
	e := newSeededEnv(t, Limits{Burst: 10000}, seed)
	a := e.client()
	var tb created
	if code := a.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1}, &tb); code != 201 {
		t.Fatalf("create: %d", code)
	}
	bctx := startBrowser(t)
	p := newTab(t, bctx, 390, 844)
	csp := watchCSP(p)
	p.do(chromedp.Navigate(e.srv.URL + tb.Link))
	p.wait(`!document.getElementById("join").hidden`, "the join form")
	p.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann"), chromedp.Click(chromedp.CSS("#join-form button")))
	p.wait(`document.querySelector("#actions .hint-button") && document.querySelectorAll("#hand .hand-card").length === 8`, "Ann's first turn")

	// Legal cards are highlighted: with the lead, every card can be led.
	var legal int
	p.eval(`document.querySelectorAll("#hand .hand-card.legal").length`, &legal)
	if legal != 8 {
		t.Errorf("%d of 8 cards highlighted as playable with the lead", legal)
	}
	p.phoneCheck("the table")

	// A set of two spectra: one button each, and the preview says so.
	sel := func(cards ...string) {
		t.Helper()
		p.eval(`(() => { for (const b of document.querySelectorAll("#hand .hand-card[aria-pressed=true]")) b.click(); return 1; })()`, nil)
		for _, c := range cards {
			p.eval(`document.querySelector('#hand .hand-card[data-card="`+c+`"]').click()`, nil)
		}
	}
	sel(both...)
	p.wait(`document.getElementById("preview").textContent.includes("more than one spectrum")`, "the preview of a set of two spectra")
	var choices []string
	p.eval(`[...document.querySelectorAll("#actions button.match")].map((b) => b.textContent)`, &choices)
	if len(choices) != 2 || !strings.HasSuffix(choices[0], "("+spectra[0]+")") || !strings.HasSuffix(choices[1], "("+spectra[1]+")") {
		t.Errorf("the choices for %v: %q, want one lead for each of %q", both, choices, spectra)
	}
	p.shot("arlington-choice-390")

	// Not a set: the preview says why; playing it anyway, the server
	// refuses and names the rule.
	var pair []string
	p.eval(`(() => {
	  const cs = [...document.querySelectorAll("#hand .hand-card")].map((b) => b.dataset.card).filter((c) => c !== "JK");
	  const court = (a, b) => { const r = a[0] + b[0]; return ["KQ", "QK", "QJ", "JQ"].includes(r); };
	  for (const a of cs) for (const b of cs) if (a[0] !== b[0] && a[1] !== b[1] && !court(a, b)) return [a, b];
	  return [];
	})()`, &pair)
	if len(pair) != 2 {
		t.Fatalf("no two cards of different ranks and suits in the hand")
	}
	sel(pair...)
	p.wait(`document.getElementById("preview").textContent.includes("rule")`, "the preview's reason")
	var preview, refusal string
	p.eval(`document.getElementById("preview").textContent`, &preview)
	p.do(chromedp.Click(chromedp.CSS("#btn-try")))
	p.wait(`document.getElementById("error").textContent.includes("rule")`, "the server's refusal naming the rule")
	p.eval(`document.getElementById("error").textContent`, &refusal)
	if !strings.HasPrefix(preview, "Not a set") || !strings.HasPrefix(refusal, "Not allowed: ") {
		t.Errorf("preview %q, refusal %q", preview, refusal)
	}

	// The player chooses the spectrum: leads the set in its second one.
	sel(both...)
	p.wait(`[...document.querySelectorAll("#actions button.match")].length === 2`, "the two choices")
	p.eval(`document.querySelectorAll("#actions button.match")[1].click(); 1`, nil)
	p.wait(`[...document.querySelectorAll("#log li")].some((li) => li.textContent.startsWith("Ann leads the set") && li.textContent.endsWith("(`+spectra[1]+`)."))`, "the log to tell Ann's lead")

	p.playOn()

	// The end: the winners, the score sheet, the log in words.
	var end struct {
		Winners, Status string
		SheetRows       int
		SheetOpen       bool
		Log             []string
	}
	p.eval(`({winners: document.getElementById("winners").textContent, status: document.getElementById("status").textContent,
	  sheetRows: document.querySelectorAll("#sheet tbody tr").length, sheetOpen: document.getElementById("sheet-box").open,
	  log: [...document.querySelectorAll("#log li")].map((li) => li.textContent)})`, &end)
	if !strings.HasPrefix(end.Winners, "Game over: ") || !(strings.Contains(end.Winners, " wins with ") || strings.Contains(end.Winners, " share the win with ")) {
		t.Errorf("winners: %q", end.Winners)
	}
	if end.SheetRows < 1 || !end.SheetOpen {
		t.Errorf("score sheet: %d hands, open %v", end.SheetRows, end.SheetOpen)
	}
	notation := []string{"lead ", "play ", "set runs", "set multiples", "s2 ", "/"}
	for _, l := range end.Log {
		for _, n := range notation {
			if strings.HasPrefix(l, n) || strings.Contains(l, "/") {
				t.Errorf("the log speaks notation (%q): %q", n, l)
			}
		}
	}
	if len(end.Log) < 3 || !strings.HasPrefix(end.Log[0], "Hand ") || !strings.Contains(end.Log[len(end.Log)-1], "is scored") {
		t.Errorf("the last hand's log: %q", end.Log)
	}
	p.phoneCheck("the end")
	p.shot("arlington-end-390")

	// The replay: from the deal, forward and back, every hand shown.
	p.do(chromedp.Click(chromedp.CSS("#btn-replay")))
	p.wait(`document.getElementById("rp-pos").textContent.startsWith("Step 1 of ")`, "the replay's first step")
	var hands int
	p.eval(`document.querySelectorAll("#rp-seats .rp-hand").length`, &hands)
	if hands != 2 {
		t.Errorf("the replay's deal shows %d hands, want both", hands)
	}
	p.do(chromedp.Click(chromedp.CSS("#rp-next")))
	p.wait(`document.getElementById("rp-pos").textContent.startsWith("Step 2 of ") && document.querySelector("#rp-words li")`, "step 2")
	var step2 string
	p.eval(`document.getElementById("rp-words").textContent`, &step2)
	if !strings.HasPrefix(step2, "Ann leads the set") {
		t.Errorf("step 2 says %q, want Ann's lead", step2)
	}
	p.do(chromedp.Click(chromedp.CSS("#rp-last")))
	p.wait(`document.getElementById("rp-next").disabled && document.getElementById("rp-words").textContent.includes("is scored")`, "the last step")
	p.do(chromedp.Click(chromedp.CSS("#rp-back")))
	p.wait(`!document.getElementById("rp-next").disabled`, "a step back")
	p.phoneCheck("the replay")
	p.shot("arlington-replay-390")
	csp.check(p, "the table page")
}

// TestBrowserArlingtonCSP: the lobby and the table page under the
// server's Content-Security-Policy, on a desktop and a phone screen:
// creating a table through the lobby's form, sitting down and playing a
// few actions breaks no part of it, and a planted violation is seen.
func TestBrowserArlingtonCSP(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("long browser test: skipped with -short outside CI, as the web package's TestBrowserCSP")
	}
	e := newEnv(t, Limits{Burst: 10000})
	bctx := startBrowser(t)
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			p := newTab(t, bctx, size.w, size.h)
			csp := watchCSP(p)
			p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
			p.wait(`document.querySelectorAll("#seats select").length === 4 && document.querySelector("#open-tables li")`, "the lobby")
			if size.name == "phone" {
				p.phoneCheck("the lobby")
				p.shot("arlington-lobby-390")
			}
			p.eval(`(() => { const n = document.getElementById("players"); n.value = "2"; n.dispatchEvent(new Event("change")); document.querySelectorAll("#seats select")[1].value = "random"; return 1; })()`, nil)
			p.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann "+size.name), chromedp.Click(chromedp.CSS("#btn-create")))
			p.waitAcross(`location.pathname.startsWith("/arlington/t/") && document.querySelector("#actions .hint-button")`, "the table page with Ann's turn")
			for i := range 3 {
				var s pageState
				p.wait(`!!document.querySelector("#actions .hint-button")`, fmt.Sprintf("turn %d", i))
				p.eval(readState, &s)
				p.eval(`(() => { const b = document.querySelector("#actions button.more"); if (b) b.click(); document.querySelector("#actions button[data-action]").click(); return 1; })()`, nil)
				p.wait(`(`+readState+`).sig !== `+jsString(s.Sig), "the action")
			}
			p.eval(`document.querySelector("#hand .hand-card").click(); 1`, nil)
			p.wait(`document.getElementById("preview").textContent !== ""`, "a preview")
			csp.check(p, "the lobby and table pages")
		})
	}
}
