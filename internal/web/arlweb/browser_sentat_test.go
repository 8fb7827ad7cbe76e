package arlweb

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonLaterRefusalNotTheAction: Ann plays from window A
// while her window B is offline; A's action is answered (her move
// shown), then A is refused something else (a message the server does
// not take). B, back, tells her move as hers, not "A bot played for
// you". A kept the action as awaiting after its answer, took the later
// refusal for its answer, and withdrew it from B, which then judged the
// move the stand-in's.
func TestBrowserArlingtonLaterRefusalNotTheAction(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	got, _, a := openTable(t, e, "Ann", longGame, "", "random")
	a.join("Ann")
	b := secondWindow(t, a, "Ann-B", e.srv.URL, got.ID)
	enabled := `document.querySelector(` + q(selLegal+":not(:disabled)") + `)`
	a.until(shownAll + ` && !!` + enabled)
	n := a.events()
	b.until(fmt.Sprintf(`window.__ws.count === %d && window.__ws.seat === 0 && %s`, n, shownAll))
	b.offline(true)
	a.play() // Ann's move at n; B is told of it (its word), not shown it
	a.until(fmt.Sprintf(`!!document.querySelector('#log li[data-n="%d"]')`, n))
	// A refusal of something else: a message of no kind the server takes.
	a.do(chromedp.Evaluate[chromedp.Void](`window.__ws.socks[window.__ws.viewSock].send(JSON.stringify({ type: "nonsense" }))`))
	a.until(`document.getElementById("error").textContent !== ""`)
	m := a.events()
	b.offline(false)
	b.until(fmt.Sprintf(`window.__ws.count >= %d && %s`, m, shownAll))
	for _, p := range []*seatTab{a, b} {
		if eval[bool](p, fmt.Sprintf(`document.querySelector('#log li[data-n="%d"]').classList.contains("stand-in")`, n)) {
			t.Errorf("window %s tells Ann's move %d, sent from A, as the stand-in's: %q", p.name, n,
				eval[string](p, fmt.Sprintf(`document.querySelector('#log li[data-n="%d"]').textContent`, n)))
		}
	}
}
