package arlweb

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// networkGone has the browser of the tab lose its network (on) or get
// it back, as a phone out of reach does: navigator.onLine changes, the
// window hears "offline" or "online", and new requests fail. (Chromium's
// emulation leaves a WebSocket already open working.)
func networkGone(on bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{
			Offline: on, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	})
}

// TestBrowserArlingtonOfflineSaid: a phone that loses its network keeps
// a socket that looks open, so the page said "connected" all along,
// while the table moved on without it. The browser's "offline" now shows
// in the connection line; the network back, the page checks its socket
// (a ping, no new connection, no hello) at once, even just after a check,
// and says "connected" again. While offline the checks keep their 10 s
// gap: going offline lifted it, so a page shown again while offline
// pinged at once and dropped its socket when no answer could come.
func TestBrowserArlingtonOfflineSaid(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Bob")
	p.open(e.srv.URL, id)
	p.until(`document.getElementById("conn").textContent === "connected"`)
	eval[bool](p, countPings)
	// Shown again: the page's first check, answered.
	p.do(chromedp.Evaluate[chromedp.Void](`document.dispatchEvent(new Event("visibilitychange"))`))
	p.until(`window.__pings === 1 && window.__pongs === 1`)
	p.do(networkGone(true))
	p.until(`!navigator.onLine`)
	p.until(`document.getElementById("conn").textContent === "offline: waiting for the network…"`)
	p.shot("offline")
	// Shown again while offline, within 10 s of that check: no ping (the
	// check runs within the event's dispatch).
	if n := eval[int](p, `document.dispatchEvent(new Event("visibilitychange")), window.__pings`); n != 1 {
		t.Errorf("shown again while offline, just after a check: %d pings, want the first alone", n)
	}
	p.do(networkGone(false))
	p.until(`document.getElementById("conn").textContent === "connected"`)
	type sent struct{ Pings, Hellos, Socks int }
	got := eval[sent](p, `({ pings: window.__pings, hellos: window.__hellos, socks: window.__ws.socks.length })`)
	if got != (sent{Pings: 2, Hellos: 0, Socks: 1}) {
		t.Errorf("back online: %+v; want the socket checked with a second ping and kept, no hello", got)
	}
}
