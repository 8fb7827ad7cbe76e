package arlweb

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// What a screen reader hears at the table: each thing once, in words.

// recordSaid makes the page keep, in window.__said, every text that comes
// into one of its live regions (aria-live, or a role that is one), as
// "region: text", the way a screen reader is told of them.
func (p *seatTab) recordSaid() {
	p.tb.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
	  window.__said = [];
	  const live = "[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]";
	  new MutationObserver((ms) => {
	    for (const m of ms) {
	      const at = m.target.nodeType === 1 ? m.target : m.target.parentElement;
	      const region = at && at.closest(live);
	      if (!region) continue;
	      const text = m.type === "characterData" ? m.target.textContent : [...m.addedNodes].map((n) => n.textContent).join("");
	      if (text.trim()) window.__said.push(region.id + ": " + text.trim());
	    }
	  }).observe(document.body, { subtree: true, childList: true, characterData: true });
	})()`))
}

// said is what the live regions have said since recordSaid.
func (p *seatTab) said() []string {
	p.tb.Helper()
	return eval[[]string](p, `window.__said`)
}

// saidCount is how many of said contain sub (case ignored).
func saidCount(said []string, sub string) int {
	n := 0
	for _, s := range said {
		if strings.Contains(strings.ToLower(s), strings.ToLower(sub)) {
			n++
		}
	}
	return n
}

var suitSymbol = regexp.MustCompile(`[♠♥♦♣]`)

// TestBrowserArlingtonSaidOnce: at a table with a bot, the start of the
// game, the player's turn, a hint and a refusal are each said once (the
// status line, the preview and the refusal's line were live regions too,
// so the turn, the hint and the refusal were said twice), and what is
// said, and the names of the hand's cards and the actions, have their
// cards in words ("seven of spades"), not suit symbols read raw.
func TestBrowserArlingtonSaidOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	_, _, p := openTable(t, e, "Ann", longGame, "", "random")
	p.recordSaid()
	p.join("Ann")
	p.until(`document.querySelector("#actions button[data-action]:not(:disabled)")`)
	for name := range p.axButtons() {
		if suitSymbol.MatchString(name) {
			t.Errorf("a button is named %q: its cards are read as symbols", name)
		}
	}
	said := p.said()
	if n := saidCount(said, "your turn"); n != 1 {
		t.Errorf("the player's first turn was said %d times, want once: %q", n, said)
	}
	if n := saidCount(said, "the game has started"); n != 1 {
		t.Errorf("the game's start was said %d times, want once: %q", n, said)
	}
	// A hint, asked with its key.
	p.do(chromedp.KeyEvent("h"))
	p.until(`document.getElementById("preview").textContent.startsWith("Hint (")`)
	if n := saidCount(p.said(), "Hint ("); n != 1 {
		t.Errorf("the hint was said %d times, want once: %q", n, p.said())
	}
	// A refusal: cards that no action plays exactly, tried anyway.
	p.do(chromedp.KeyEvent("\x1b"))
	p.until(`(() => {
	  const cards = [...document.querySelectorAll("#hand button")];
	  if (document.getElementById("btn-try")) return true;
	  if (!window.__pairs) { window.__pairs = []; for (let i = 0; i < cards.length; i++) for (let j = i + 1; j < cards.length; j++) window.__pairs.push([i, j]); }
	  const pair = window.__pairs.shift();
	  if (!pair) throw new Error("no two cards make a try");
	  for (const b of document.querySelectorAll("#hand button[aria-pressed=true]")) b.click();
	  cards[pair[0]].click();
	  document.querySelectorAll("#hand button")[pair[1]].click();
	  return false;
	})()`)
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("btn-try").click()`))
	p.until(`document.getElementById("error").textContent.startsWith("Not allowed")`)
	if n := saidCount(p.said(), "Not allowed"); n != 1 {
		t.Errorf("the refusal was said %d times, want once: %q", n, p.said())
	}
	for _, s := range p.said() {
		if suitSymbol.MatchString(s) {
			t.Errorf("the page said %q: its cards are read as symbols", s)
		}
	}
}

// TestLongBrowserArlingtonEndSaidOnce (long: a whole game to 1 point with
// a bot, several seconds under -race): the result is said once, after the
// plays that ended the game (it came before them, and the result's
// buttons were said too, "Play again" twice), and the keyboard's focus,
// left on <body> by the last card played, goes to "Watch the replay".
func TestLongBrowserArlingtonEndSaidOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{Burst: 10000})
	_, _, p := openTable(t, e, "Ann", 1, "", "random")
	p.recordSaid()
	p.join("Ann")
	p.until(`(() => {
	  if (document.getElementById("btn-replay")) return true;
	  const b = [...document.querySelectorAll("#actions button[data-action]:not(:disabled)")].pop();
	  if (b) { b.focus(); b.click(); }
	  return false;
	})()`)
	p.until(`[...document.querySelectorAll("#say p")].some((e) => e.textContent.includes("is scored"))`)
	said := p.said()
	if n := saidCount(said, "Game over"); n != 1 {
		t.Errorf("the result was said %d times, want once: %q", n, said)
	}
	if n := saidCount(said, "Play again") + saidCount(said, "Watch the replay"); n != 0 {
		t.Errorf("the result's buttons were said %d times, want none: %q", n, said)
	}
	if len(said) < 2 || !strings.Contains(said[len(said)-1], "Game over") || !strings.Contains(said[len(said)-2], "is scored") {
		t.Errorf("the page said %q; want the hand's score, then the result, last", said)
	}
	if f := eval[string](p, `document.activeElement.id || document.activeElement.tagName`); f != "btn-replay" {
		t.Errorf("at the game's end the focus is on %s, want Watch the replay", f)
	}
}

// TestBrowserArlingtonChatSaid: a chat line that comes while the page is
// open is said, once, with who wrote it (the list is no live region, and
// a blind player never heard the others' lines); the lines a page opens
// with are not said again.
func TestBrowserArlingtonChatSaid(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	tbl, _, p := openTable(t, e, "Cy", 0, "", "")
	other := e.client().dial(tbl.ID, -1)
	p.recordSaid()
	other.send(map[string]any{"type": "chat", "text": "hello from afar"})
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	if said := p.said(); saidCount(said, "hello from afar") != 1 {
		t.Errorf("a chat line arrived; the page said %q, want the line once", said)
	}
	p.do(chromedp.Reload())
	p.until(`window.__ws && window.__ws.seats.length > 0 && document.querySelectorAll(` + q(selChat) + `).length === 1`)
	if kept := eval[string](p, `document.getElementById("say").textContent`); strings.Contains(kept, "hello from afar") {
		t.Errorf("the reloaded page said the earlier line again: %q", kept)
	}
	p.recordSaid()
	other.send(map[string]any{"type": "chat", "text": "and again"})
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 2`)
	said := p.said()
	if saidCount(said, "and again") != 1 || saidCount(said, "hello from afar") != 0 {
		t.Errorf("after a reload and a new line the page said %q, want the new line once and not the earlier one", said)
	}
}
