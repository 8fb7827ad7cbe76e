package arlweb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardtable/arlington"
	"cardtable/internal/table"
)

// openTable makes a table through the API, seats ("" a person, else a
// bot level) to target (0: the default) without a turn timer, and opens
// its page as name in a new browser (the page's seat not yet taken).
func openTable(tb testing.TB, e *env, name string, target int, seats ...string) (created, context.Context, *seatTab) {
	tb.Helper()
	var got created
	cfg := table.Config{Players: len(seats), Bots: seats, Target: target, TurnSeconds: -1}
	if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		tb.Fatalf("create: %d", code)
	}
	bctx := startBrowser(tb)
	p := seatTabIn(tb, bctx, name)
	p.open(e.srv.URL, got.ID)
	return got, bctx, p
}

// TestLongBrowserArlingtonTurnOnScreen (long: a browser, a hand of four
// seats under -race): at 1280×800, once a hand is scored the score sheet
// opens at the top of the page, and on the player's next turn the hand and
// every offered action are on the screen, not below the fold. The names on
// the sheets break between words only ("Alice" never "Alic/e", "Bot 2
// (random)" never "(rando/m)").
func TestLongBrowserArlingtonTurnOnScreen(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := seatedAt(t, 1280, 800, "Alice", 0, "", "random", "random", "random")
	// Alice plays her first action each turn until a turn comes with the
	// sheet open and the table busy (a trick in play or a set laid): the
	// page at its tallest above her hand. She must have played once with
	// that sheet open: a sheet that opens keeps the screen until the
	// player acts or closes it, and her turn comes into view when she
	// closes it (TestBrowserArlingtonSheetOnScreen).
	p.untilPlayed(`(() => {
	  const open = !document.getElementById("hand-over").hidden;
	  const title = open ? document.getElementById("ho-title").textContent : "";
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (!first) return false;
	  if (open && window.__playedOpen === title && (document.querySelector("#play figure") || document.querySelector("#players .set"))) return true;
	  first.click();
	  window.__playedOpen = title;
	  return false;
	})()`)
	type box struct{ Top, Bottom, Screen, Bar, Page float64 }
	for _, sel := range []string{"#hand", "#actions"} {
		b := eval[box](p, `(() => { const r = document.querySelector(`+q(sel)+`).getBoundingClientRect();
		  return { top: r.top, bottom: r.bottom, screen: innerHeight, bar: document.querySelector(".bar").getBoundingClientRect().bottom,
		    page: document.documentElement.scrollHeight }; })()`)
		if b.Top < b.Bar || b.Bottom > b.Screen {
			t.Errorf("on the player's turn with the score sheet open, %s spans %.0f to %.0f px: off the screen (%.0f px, the bar ends at %.0f; the page is %.0f px)", sel, b.Top, b.Bottom, b.Screen, b.Bar, b.Page)
		}
	}
	p.shot("arlington-turn-1280")
	// The sheet's names, at the top and in the side column, break between
	// words only: no word spans two lines.
	split := eval[[]string](p, `(() => {
	  const out = [];
	  for (const th of document.querySelectorAll("#ho-sheet thead th, #sheet thead th")) {
	    const node = th.firstChild;
	    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
	    for (const m of node.textContent.matchAll(/\S+/g)) {
	      const r = document.createRange();
	      r.setStart(node, m.index);
	      r.setEnd(node, m.index + m[0].length);
	      if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) out.push(m[0]);
	    }
	  }
	  return out;
	})()`)
	if len(split) > 0 {
		t.Errorf("on the score sheets at 1280 px these words of the names break across lines: %q", split)
	}
}

