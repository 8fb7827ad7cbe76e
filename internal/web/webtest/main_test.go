package webtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

func TestMain(m *testing.M) { Main(m) }

// TestBrowserContextsApart: two tests' tabs in the shared browser are one
// Chromium but keep their cookies apart, as two browsers would; the
// control, a second tab of the first test, sees the first's cookie, so
// the check can see a cookie that leaks.
func TestBrowserContextsApart(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/set" {
			http.SetCookie(w, &http.Cookie{Name: "who", Value: "first", Path: "/"})
		}
		c, err := r.Cookie("who")
		v := "none"
		if err == nil {
			v = c.Value
		}
		fmt.Fprintf(w, "<title>%s</title>", v)
	}))
	defer srv.Close()
	title := func(ctx context.Context, path string) string {
		t.Helper()
		var s string
		if err := Do(ctx, "opening "+path, chromedp.Navigate(srv.URL+path)); err != nil {
			t.Fatal(err)
		}
		if err := Eval(ctx, `document.title`, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := StartBrowser(t)
	second := StartBrowser(t)
	if a, b := chromedp.FromContext(first).Browser, chromedp.FromContext(second).Browser; a != b {
		t.Fatal("the two tabs are in two browsers, not the shared one")
	}
	title(first, "/set")
	if got := title(first, "/get"); got != "first" {
		t.Fatalf("the first tab's own cookie: %q", got)
	}
	if got := title(second, "/get"); got != "none" {
		t.Errorf("the second test's tab got the first's cookie: %q", got)
	}
	if got := title(OpenTab(t, first, 800, 600), "/get"); got != "first" {
		t.Errorf("control: a second tab of the first test has no cookie (%q)", got)
	}
}

// TestBrowserTabsKeepFocus: the tabs of tests running side by side in the
// shared browser each keep the focus, as the one tab of a test running
// alone does, so the keyboard and focus tests can run in parallel: each
// tab's document has the focus and shows, a field focused in one stays
// focused (its focus event came, its blur did not) while the others focus
// theirs, and keys sent to a tab type into its own field only.
func TestBrowserTabsKeepFocus(t *testing.T) {
	t.Parallel()
	const page = `data:text/html,<input id="f"><script>window.events = [];
		f.addEventListener("focus", () => events.push("focus"));
		f.addEventListener("blur", () => events.push("blur"));</script>`
	first := StartBrowser(t)
	tabs := []context.Context{first, StartBrowser(t), OpenTab(t, first, 800, 600)}
	for i, ctx := range tabs {
		if err := Do(ctx, fmt.Sprint("opening tab ", i), chromedp.Navigate(page)); err != nil {
			t.Fatal(err)
		}
		if err := Eval(ctx, `document.querySelector("#f").focus(), 1`, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i, ctx := range tabs {
		if err := Do(ctx, fmt.Sprint("typing in tab ", i), chromedp.KeyEvent(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	for i, ctx := range tabs {
		var got struct {
			HasFocus bool
			Active   string
			Events   []string
			Value    string
			Visible  string
		}
		if err := Eval(ctx, `({HasFocus: document.hasFocus(), Active: document.activeElement.id, Events: events,
			Value: document.querySelector("#f").value, Visible: document.visibilityState})`, &got); err != nil {
			t.Fatal(err)
		}
		if !got.HasFocus || got.Active != "f" || fmt.Sprint(got.Events) != "[focus]" || got.Value != fmt.Sprint(i) || got.Visible != "visible" {
			t.Errorf("tab %d, beside the others: %+v; want the focus in its field (one focus event, no blur), its own key typed, the page shown", i, got)
		}
	}
}
