package arlweb

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonTableMoving: a request the page makes while its
// table is between servers (503 with Retry-After, as a server answers
// during a take-over or a rolling restart) is made again by itself: the
// person joins, and no error is shown. The first join is answered so, as
// the server forwarding it would. (Each answer so costs the second its
// Retry-After asks for: TestLongBrowserArlingtonTableMoving has two.)
func TestBrowserArlingtonTableMoving(t *testing.T) { tableMoving(t, 1) }

// TestLongBrowserArlingtonTableMoving: as TestBrowserArlingtonTableMoving,
// the first two joins answered so: the page asks again more than once.
func TestLongBrowserArlingtonTableMoving(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	tableMoving(t, 2)
}

// tableMoving has the first refused joins answered 503 with Retry-After,
// and checks that the person is seated after refused+1 joins asked, no
// error shown on the way.
func tableMoving(t *testing.T, refused int32) {
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	inner := e.srv.Config.Handler
	var joins atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/join") && joins.Add(1) <= refused {
			unavailable(w, r, "the table is moving to another server")
			return
		}
		inner.ServeHTTP(w, r)
	}))
	defer front.Close()
	startCtx := startBrowser(t)
	ctx, cancel := context.WithTimeout(startCtx, 30*time.Second)
	defer cancel()
	err := chromedp.Do(ctx,
		chromedp.Navigate(front.URL+"/arlington/t/"+id),
		untilJS(`!document.getElementById("join").hidden`),
		// Every text the error line shows from now on.
		chromedp.Evaluate[chromedp.Void](`window.errSeen = []; new MutationObserver(() => errSeen.push(document.getElementById("error").textContent)).observe(document.getElementById("error"), {childList: true, characterData: true, subtree: true})`),
		chromedp.SendKeys(chromedp.CSS("#name"), "Ann"),
		chromedp.Click(chromedp.CSS("#join-form button")),
		untilJS(`document.querySelector("#hand svg.card")`),
	)
	if err != nil {
		dctx, dcancel := context.WithTimeout(startCtx, 5*time.Second)
		defer dcancel()
		diag, _ := chromedp.Run(dctx, chromedp.Evaluate[string](`document.getElementById("error").textContent`))
		t.Fatalf("%v; error line: %q; %d joins asked", err, diag, joins.Load())
	}
	seen, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`errSeen.filter((s) => s !== "")`))
	if err != nil || len(seen) > 0 {
		t.Fatalf("the page showed %q (%v)", seen, err)
	}
	if n := joins.Load(); n != refused+1 {
		t.Fatalf("%d joins asked, want %d", n, refused+1)
	}
}