// TestLongBrowserArlingtonGroupedActions (long: a browser, several seconds
// under -race): the first lead's actions come in groups by what they do,
// each with its points as the rules score them (a set led: its points for
// the player; a card led: none); the hand's cards and the action buttons
// keep the keyboard's focus when they are drawn again; S plays the
// selection (with two spectra to choose from, it moves focus to the
// first choice), Escape clears it; each play is announced in words.
func TestLongBrowserArlingtonGroupedActions(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	seed, both, _ := choiceSeed(t)
	e := newSeededEnv(t, Limits{Burst: 10000}, seed)
	_, _, p := openTable(t, e, "Ann", 3, "", "random")
	p.join("Ann")
	p.until(`document.querySelector("#actions button[data-action]:not(:disabled)")`)
	type group struct {
		Group   string
		Actions []string
		Points  []string
	}
	groups := eval[[]group](p, `[...document.querySelectorAll("#actions .act-group")].map((g) => ({ group: g.dataset.group,
	  actions: [...g.querySelectorAll("button[data-action]")].map((b) => b.dataset.action),
	  points: [...g.querySelectorAll("button[data-action]")].map((b) => b.querySelector(".pts").textContent) }))`)
	seen := map[string]bool{}
	for _, g := range groups {
		seen[g.Group] = true
		for i, s := range g.Actions {
			a, err := arlington.ParseAction(s)
			if err != nil {
				t.Fatal(err)
			}
			want := map[arlington.Kind]string{arlington.LeadCard: "lead", arlington.PlaySet: "set"}[a.Kind]
			if g.Group != want {
				t.Errorf("%s is in the group %q, want %q", s, g.Group, want)
			}
			pts := "0" // said "no points"
			if a.Kind == arlington.PlaySet {
				pts = fmt.Sprintf("+%d for you", arlington.Points(a.Set))
			}
			if g.Points[i] != pts {
				t.Errorf("%s shows %q, want %q", s, g.Points[i], pts)
			}
		}
	}
	if !seen["lead"] || !seen["set"] {
		t.Errorf("groups %v: want a lead and a set group", seen)
	}
	// A screen reader hears each action with its points: the buttons'
	// names in the browser's accessibility tree.
	p.do(chromedp.Evaluate[chromedp.Void](`for (const d of document.querySelectorAll("#actions details")) d.open = true; document.getElementById("hand-box").scrollIntoView()`))
	p.shot("arlington-actions-390")
	names := p.axButtons()
	for _, g := range groups {
		for i, s := range g.Actions {
			// Named with its cards in words ("seven of spades"), as a
			// screen reader is to read them.
			words := eval[string](p, `import("/arlington/common.js").then((m) => m.spoken(document.querySelector('#actions button[data-action="`+s+`"] .act-words').textContent))`, chromedp.EvalAwaitPromise)
			said := g.Points[i]
			if said == "0" {
				said = "no points"
			}
			if !strings.HasPrefix(said, "+") && said != "no points" {
				t.Fatalf("%s: points %q", s, g.Points[i])
			}
			if want := words + ": " + said; !names[want] {
				t.Errorf("no button named %q in the accessibility tree", want)
			}
		}
	}
	// Focus stays on a card through the redraws a selection makes.
	key := func(k string) chromedp.Action[chromedp.Void] { return chromedp.KeyEvent(k) }
	p.do(chromedp.Focus(chromedp.CSS(`#hand button[data-card="`+both[0]+`"]`)), key("\r"))
	p.until(`document.querySelector('#hand button[data-card="` + both[0] + `"][aria-pressed=true]')`)
	if f := eval[string](p, `document.activeElement.dataset.card || document.activeElement.tagName`); f != both[0] {
		t.Errorf("after selecting %s by key, focus is on %q", both[0], f)
	}
	p.do(key(kb.Escape))
	p.until(`!document.querySelector("#hand button[aria-pressed=true]")`)
	if f := eval[string](p, `document.activeElement.dataset.card || document.activeElement.tagName`); f != both[0] {
		t.Errorf("after Escape cleared the selection, focus is on %q, want %s", f, both[0])
	}
	// The arrow keys move along the hand.
	p.do(key(kb.ArrowRight))
	if f := eval[bool](p, `document.activeElement === document.querySelector('#hand button[data-card="`+both[0]+`"]').nextElementSibling`); !f {
		t.Errorf("ArrowRight did not move the focus to the next card")
	}
	// Both cards, then S: two spectra, so the first choice takes the focus.
	for _, c := range both {
		p.do(chromedp.Focus(chromedp.CSS(`#hand button[data-card="`+c+`"]`)), key("\r"))
	}
	p.until(`document.querySelectorAll("#actions button.match").length === 2`)
	p.do(key("s"))
	p.until(`document.activeElement.classList.contains("match")`)
	// Enter on it leads the set; the page announces it, and the focus stays
	// in the hand, not on <body>.
	p.do(key("\r"))
	p.until(`[...document.querySelectorAll("#say p")].some((e) => e.textContent.startsWith("Ann leads the set"))`)
	if f := eval[string](p, `document.activeElement === document.body ? "body" : document.activeElement.closest("#hand-box") ? "hand" : document.activeElement.tagName`); f != "hand" {
		t.Errorf("after leading by key the focus is on %s", f)
	}
	if live := eval[string](p, `document.getElementById("say").getAttribute("aria-live")`); live != "polite" {
		t.Errorf("the announcements' region is aria-live %q", live)
	}
}

