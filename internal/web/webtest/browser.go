package webtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ChromiumPath finds Chromium ($CHROMIUM, else chromium, chromium-browser,
// google-chrome or chrome on the PATH). Without it the browser tests
// skip, saying so loudly; with CARDTABLE_REQUIRE_BROWSER=1 (which .ci/run
// sets) or CI=true a missing browser fails the test instead: a browser
// test skipped in CI is a defect.
func ChromiumPath(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "CHROMIUM NOT FOUND: the browser tests did NOT run (install Debian's chromium, or set CHROMIUM=/path/to/chrome)"
	if os.Getenv("CARDTABLE_REQUIRE_BROWSER") == "1" || os.Getenv("CI") == "true" {
		tb.Fatal(msg + "; CARDTABLE_REQUIRE_BROWSER=1 (or CI=true) makes that a failure")
	}
	tb.Skip(msg)
	return ""
}

// StartBrowser returns the context of a fresh tab for tb in a headless
// Chromium; everything it opened closes when the test ends. In a package
// whose TestMain runs its tests through Main, the tab is in a browser
// context of its own (its own cookies and storage, like a fresh incognito
// window) in the one browser the package's tests share: starting Chromium
// under -race costs seconds of CPU, a browser context milliseconds.
// Elsewhere each call starts a browser of its own with a fresh profile.
func StartBrowser(tb testing.TB) context.Context {
	tb.Helper()
	exe := ChromiumPath(tb)
	if sharing() {
		b, err := sharedBrowser(exe)
		if err != nil {
			tb.Fatalf("starting chromium: %v", err)
		}
		return openContext(tb, b)
	}
	profile := tb.TempDir() // created first, so removed after the browser exits
	bctx, stop := launch(exe, profile)
	tb.Cleanup(stop)
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		tb.Fatalf("starting chromium: %v", err)
	}
	return bctx
}

// LANHost is a name Chromium resolves to 127.0.0.1. An http:// origin
// by this name is not trustworthy to Chromium, as a network install's
// (serve --host mybox.lan) is, unlike localhost and 127.0.0.0/8: it sends
// such an origin no Sec-Fetch-* headers. A server a test reaches by it
// must answer the name (web.Options.Hosts).
const LANHost = "cardtable-lan.test"

// launch makes the context of a headless Chromium with its profile in
// dir; its first run starts the browser, and stop ends it.
func launch(exe, dir string) (bctx context.Context, stop func()) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(dir),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// LANHost reaches the test's servers by a name that is not
		// loopback, so Chromium treats the origin as over a network.
		chromedp.Flag("host-resolver-rules", "MAP "+LANHost+" 127.0.0.1"),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	return bctx, func() {
		cancelBrowser()
		cancelAlloc()
	}
}

// openContext opens a tab in a new browser context of the browser b,
// closed (tab and browser context) when the test ends. Tabs a test opens
// from the returned context (chromedp.NewContext) share its browser
// context.
func openContext(tb testing.TB, b context.Context) context.Context {
	tb.Helper()
	ctx, cancel := chromedp.NewContext(b, chromedp.WithNewBrowserContext())
	tb.Cleanup(cancel)
	firstRun(tb, ctx, cancel, "opening a browser context")
	return ctx
}

// shared is the browser of a package whose TestMain calls Main.
var shared struct {
	mu      sync.Mutex
	on      bool // Main runs the tests
	ctx     context.Context
	stop    func()
	profile string
}

func sharing() bool {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	return shared.on
}

// Main runs a package's tests (call it from TestMain) with one Chromium
// shared by the tests that call StartBrowser, started by the first of
// them and stopped, its profile removed, when the tests end.
func Main(m *testing.M) {
	shared.mu.Lock()
	shared.on = true
	shared.mu.Unlock()
	defer stopShared()
	m.Run()
}

// sharedBrowser is the shared browser's context, started on first use and
// started again if it has stopped (crashed), so one crash fails one test.
func sharedBrowser(exe string) (context.Context, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.ctx != nil && shared.ctx.Err() == nil {
		return shared.ctx, nil
	}
	stopSharedLocked()
	dir, err := os.MkdirTemp("", "cardtable-chromium-")
	if err != nil {
		return nil, err
	}
	bctx, stop := launch(exe, dir)
	shared.ctx, shared.stop, shared.profile = bctx, stop, dir
	done := make(chan error, 1)
	// Exits when the start ends, which stop (below) forces.
	go func() { done <- chromedp.Do(bctx) }()
	select {
	case err = <-done:
	case <-time.After(StepTimeout):
		err = fmt.Errorf("not within %v", StepTimeout)
	}
	if err != nil {
		stopSharedLocked()
		return nil, err
	}
	return bctx, nil
}

func stopShared() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	stopSharedLocked()
}

func stopSharedLocked() {
	if shared.stop != nil {
		shared.stop()
	}
	if shared.profile != "" {
		os.RemoveAll(shared.profile)
	}
	shared.ctx, shared.stop, shared.profile = nil, nil, ""
}

// WatchErrors fails tb if the browser tab of ctx throws an uncaught
// exception or leaves a promise rejection unhandled; they are reported
// when tb's cleanups run, which is before the tab closes if the tab's own
// cleanup was registered first. The watcher exits when the tab's context
// ends, which ends the iteration. seen returns the errors so far.
func WatchErrors(ctx context.Context, tb testing.TB) (seen func() []string) {
	var mu sync.Mutex
	var errs []string
	events := chromedp.Events(ctx, runtime.ExceptionThrown) // subscribes at once
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			mu.Lock()
			errs = append(errs, fmt.Sprintf("%s:%d: %s", d.URL, d.LineNumber+1, msg))
			mu.Unlock()
		}
	}()
	tb.Cleanup(func() { // cleanups run last first: before the tab's own
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			tb.Errorf("page error: %s", e)
		}
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), errs...)
	}
}
