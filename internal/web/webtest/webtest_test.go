package webtest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestClock(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	ticking := &Clock{T: t0, Step: time.Second}
	if a, b := ticking.Now(), ticking.Now(); !a.Equal(t0.Add(time.Second)) || !b.Equal(t0.Add(2*time.Second)) {
		t.Errorf("a ticking clock read %v then %v", a, b)
	}
	still := &Clock{T: t0}
	still.Advance(time.Minute)
	if a, b := still.Now(), still.Now(); !a.Equal(t0.Add(time.Minute)) || !b.Equal(a) {
		t.Errorf("a still clock advanced a minute read %v then %v", a, b)
	}
}

// TestJar: a cookie the answer sets goes with the browser's next request,
// not with another browser's.
func TestJar(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie("id"); err == nil {
			w.Write([]byte("back:" + c.Value))
			return
		}
		http.SetCookie(w, &http.Cookie{Name: "id", Value: "v1"})
		w.Write([]byte("new"))
	})
	var a, b Jar
	for _, step := range []struct {
		jar  *Jar
		want string
	}{{&a, "new"}, {&a, "back:v1"}, {&b, "new"}} {
		if got := step.jar.Do(h, "GET", "/", "").Body.String(); got != step.want {
			t.Errorf("answer %q, want %q", got, step.want)
		}
	}
	if c := a.Cookie("id"); c == nil || c.Value != "v1" || a.Value("id") != "v1" || b.Value("none") != "" {
		t.Errorf("cookie %v (value %q), want id=v1", c, a.Value("id"))
	}
	if rec := a.Do(h, "POST", "/", `{"x": 1}`); rec.Code != http.StatusOK {
		t.Errorf("POST: %d", rec.Code)
	}
}

// errorsTB records the errors a helper reports and the cleanups it
// registers, instead of failing the test.
type errorsTB struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (r *errorsTB) Helper() {}

func (r *errorsTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *errorsTB) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

// TestLongWatchErrors: an uncaught exception and an unhandled rejection in
// the tab are reported as errors when the test's cleanups run; a page
// without either reports none. Long: starting Chromium takes ~4 s here.
func TestLongWatchErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	bctx := StartBrowser(t)
	for _, c := range []struct {
		name, script string
		want         []string
	}{
		{"clean", `document.title = "fine";`, nil},
		{"thrown and rejected", `setTimeout(() => { throw new Error("boom"); }, 0); Promise.reject(new Error("nope"));`, []string{"boom", "nope"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := chromedp.NewContext(bctx)
			defer cancel()
			ctx, cancelT := context.WithTimeout(ctx, 30*time.Second)
			defer cancelT()
			if err := chromedp.Do(ctx); err != nil { // opens the tab
				t.Fatal(err)
			}
			rec := &errorsTB{TB: t}
			seen := WatchErrors(ctx, rec)
			page := "data:text/html,<title>t</title><script>" + url.PathEscape(c.script) + "</script>"
			if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitReady("body")); err != nil {
				t.Fatal(err)
			}
			// The errors arrive as events; wait for those expected. The
			// clean page's title says its script ran.
			for len(seen()) < len(c.want) && ctx.Err() == nil {
				time.Sleep(10 * time.Millisecond) // polling for the condition
			}
			title, err := chromedp.Run(ctx, chromedp.Title())
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rec.cleanups {
				f()
			}
			if len(rec.errs) != len(c.want) {
				t.Fatalf("reported %q, want %d errors", rec.errs, len(c.want))
			}
			for i, w := range c.want {
				if !strings.HasPrefix(rec.errs[i], "page error: ") || !strings.Contains(rec.errs[i], w) {
					t.Errorf("error %d %q, want a page error with %q", i, rec.errs[i], w)
				}
			}
			if c.want == nil && title != "fine" {
				t.Errorf("the clean page's script did not run (title %q)", title)
			}
		})
	}
}
