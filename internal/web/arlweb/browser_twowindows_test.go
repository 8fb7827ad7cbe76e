package arlweb

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonBothWindowsOneTurnNotStandIn: two windows A and B
// of Ann's seat send an action on the same turn (count n); the server
// applies A's at n and B's, arriving late, at Ann's next turn m. Both
// moves are Ann's in both windows. Before, A threw B's word away (its
// own move at n had used up the count) and told B's move m as "A bot
// played for you".
func TestBrowserArlingtonBothWindowsOneTurnNotStandIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	got, _, a := openTable(t, e, "Ann", longGame, "", "random")
	a.join("Ann")
	b := secondWindow(t, a, "Ann-B", e.srv.URL, got.ID)
	enabled := `document.querySelector(` + q(selLegal+":not(:disabled)") + `)`
	a.until(enabled)
	n := a.events()
	b.until(fmt.Sprintf(`window.__ws.count === %d && window.__ws.seat === 0 && !!%s`, n, enabled))
	a.play() // A's action, applied at n
	for {    // on to Ann's next turn
		a.until(enabled)
		if a.events() > n {
			break
		}
		a.play()
	}
	m := a.events()
	// B's action sent at n (its word telling A so) reaches the server now.
	b.until(fmt.Sprintf(`window.__ws.count === %d && !!%s`, m, enabled))
	b.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`import("/arlington/standin.js").then((s) => {
	  const x = %s.dataset.action;
	  s.sending(%d, window.__ws.seat, x);
	  window.__ws.socks[window.__ws.viewSock].send(JSON.stringify({ type: "action", action: x }));
	})`, enabled, n)))
	for _, p := range []*seatTab{a, b} {
		p.until(fmt.Sprintf(`!!document.querySelector('#log li[data-n="%d"]')`, m))
		for _, k := range []int{n, m} {
			if eval[bool](p, fmt.Sprintf(`document.querySelector('#log li[data-n="%d"]').classList.contains("stand-in")`, k)) {
				t.Errorf("window %s tells Ann's move %d (A's at %d, B's sent at %d applied at %d) as the stand-in's", p.name, k, n, n, m)
			}
		}
	}
}
