package arlweb

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLongBrowserArlingtonDoubleTap (long: a browser, several seconds under
// -race; make test-long runs it): a second tap on an action before the
// server has answered the first sends nothing: the offered actions wait
// for the answer. Before, the page drew the same buttons again at once,
// so a double tap sent the action twice and the second was refused ("not
// your turn", or the card no longer in hand), an error the player had
// not caused.
func TestLongBrowserArlingtonDoubleTap(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	bctx := startBrowser(t)
	ann := seatTabIn(t, bctx, "Ann")
	ann.open(e.srv.URL, id)
	ann.join("Ann")
	ann.until(`document.querySelector(` + q(selLegal) + `)`)
	n := ann.events()
	// Two taps in one go: the second lands on whatever button is in the
	// first's place after the first tap has redrawn the actions.
	ann.do(chromedp.Evaluate[chromedp.Void](`(() => {
	  const first = document.querySelector(` + q(selLegal) + `);
	  const at = [...document.querySelectorAll(` + q(selLegal) + `)].indexOf(first);
	  first.click();
	  const again = document.querySelectorAll(` + q(selLegal) + `)[at];
	  if (again) again.click();
	})()`))
	if sent := eval[[]string](ann, `window.__ws.sent`); len(sent) != 1 {
		t.Errorf("a double tap sent %d actions %q, want 1", len(sent), sent)
	}
	ann.until(fmt.Sprintf(`window.__ws.count > %d`, n))
	// The answer came: the actions are offered again on the next turn.
	ann.until(`document.querySelector(` + q(selLegal+":not(:disabled)") + `) || window.__ws.toMove !== window.__ws.seat`)
	if msg := eval[string](ann, `document.getElementById("error").textContent`); msg != "" {
		t.Errorf("the page shows the error %q", msg)
	}
}
