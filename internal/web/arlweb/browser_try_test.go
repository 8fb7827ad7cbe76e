package arlweb

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLongBrowserArlingtonTryTwoInTrick (long: a browser, several seconds under
// -race; make test-long runs it): in a trick, two cards selected and
// "Play" tried is refused with the rule (one card goes to a trick), and
// nothing is played. Before, the page sent the first card alone and it
// was played, though the button read "Play 8♣ A♦".
func TestLongBrowserArlingtonTryTwoInTrick(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	id := e.client().create("", "")
	bctx := startBrowser(t)
	ann, bob := newSeatTab(t, bctx, "Ann"), newSeatTab(t, bctx, "Bob")
	ann.open(e.srv.URL, id)
	ann.join("Ann")
	bob.open(e.srv.URL, id)
	bob.join("Bob")
	lead, other := ann, bob
	ann.until(`window.__ws.toMove >= 0`)
	if eval[int](ann, `window.__ws.toMove`) != eval[int](ann, `window.__ws.seat`) {
		lead, other = bob, ann
	}
	// The one with the lead leads a card: the other is to play to it.
	lead.until(`document.querySelector('#actions button[data-action^="lead "]')`)
	lead.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#actions button[data-action^="lead "]').click()`))
	other.until(`document.getElementById("status").textContent.includes("a trick") && document.querySelector(` + q(selLegal) + `)`)
	n, hand := other.events(), other.hand()
	other.do(chromedp.Evaluate[chromedp.Void](`(() => { const cs = document.querySelectorAll("#hand button.hand-card"); cs[0].click(); cs[1].click(); })()`))
	other.until(`document.querySelector("#btn-try")`)
	label := eval[string](other, `document.querySelector("#btn-try").textContent`)
	other.do(chromedp.Click(chromedp.CSS(`#btn-try`)))
	other.until(`document.getElementById("error").textContent !== ""`)
	msg := eval[string](other, `document.getElementById("error").textContent`)
	if !strings.HasPrefix(msg, "Not allowed: ") || !strings.Contains(msg, "Leading a Card") {
		t.Errorf("%q in a trick: the page says %q, want a refusal naming the rule", label, msg)
	}
	// The rule's name links to its section of the rules page.
	if href := eval[string](other, `(document.querySelector("#error a.rule-link") || {}).pathname + (document.querySelector("#error a.rule-link") || {}).hash`); href != "/arlington/rules#leading-a-card" {
		t.Errorf("the refusal links the rule to %q, want /arlington/rules#leading-a-card", href)
	}
	if got, h := other.events(), other.hand(); got != n || !slices.Equal(h, hand) {
		t.Errorf("%q in a trick changed the game: events %d -> %d, hand %v -> %v", label, n, got, hand, h)
	}
}
