package arlweb

import (
	"testing"
)

// TestBrowserArlingtonTableGone: a page whose table no longer exists
// stops trying to reconnect and says so, with a way back to the lobby.
// Both ways it finds out are driven: the table closing while the page
// is connected ("table closed", then 404), and a page that was away (a
// laptop asleep) whose next attempt is refused with 404.
func TestBrowserArlingtonTableGone(t *testing.T) {
	for _, away := range []bool{false, true} {
		name := "connected"
		if away {
			name = "away"
		}
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, Limits{})
			id := e.client().create("", "random")
			p := seatTabIn(t, startBrowser(t), "Ann")
			p.open(e.srv.URL, id)
			p.join("Ann")
			if away {
				p.offline(true) // its attempts fail while the table still exists
				p.until(`document.body.dataset.retryMs`)
			}
			e.hub.Close()
			if away {
				p.offline(false)
			}
			p.until(`document.getElementById("conn").textContent.startsWith("this table has ended or is gone")`)
			p.shot("gone")
			if href := eval[string](p, `document.querySelector("#conn a").getAttribute("href")`); href != "/arlington/" {
				t.Fatalf("the lobby link goes to %q", href)
			}
			if n := p.count(selLegal + ":not(:disabled)"); n != 0 {
				t.Fatalf("%d actions still enabled on a table that is gone", n)
			}
		})
	}
}
