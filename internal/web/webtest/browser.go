package webtest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// WatchErrors fails tb if the browser tab of ctx throws an uncaught
// exception or leaves a promise rejection unhandled; they are reported
// when tb's cleanups run, which is before the tab closes if the tab's own
// cleanup was registered first. The watcher exits when the tab's context
// ends, which ends the iteration.
func WatchErrors(ctx context.Context, tb testing.TB) {
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
}
