package webtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserFree: a button under a message box is not free to click, nor
// one that moved since the last look, nor a disabled one; the same button
// in the open, standing still, is (the control that the condition can
// hold). At names what covers it, and ClickFree clicks it once free.
func TestBrowserFree(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><button id="b" onclick="document.title='clicked'" style="position:absolute;left:20px;top:20px;width:80px;height:30px">Go</button>
<div id="cover" style="position:absolute;left:0;top:0;width:200px;height:100px;background:#fff"></div>`)
	}))
	defer srv.Close()
	ctx := OpenTab(t, StartBrowser(t), 800, 600)
	if err := Do(ctx, "opening the page", chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	free := func() bool {
		t.Helper()
		var a, b bool
		// Asked twice: the first look only notes where the button is.
		if err := Eval(ctx, Free("#b"), &a); err != nil {
			t.Fatal(err)
		}
		if err := Eval(ctx, Free("#b"), &b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	if free() {
		t.Error("a button under another element counts as free")
	}
	var at string
	if err := Eval(ctx, At("#b"), &at); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(at, "div#cover") {
		t.Errorf("At names %q, want the covering div#cover", at)
	}
	if err := Eval(ctx, `document.querySelector("#cover").remove()`, nil); err != nil {
		t.Fatal(err)
	}
	if !free() {
		t.Fatal("control: the uncovered, still button does not count as free")
	}
	var moved bool
	if err := Eval(ctx, `document.querySelector("#b").style.left = "40px", `+Free("#b"), &moved); err != nil {
		t.Fatal(err)
	}
	if moved {
		t.Error("a button that moved since the last look counts as free")
	}
	if err := Eval(ctx, `document.querySelector("#b").disabled = true`, nil); err != nil {
		t.Fatal(err)
	}
	if free() {
		t.Error("a disabled button counts as free")
	}
	if err := Eval(ctx, `document.querySelector("#b").disabled = false`, nil); err != nil {
		t.Fatal(err)
	}
	if err := ClickFree(ctx, "#b"); err != nil {
		t.Fatal(err)
	}
	var title string
	if err := Eval(ctx, `document.title`, &title); err != nil {
		t.Fatal(err)
	}
	if title != "clicked" {
		t.Errorf("ClickFree: the button's click did not run (title %q)", title)
	}
}
