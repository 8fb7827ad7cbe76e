package arlweb

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardtable/internal/web/webtest"
)

// startBrowser is a headless Chromium with a fresh profile
// (webtest.StartBrowser: a missing Chromium fails under
// CARDTABLE_REQUIRE_BROWSER=1 or CI=true, and skips loudly elsewhere).
// The test is quick (a few seconds), so it runs in the short suite.
// The tab counts as focused whatever other tabs the browser has open
// (focusEmulated): the browser tests run side by side.
func startBrowser(tb testing.TB) context.Context {
	tb.Helper()
	ctx := webtest.StartBrowser(tb)
	if err := webtest.Do(ctx, "emulating focus", focusEmulated()); err != nil {
		tb.Fatal(err)
	}
	return ctx
}

// openTab is webtest.OpenTab with the tab counted as focused
// (focusEmulated).
func openTab(tb testing.TB, bctx context.Context, w, h int64) context.Context {
	tb.Helper()
	ctx := webtest.OpenTab(tb, bctx, w, h)
	if err := webtest.Do(ctx, "emulating focus", focusEmulated()); err != nil {
		tb.Fatal(err)
	}
	return ctx
}

// TestBrowserArlingtonSeatAndPlay: a person opens a table's link against a
// bot, takes the seat through the page, sees the hand, asks for a hint and
// plays the action it marks, which the hand's log then shows.
func TestBrowserArlingtonSeatAndPlay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	startCtx := startBrowser(t)
	ctx, cancel := context.WithTimeout(startCtx, 30*time.Second)
	defer cancel()
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844), reducedMotion(),
		chromedp.Navigate(e.srv.URL+"/arlington/t/"+id),
		untilJS(`!document.getElementById("join").hidden`),
		chromedp.SendKeys(chromedp.CSS("#name"), "Ann"),
		chromedp.Click(chromedp.CSS("#join-form button")),
		untilJS(`document.querySelector("#hand svg.card") && document.querySelector("#actions button.hint-button")`),
		// The hint marks one of the offered actions, and playing it works.
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#actions button.hint-button").click()`),
		untilJS(`document.querySelector("#actions button.hinted[data-action]") && document.getElementById("preview").textContent.startsWith("Hint (hard bot): ")`),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#actions button.hinted").click()`),
		untilJS(`[...document.querySelectorAll("#log li")].some((li) => li.textContent.startsWith("Ann"))`),
	)
	if err != nil {
		dctx, dcancel := context.WithTimeout(startCtx, 5*time.Second)
		defer dcancel()
		diag, _ := chromedp.Run(dctx, chromedp.Evaluate[string](`document.getElementById("conn").textContent + " | " + document.getElementById("status").textContent + " | " + document.getElementById("error").textContent + " | join hidden " + document.getElementById("join").hidden + " | hand " + document.querySelectorAll("#hand svg").length + " | actions " + document.querySelectorAll("#actions button").length + " | log " + document.getElementById("log").textContent.slice(0, 300)`))
		t.Fatalf("%v; page: %s", err, diag)
	}
	// The arrow keys reach the hand from <body>, where the focus is when
	// the page has just opened or been reloaded: → its first card, ← its
	// last (they did nothing until the player tabbed past the bar's links).
	for _, k := range []struct{ name, key, want string }{{"ArrowRight", kb.ArrowRight, "first"}, {"ArrowLeft", kb.ArrowLeft, "last"}} {
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent(k.key)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		  const cards = [...document.querySelectorAll("#hand button")], f = document.activeElement;
		  return cards.length < 2 ? "a hand of " + cards.length : f === cards[0] ? "first" : f === cards[cards.length - 1] ? "last" : f.tagName + " " + f.textContent.slice(0, 30); })()`))
		if err != nil || got != k.want {
			t.Errorf("%s pressed with the focus on nothing: the focus went to %s (%v), want the hand's %s card", k.name, got, err, k.want)
		}
	}
	// C goes to the chat's field and Escape there back to the hand, the
	// words typed kept (the player tabbed back through the side panel and
	// every action to reach their cards).
	err = chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("#hand button")[1].focus()`),
		// As a keyboard sends it: chromedp.KeyEvent's separate char event
		// would type the "c" into the field the keydown focused.
		webtest.Press(webtest.LayoutKey{Key: "c", Code: "KeyC", VK: 67}),
		untilJS(`document.activeElement.id === "chat-text"`),
		chromedp.KeyEvent("hi"),
		chromedp.KeyEvent(kb.Escape),
	)
	if err != nil {
		t.Fatal(err)
	}
	back, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const f = document.activeElement;
	  const i = [...document.querySelectorAll("#hand button")].indexOf(f);
	  return (i >= 0 ? "the hand's card " + i : f.id || f.tagName) + ", the field holding " + JSON.stringify(document.getElementById("chat-text").value); })()`))
	// Back to the card C was pressed on, not merely into the hand.
	if want := `the hand's card 1, the field holding "hi"`; err != nil || back != want {
		t.Errorf("Escape in the chat's field: the focus on %s (%v), want %s", back, err, want)
	}
	// Taking the seat sent a new hello while the spectator's updates were
	// still arriving: the overlap is no gap, so the page never dropped its
	// connection to start again.
	resyncs, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.resyncs || "0"`))
	if err != nil || resyncs != "0" {
		t.Errorf("the page restarted its connection %s times (%v)", resyncs, err)
	}
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#status")))
	if err != nil {
		t.Fatal(err)
	}
	// (The wait above saw Ann's play in the hand's log.)
	if !strings.Contains(status, "Hand 1") {
		t.Errorf("status %q", status)
	}
	webtest.Screenshot(t, ctx, "arlington-table-390")
}
