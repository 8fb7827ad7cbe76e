package spiderweb

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// leaveBy is how a test's player leaves the page: closing its tab, or
// going to another page in it.
type leaveBy func(p *browserPage)

// closeTab closes p's tab as the player would (Page.close runs the
// page's unload steps, pagehide among them). The tab's end may cut the
// call's answer short, so its error is not the test's: what the server
// got is.
func closeTab(p *browserPage) {
	p.t.Helper()
	_ = chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.Close, cdp.Empty{})
		return err
	}))
}

// goToFront takes p's tab to the front page.
func goToFront(p *browserPage) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.srv.URL + "/"))
}

// hidePage tells p's page it is hidden, as the browser does when another
// tab is brought forward or the window is minimised (visibilityState
// "hidden", then visibilitychange), the page staying alive: no pagehide,
// and nothing the browser cancels by itself. The hidden state is faked:
// visibilityState is redefined on the document and the event dispatched
// by hand, since headless Chromium has no way to hide a page that keeps
// running (no other tab comes forward, no window is minimised, and
// the DevTools protocol's page lifecycle control only freezes a page).
// The page reads only visibilityState and the event, both given here.
func hidePage(p *browserPage) {
	p.t.Helper()
	p.eval(`Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
		document.dispatchEvent(new Event("visibilitychange")); true`, nil)
}

// TestBrowserSettingsSentOnLeaving: a setting changed just before the
// player closes the tab, leaves the page or hides it reaches the server,
// without another page being loaded. A write in flight was cancelled by
// the browser as the page went (now it is sent again, outliving the page:
// keepalive); a change made while a write was in flight waited for its
// answer, which a page gone never reads, and stayed in the browser's copy
// until the next page was loaded (now it is sent as the page is hidden or
// left, the older write in flight aborted). The held write is never
// stored in the lost cases, so only the write sent as the page went can
// deliver the change; a page hidden stays alive, so only the page's own
// abort cancels the held write there. In the late cases the held write is
// stored after the newer one, its database write under way before the
// cancel came: its older revision leaves the newer settings kept. The
// server's settings are read from a second tab, opened first.
func TestBrowserSettingsSentOnLeaving(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		leave leaveBy
		// queued: a second change (verbose off) is made while the first
		// one's write is held at the server.
		queued bool
		// late: the held write is stored once let through (holdLate),
		// after the newer one; else it is lost (holdLost).
		late bool
	}{
		{"write in flight, tab closed", closeTab, false, false},
		{"change behind a write, tab closed", closeTab, true, false},
		{"change behind a write, page left", goToFront, true, false},
		{"write in flight, page hidden", hidePage, false, false},
		{"change behind a write, page hidden", hidePage, true, false},
		{"older write stored late, tab closed", closeTab, true, true},
		{"older write stored late, page hidden", hidePage, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // a server and a browser context of its own
			ss := newSettingsBrowser(t)
			reader, p := ss.tab(), ss.tab()
			if n := ss.puts.Load(); n != 0 {
				t.Fatalf("%d settings writes as the pages loaded, want none", n)
			}
			if c.late {
				ss.holdLate()
			} else {
				ss.holdLost()
			}
			toggle(p, "sound")
			waitSignal(t, ss.held, "settings write for the sound")
			if c.queued {
				toggle(p, "verbose")
				waitSetting(p, "verbose", "false", "verbose off")
			}
			c.leave(p)
			// The write sent as the page went, while the first is held.
			waitSignal(t, ss.stored, "settings write sent as the page went")
			ss.open()
			// The held write waits a step at most to see its cancel.
			receiveWithin(t, ss.heldDone, 2*webtest.StepTimeout, "answer to the held settings write")
			if !c.late && !ss.abandoned.Load() {
				t.Error("the write held when the page went was not aborted: its older copy could land after the newer one")
			}
			s := ss.settings(reader)
			if s["sound"] != true {
				t.Errorf("the server's settings once the page went: sound %v, want true", s["sound"])
			}
			if c.queued && s["verbose"] != false {
				t.Errorf("the server's settings once the page went: verbose %v, want false (changed just before)", s["verbose"])
			}
		})
	}
}