// TestLongBrowserArlingtonPaced (long: a browser, tricks at a person's
// pace): with bots answering in milliseconds, the page shows a taken trick
// complete (every seat's card) and keeps it while the next play has
// already arrived, until it shows that play. The speed is the player's:
// kept in the browser, "instant" by default with reduced motion.
func TestLongBrowserArlingtonPaced(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{Burst: 10000})
	_, _, p := openTable(t, e, "Ann", 0, "", "random", "random") // a new browser: no speed kept
	if s := eval[string](p, `document.getElementById("speed").value`); s != "instant" {
		t.Errorf("with reduced motion the speed is %q, want instant", s)
	}
	p.do(chromedp.SetValue(chromedp.CSS("#speed"), "fast"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("speed").dispatchEvent(new Event("change"))`))
	if s := eval[string](p, `localStorage.getItem("arlington.speed")`); s != "fast" {
		t.Errorf("the speed kept is %q, want fast", s)
	}
	p.join("Ann")
	p.auto(true)
	// The taken trick is on the table while a later play is already here.
	p.until(`(() => { const h = document.querySelector("#play.held");
	  return h && h.querySelectorAll("figure").length === 3 && window.__ws.evs.some((e) => e.kind === "move" && e.n > +h.dataset.take); })()`)
	p.shot("arlington-held-trick-390")
	// A click clears it: clicked while a trick is held (the next one, if
	// the pacer let this one go meanwhile), in the same script as the
	// check, so that the pacer's own clearing cannot pass for the click's.
	p.until(`(() => { const h = document.querySelector("#play.held");
	  if (!h) return false;
	  document.getElementById("play").click();
	  window.__ws.clickCleared = !document.querySelector("#play.held");
	  return true; })()`)
	p.auto(false)
	if !eval[bool](p, `window.__ws.clickCleared`) {
		t.Error("a click on the held trick left it on the table")
	}
}

// TestLongBrowserArlingtonWholeLog (long: a browser, a hand or more under
// -race): the log keeps every hand, grouped, after the next is dealt (a
// hand's last play, often a kill, stayed out of sight); a filter shows
// the matching lines only; after a reload the whole log is back.
func TestLongBrowserArlingtonWholeLog(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{Burst: 10000})
	_, _, p := openTable(t, e, "Ann", 0, "", "random")
	p.join("Ann")
	p.auto(true)
	p.untilPlayed(`document.querySelector('#log section[data-hand="2"] li')`)
	p.auto(false)
	hand1 := eval[[]string](p, `[...document.querySelectorAll('#log section[data-hand="1"] li')].map((li) => li.textContent)`)
	if len(hand1) < 10 || !strings.HasPrefix(hand1[len(hand1)-1], "Hand 1 is scored") {
		t.Fatalf("hand 1's log once hand 2 is dealt: %q", hand1)
	}
	p.do(chromedp.SendKeys(chromedp.CSS("#log-filter"), "scored"))
	type shown struct {
		Lines    []string
		Sections int
	}
	s := eval[shown](p, `({ lines: [...document.querySelectorAll("#log li")].filter((li) => !li.hidden).map((li) => li.textContent),
	  sections: [...document.querySelectorAll("#log section")].filter((x) => !x.hidden).length })`)
	if len(s.Lines) == 0 || s.Sections != 1 {
		t.Errorf("filtered by \"scored\": %d hands shown, lines %q", s.Sections, s.Lines)
	}
	for _, l := range s.Lines {
		if !strings.Contains(l, "scored") {
			t.Errorf("filtered by \"scored\", the log shows %q", l)
		}
	}
	p.do(chromedp.Reload())
	p.until(`window.__ws && window.__ws.count > 0 && document.querySelector('#log section[data-hand="2"]')`)
	again := eval[[]string](p, `[...document.querySelectorAll('#log section[data-hand="1"] li')].map((li) => li.textContent)`)
	if strings.Join(again, "\n") != strings.Join(hand1, "\n") {
		t.Errorf("after a reload hand 1's log is %d lines, was %d", len(again), len(hand1))
	}
}

// TestLongBrowserArlingtonReconnect (long: a browser, a dropped
// connection): while the connection is down the page tries again at most
// about 2 s apart, and at once when the network is back ("online"); the
// "Not connected" of an action tried meanwhile goes once it is back.
// Refusals write cards as the page does, and a total past the target
// reads "16 points (target 12)".
func TestLongBrowserArlingtonReconnect(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{Burst: 10000})
	_, _, p := openTable(t, e, "Ann", 0, "", "random")
	p.join("Ann")
	p.until(`document.querySelector("#actions button[data-action]:not(:disabled)")`)
	p.offline(true)
	p.until(`document.getElementById("conn").textContent === "reconnecting…"`)
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector("#actions button[data-action]").click()`))
	p.until(`document.getElementById("error").textContent.startsWith("Not connected")`)
	// Three failed tries: the waits grow, and stay within 2 s.
	n := eval[int](p, `window.__ws.socks.length`)
	p.until(fmt.Sprintf(`window.__ws.socks.length >= %d`, n+3))
	if ms := eval[int](p, `+document.body.dataset.retryMs`); ms <= 0 || ms > 2000 {
		t.Errorf("the page waits %d ms before trying again, want at most 2000", ms)
	}
	// The network is back: a new try at once, not after the wait. It comes
	// back while the page has its next try planned (waiting for it, or
	// asking the table's address first), as the page itself says, and the
	// event follows in the same script, so that no try of the page's own
	// can start in between (it would rightly make "online" start none).
	p.until(`(() => {
	  const s = window.__ws.socks;
	  if (!document.body.dataset.next) return false;
	  window.__ws.offline = false;
	  const n = s.length;
	  window.dispatchEvent(new Event("online"));
	  window.__ws.tried = s.length - n;
	  return true;
	})()`)
	if tried := eval[int](p, `window.__ws.tried`); tried != 1 {
		t.Errorf("\"online\" started %d connections at once, want 1", tried)
	}
	p.until(`document.getElementById("conn").textContent === "connected" && document.getElementById("error").textContent === ""`)
	type words struct{ Refusal, Past, Below string }
	w := eval[words](p, `import("/arlington/render.js").then((m) => ({ refusal: m.cardWordsIn("{7H, TC, 5H} is not a set; JK and QS"),
	  past: m.playerScore(16, 12), below: m.playerScore(5, 12) }))`, chromedp.EvalAwaitPromise)
	if w.Refusal != "7♥ 10♣ 5♥ is not a set; joker and Q♠" || w.Past != "16 points (target 12)" || w.Below != "5 of 12 points" {
		t.Errorf("the page's words: %+v", w)
	}
}

