package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonEndNoJump: at 844×390, the game's end does not
// scroll the page of a person typing in the chat (Ann) nor of one who
// left the table and is down at the log (Bob, the stand-in playing for
// him): the result is shown on both pages, their pages left where they
// were. The end brought the result onto the screen for everyone, the
// chat's field sliding away under Ann's fingers. A game to 1 point, the
// two of them alone at the table.
func TestBrowserArlingtonEndNoJump(t *testing.T) {
	e := newEnv(t, Limits{Burst: 10000})
	got, bctx, ann := openTable(t, e, "Ann", 1, "", "")
	ann.do(chromedp.EmulateViewport(844, 390))
	bob := newSeatTab(t, bctx, "Bob")
	bob.open(e.srv.URL, got.ID)
	bob.do(chromedp.EmulateViewport(844, 390))
	// Bob takes the first seat, and the game starts as Ann takes the
	// other: his page's new subscription after joining (which counts as
	// coming back) is then long made when he leaves.
	bob.join("Bob")
	ann.join("Ann")
	bob.until(`document.querySelector("#hand button")`)
	code := eval[int](bob, `fetch("/api/arlington/tables/" + location.pathname.split("/").pop() + "/leave", { method: "POST" }).then((r) => r.status)`,
		chromedp.EvalAwaitPromise)
	if code != http.StatusOK {
		t.Fatalf("Bob leaving: status %d", code)
	}
	// Once he is away Bob goes down to the log; where the result lies as
	// it is first shown (the observer runs once the page has drawn the
	// view that ended the game, scrolling included).
	bob.until(`window.__ws.seats.some((s) => s.seat === 0 && s.away)`)
	eval[bool](bob, `(() => {
	  document.getElementById("log-filter").scrollIntoView({ block: "center" });
	  window.__end = null;
	  const box = document.getElementById("winners");
	  new MutationObserver(() => {
	    if (box.hidden || window.__end) return;
	    const r = box.getBoundingClientRect();
	    window.__end = { top: r.top, bottom: r.bottom, bar: document.querySelector(".bar").getBoundingClientRect().bottom, foot: innerHeight };
	  }).observe(box, { attributes: true, attributeFilter: ["hidden"] });
	  return true;
	})()`)
	// Ann types: the chat's field on the screen, with the focus; where it
	// lies as each view is drawn.
	eval[bool](ann, `(() => {
	  const f = document.getElementById("chat-text");
	  f.closest("details").open = true;
	  f.scrollIntoView({ block: "center" });
	  f.focus();
	  window.__at = [];
	  window.__ws.socks[window.__ws.viewSock].addEventListener("message", () => {
	    const r = f.getBoundingClientRect();
	    window.__at.push({ top: r.top, bottom: r.bottom, bar: document.querySelector(".bar").getBoundingClientRect().bottom,
	      foot: innerHeight, y: scrollY, focused: document.activeElement === f });
	  });
	  return true;
	})()`)
	// Ann's moves are sent without touching the focus (as if she tapped
	// them and went back to typing) until the game is over.
	ann.until(`(() => {
	  if (!document.getElementById("winners").hidden) return true;
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (first) first.click();
	  return false;
	})()`)
	bob.until(`!document.getElementById("winners").hidden`)
	for _, p := range []*seatTab{ann, bob} {
		if txt := eval[string](p, `document.querySelector("#winners .win-text").textContent`); !strings.Contains(txt, "win") {
			t.Errorf("%s's page at the game's end: the result reads %q", p.name, txt)
		}
	}
	type at struct {
		span
		Y       float64
		Focused bool
	}
	as := eval[[]at](ann, `window.__at`)
	t.Logf("Ann: %d views drawn", len(as))
	for i, a := range as {
		if !a.Focused {
			t.Fatalf("Ann: at view %d the focus left the chat's field", i)
		}
		if !a.shown() {
			t.Errorf("at 844×390, Ann typing in the chat, at view %d (of %d, the last the game's end) the page was at %.0f px and the chat's field spanned %.0f to %.0f px: off the screen (the bar ends at %.0f, the window at %.0f)", i, len(as), a.Y, a.Top, a.Bottom, a.Bar, a.Foot)
			break
		}
	}
	if s := eval[span](bob, `window.__end`); s.Bottom > s.Bar {
		t.Errorf("at 844×390, Bob away and down at the log, the result came to %.0f to %.0f px as the game ended: the page scrolled to it (the bar ends at %.0f)", s.Top, s.Bottom, s.Bar)
	}
	ann.shot("end-typing-844x390")
	bob.shot("end-away-844x390")
}
