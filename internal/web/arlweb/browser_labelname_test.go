package arlweb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonLabelNameRefused: on the table's page, a name that
// reads as the table's own label for a bot, an open seat or a watcher is
// refused with the server's words, and the seat stays open; another
// name then takes it.
func TestBrowserArlingtonLabelNameRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	bctx := startBrowser(t)
	p := seatTabIn(t, bctx, "ann")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/t/" + id))
	p.until(`!document.getElementById("join").hidden`)
	submit := func(name string) {
		t.Helper()
		eval[bool](p, fmt.Sprintf(`(() => { document.getElementById("error").textContent = "";
			document.getElementById("name").value = %q; document.getElementById("join-form").requestSubmit(); return true })()`, name))
	}
	// The other names: TestLabelNamesRefused.
	for _, name := range []string{"Bot 2 (medium)"} {
		submit(name)
		p.until(`document.getElementById("error").textContent !== ""`)
		if msg := eval[string](p, `document.getElementById("error").textContent`); !strings.Contains(msg, fmt.Sprintf("%q reads as the table's own words", name)) {
			t.Fatalf("joining as %q shows %q", name, msg)
		}
		if s := e.hub.List()[0].Seats[0]; !s.Open {
			t.Fatalf("after %q the seat is %+v", name, s)
		}
	}
	submit("Ann")
	p.until(`document.getElementById("join").hidden || document.getElementById("error").textContent !== ""`)
	if s := e.hub.List()[0].Seats[0]; s.Name != "Ann" {
		t.Fatalf("after Ann the seat is %+v", s)
	}
}