// TestLongBrowserArlingtonInvite (long: a browser, two pages): the table
// page shows its code and copies its link; the code typed in the lobby
// (in lower case) leads to the table.
func TestLongBrowserArlingtonInvite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{Burst: 10000})
	tab, bctx, p := openTable(t, e, "Ann", 0, "", "", "random")
	p.until(`document.getElementById("invite-code").textContent !== ""`)
	if code := eval[string](p, `document.getElementById("invite-code").textContent`); code != tab.Code {
		t.Errorf("the page shows the code %q, the table's is %q", code, tab.Code)
	}
	if link := eval[string](p, `document.getElementById("invite-link").value`); link != e.srv.URL+"/arlington/t/"+tab.ID {
		t.Errorf("the link to copy is %q", link)
	}
	// The clipboard as the page sees it (headless Chromium grants it to no
	// page): what the page writes there is kept for the test to read.
	p.do(chromedp.Evaluate[chromedp.Void](`Object.defineProperty(navigator, "clipboard", { value: { writeText: async (s) => { window.__copied = s; } } });
	  document.getElementById("invite-box").open = true`), chromedp.Click(chromedp.CSS("#copy-link")))
	p.until(`document.getElementById("copy-msg").textContent !== ""`)
	if msg := eval[string](p, `document.getElementById("copy-msg").textContent`); msg != "Link copied." {
		t.Errorf("copying the link says %q", msg)
	}
	if got := eval[string](p, `window.__copied || ""`); got != e.srv.URL+"/arlington/t/"+tab.ID {
		t.Errorf("the clipboard holds %q", got)
	}
	friend := newSeatTab(t, bctx, "Bob")
	friend.do(chromedp.Navigate(e.srv.URL+"/arlington/"), chromedp.SendKeys(chromedp.CSS("#code"), strings.ToLower(tab.Code)),
		chromedp.Evaluate[chromedp.Void](`setTimeout(() => document.getElementById("btn-code").click(), 0)`))
	// The page goes away under the wait: each look may fail until the
	// table page is there.
	at := `location.pathname === "/arlington/t/` + tab.ID + `" && window.__ws && window.__ws.seats.length > 0`
	deadline := time.Now().Add(browserWait)
	for ok := false; !ok; {
		if time.Now().After(deadline) {
			t.Fatalf("the code %s did not lead to the table: %s", tab.Code, friend.diag())
		}
		ctx, cancel := context.WithTimeout(friend.ctx, time.Second)
		ok, _ = chromedp.Run(ctx, chromedp.Evaluate[bool](at))
		cancel()
		if !ok {
			time.Sleep(50 * time.Millisecond) // polling a page that is navigating
		}
	}
}

// axNames is the names of every node in the page's accessibility tree.
func (p *seatTab) axNames() []string {
	p.tb.Helper()
	var out []string
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		res, err := cdp.Call(ctx, t, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		if err != nil {
			return err
		}
		for _, n := range res.Nodes {
			var name string
			if !n.Ignored && n.Name != nil && json.Unmarshal(n.Name.Value, &name) == nil && name != "" {
				out = append(out, name)
			}
		}
		return nil
	}))
	return out
}

// axButtons is the names of the buttons in the page's accessibility tree.
func (p *seatTab) axButtons() map[string]bool {
	p.tb.Helper()
	out := map[string]bool{}
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		res, err := cdp.Call(ctx, t, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		if err != nil {
			return err
		}
		for _, n := range res.Nodes {
			if n.Ignored || n.Role == nil || n.Name == nil || strings.Trim(string(n.Role.Value), `"`) != "button" {
				continue
			}
			var name string
			if json.Unmarshal(n.Name.Value, &name) == nil {
				out[name] = true
			}
		}
		return nil
	}))
	return out
}
