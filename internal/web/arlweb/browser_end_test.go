package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonEndNoJump: at 844×390, the game's end does not
// scroll the page of a person typing in the chat (Ann) nor of one who
// left the table and is down at the page's foot (Bob, the stand-in playing for
// him): the result is shown on both pages, above the window, their
// pages left where they were, Ann's focus in her field. The end brought the result onto the screen for everyone, the
// chat's field sliding away under Ann's fingers. A game to 1 point, the
// two of them alone at the table.
func TestBrowserArlingtonEndNoJump(t *testing.T) {
	t.Parallel()
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
	// Once he is away Bob goes down to the page's foot (the log, the
	// chat); Ann types, the chat's
	// field on the screen with the focus. Where the result lies on each
	// page as it is first shown, and whether Ann's focus is still in the
	// field then (the observer runs once the page has drawn the view that
	// ended the game, scrolling included).
	bob.until(`window.__ws.seats.some((s) => s.seat === 0 && s.away)`)
	eval[bool](bob, `(() => { scrollTo(0, document.documentElement.scrollHeight); return true; })()`)
	eval[bool](ann, `(() => {
	  const f = document.getElementById("chat-text");
	  f.closest("details").open = true;
	  f.scrollIntoView({ block: "center" });
	  f.focus();
	  return true;
	})()`)
	for _, p := range []*seatTab{ann, bob} {
		eval[bool](p, `(() => {
		  window.__end = null;
		  const box = document.getElementById("winners");
		  new MutationObserver(() => {
		    if (box.hidden || window.__end) return;
		    const r = box.getBoundingClientRect();
		    const f = document.activeElement;
		    window.__end = { top: r.top, bottom: r.bottom, bar: document.querySelector(".bar").getBoundingClientRect().bottom, foot: innerHeight,
		      y: scrollY, focus: f ? f.tagName + " " + f.id : "none", text: box.querySelector(".win-text").textContent };
		  }).observe(box, { attributes: true, attributeFilter: ["hidden"] });
		  return true;
		})()`)
	}
	// Ann's moves are sent without touching the focus (as if she tapped
	// them and went back to typing) until the game is over.
	ann.untilPlayed(`(() => {
	  if (!document.getElementById("winners").hidden) return true;
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (first) first.click();
	  return false;
	})()`)
	bob.until(`window.__end`)
	type end struct {
		span
		Y           float64
		Focus, Text string
	}
	for _, p := range []*seatTab{ann, bob} {
		e := eval[end](p, `window.__end`)
		t.Logf("%s: %+v", p.name, e)
		if !strings.Contains(e.Text, "win") {
			t.Errorf("%s's page at the game's end: the result reads %q", p.name, e.Text)
		}
		if e.Bottom > e.Bar {
			t.Errorf("at 844×390, %s (%s), the result came to %.0f to %.0f px as the game ended, the page at %.0f px: the page scrolled to it (the bar ends at %.0f)",
				p.name, map[string]string{"Ann": "typing in the chat", "Bob": "away, down at the page's foot"}[p.name], e.Top, e.Bottom, e.Y, e.Bar)
		}
	}
	if e := eval[end](ann, `window.__end`); e.Focus != "INPUT chat-text" {
		t.Errorf("at the game's end Ann's focus was on %s, not in the chat's field she typed in", e.Focus)
	}
	ann.shot("end-typing-844x390")
	bob.shot("end-away-844x390")
}
