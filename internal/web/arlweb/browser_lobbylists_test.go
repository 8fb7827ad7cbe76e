package arlweb

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// listsHooks make the lobby's lists refresh every 150 ms instead of every
// 5 s (so a test sees several refreshes at once), fail the refreshes
// while window.__failLists is set, counting them (__listsFailed), and
// count the changes of #lists-msg (__listsSaid).
const listsHooks = `(() => {
  const si = window.setInterval;
  window.setInterval = (f, ms, ...a) => si(f, ms === 5000 ? 150 : ms, ...a);
  const f0 = window.fetch;
  window.__listsFailed = 0;
  window.fetch = (u, init) => {
    if (window.__failLists && String(u) === "/api/arlington/tables" && !(init && init.method && init.method !== "GET")) {
      window.__listsFailed++;
      return Promise.reject(new TypeError("Failed to fetch"));
    }
    return f0(u, init);
  };
  window.__listsSaid = 0;
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver((rs) => { window.__listsSaid += rs.length; }).observe(document.getElementById("lists-msg"), { childList: true, characterData: true, subtree: true });
  });
})()`

// TestBrowserArlingtonLobbyListsMessage: while the lobby's lists cannot
// be refreshed it says so once (a status a screen reader reads at each
// change: the same words set again every few seconds were read again),
// and the words go once a refresh works again.
func TestBrowserArlingtonLobbyListsMessage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	bctx := startBrowser(t)
	addPageScript(t, bctx, listsHooks)
	p := seatTabIn(t, bctx, "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelectorAll("#seats select").length >= 2`)
	eval[bool](p, `window.__failLists = true`)
	p.until(`window.__listsFailed >= 4`)
	msg := eval[string](p, `document.getElementById("lists-msg").textContent`)
	if !strings.Contains(msg, "could not be updated") {
		t.Errorf("the lobby says %q while its lists fail, want that they could not be updated", msg)
	}
	if n := eval[int](p, `window.__listsSaid`); n != 1 {
		t.Errorf("the lists' message changed %d times over 4 failed refreshes, want once", n)
	}
	eval[bool](p, `(window.__failLists = false, true)`)
	p.until(`document.getElementById("lists-msg").textContent === ""`)
}

// TestBrowserArlingtonLobbyCodeRefused: a table code that leads nowhere
// is said by the code's field, in the server's words, and the page stays.
func TestBrowserArlingtonLobbyCodeRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	p := seatTabIn(t, startBrowser(t), "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelectorAll("#seats select").length >= 2`)
	p.do(chromedp.SendKeys(chromedp.CSS("#code"), "ZZZZZZ"), chromedp.Click(chromedp.CSS(`#code-form button`)))
	p.until(`document.getElementById("code-msg").textContent !== ""`)
	msg := eval[string](p, `document.getElementById("code-msg").textContent`)
	if msg == "" || strings.ToUpper(msg[:1]) != msg[:1] || !strings.Contains(strings.ToLower(msg), "code") {
		t.Errorf("the lobby says %q for an unknown code, want the server's words, capitalised", msg)
	}
	if path := eval[string](p, `location.pathname`); path != "/arlington/" {
		t.Errorf("the page went to %s for an unknown code", path)
	}
}

// addPageScript has the tab of bctx run src in every page it loads,
// before the page's own scripts.
func addPageScript(tb testing.TB, bctx context.Context, src string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(bctx, browserWait)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return err
	})); err != nil {
		tb.Fatalf("adding a script to the tab: %v", err)
	}
}

// TestLongBrowserArlingtonLobbyStalledRefresh (long: it waits out the
// page's 15 s for a stalled refresh): a refresh of the lists that never
// answers (a connection left half open by a laptop's sleep) holds the
// next ones back only so long; the lists then update again. Waiting for
// the refresh on its way, the page once waited for ever.
func TestLongBrowserArlingtonLobbyStalledRefresh(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	bctx := startBrowser(t)
	addPageScript(t, bctx, listsHooks)
	p := seatTabIn(t, bctx, "lobby")
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.until(`document.querySelectorAll("#seats select").length >= 2`)
	// The next refresh never answers.
	eval[bool](p, `(() => { const f = window.fetch; window.fetch = (u, init) => {
	  if (String(u) === "/api/arlington/tables" && !window.__stalled) { window.__stalled = true; window.fetch = f; return new Promise(() => {}); }
	  return f(u, init); }; return true })()`)
	p.until(`window.__stalled === true`)
	e.client().create("", "random")
	p.until(`!!document.querySelector("#open-tables a.table-link")`)
}
