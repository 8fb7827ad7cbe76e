package webtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"

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

// StartBrowser starts a headless Chromium with a fresh profile and
// returns its context; the browser stops when the test ends.
func StartBrowser(tb testing.TB) context.Context {
	tb.Helper()
	exe := ChromiumPath(tb)
	profile := tb.TempDir() // created first, so removed after the browser exits
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	tb.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
	})
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		tb.Fatalf("starting chromium: %v", err)
	}
	return bctx
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
