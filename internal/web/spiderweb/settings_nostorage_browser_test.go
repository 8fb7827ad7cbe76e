package spiderweb

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// noStorage makes every later page of p's tab find a localStorage that
// throws, as a browser keeping none (a private window, storage turned
// off) has.
const noStorage = `Object.defineProperty(window, "localStorage", {get() { throw new DOMException("storage off", "SecurityError"); }});`

// fullStorage makes every later page of p's tab find a localStorage that
// reads but keeps nothing (full, or an older private window).
const fullStorage = `Storage.prototype.setItem = function () { throw new DOMException("full", "QuotaExceededError"); };`

// TestBrowserSettingsRetriedNoStorage: where the browser keeps nothing
// in localStorage (it throws on every use, or only on writes), a change
// whose write failed (503) is still sent again by the page, and no
// sooner than a first failure's 1 s: the page keeps the unsent mark and
// the retry's time itself. Read from storage alone, the mark was never
// set, and the change never reached the server.
func TestBrowserSettingsRetriedNoStorage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, script, probe string }{
		{"storage off", noStorage, `(() => { try { localStorage; return false; } catch { return true; } })()`},
		{"storage full", fullStorage, `(() => { try { localStorage.setItem("cardtable.probe", "1"); return false; } catch { return true; } })()`},
	} {
		t.Run(c.name, func(t *testing.T) { retriedWithStorage(t, c.script, c.probe) })
	}
}

func retriedWithStorage(t *testing.T, script, probe string) {
	ss := newSettingsBrowser(t)
	p := ss.tab()
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	}))
	p.load()
	var throws bool
	p.eval(probe, &throws)
	if !throws {
		t.Fatal("the page's localStorage does not throw")
	}
	ss.fail.Store(1)
	ss.retryAfter.Store(0)
	toggle(p, "sound")
	waitSignal(t, ss.failed, "the failed settings write")
	waitSignal(t, ss.stored, "the settings write sent again")
	if ms := time.Now().UnixMilli() - ss.failedAt.Load(); ms < 1000 {
		t.Errorf("the write was sent again %d ms after its failure, want 1000 or more (a first failure's wait)", ms)
	}
	p.idle()
	if n := ss.puts.Load(); n != 2 {
		t.Errorf("%d settings writes, want 2: the failed one and one sent again", n)
	}
	if s := ss.settings(p); s["sound"] != true {
		t.Errorf("the server's settings after the write sent again: %v, want sound true", s)
	}
}
