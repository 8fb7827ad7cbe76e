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
