package arlweb

// Browser test of the table page for a player whose keyboard and script
// are not US English (docs/arlington-page.md, "Keyboards, languages and
// names").

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
	"cardtable/internal/web/webtest"
)

// TestBrowserArlingtonChatScripts: a player writes "3 of us?" into the
// chat with an input method and ends the word with Enter as Safari sends
// it (the composition over, then a keydown saying only keyCode 229): no
// line goes. They add " now" with a keyboard that says 229 for every key
// and starts no composition (Android's): its Enter sends the line whole.
func TestBrowserArlingtonChatScripts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.open(e.srv.URL, id)
	p.join("Ann")
	enter229 := webtest.Press(webtest.LayoutKey{Key: "Enter", Code: "Enter", VK: 229})
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("chat-text").focus()`),
		chatComposition("compositionstart"), webtest.InsertText("3 of us?"), chatComposition("compositionend"),
		enter229,
		webtest.InsertText(" now"), enter229)
	p.until(`[...document.querySelectorAll(` + q(selChat) + `)].some((li) => li.textContent.includes("now"))`)
	lines := eval[[]string](p, `[...document.querySelectorAll(`+q(selChat)+`)].map((li) => li.textContent)`)
	if len(lines) != 1 || lines[0] != "Ann: 3 of us? now" {
		t.Errorf("the chat shows %q; want one line, %q: the Enter that ended the input method's word sent the line half written", lines, "Ann: 3 of us? now")
	}
}

// TestLongBrowserArlingtonChatScripts: a player named in Hebrew presses
// C on a Russian layout (с, on the key of C): the chat's field takes the
// focus, the с not typed into it. They write "3 of us?" with an input
// method and end the word with Enter as Safari sends it (keyCode 229,
// the composition over): no line goes. A plain Enter sends it; in the
// chat the name stays at the line's start and the words' 3 after it
// (without isolation the 3 is drawn left of the right-to-left name).
func TestLongBrowserArlingtonChatScripts(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	const name = "אבי"
	e := newEnv(t, Limits{})
	id := e.client().create("", "random")
	p := seatTabIn(t, startBrowser(t), name)
	p.open(e.srv.URL, id)
	p.join(name)
	eval[bool](p, `(() => { document.activeElement.blur(); return true; })()`)
	p.do(webtest.Press(webtest.LayoutKey{Key: "с", Code: "KeyC", VK: 67}))
	p.until(`document.activeElement && document.activeElement.id === "chat-text"`)
	if v := eval[string](p, `document.getElementById("chat-text").value`); v != "" {
		t.Errorf("C on a Russian layout typed %q into the chat's field; want it only to open the chat", v)
	}

	p.do(chatComposition("compositionstart"), webtest.InsertText("3 of us?"), chatComposition("compositionend"),
		webtest.Press(webtest.LayoutKey{Key: "Enter", Code: "Enter", VK: 229}),
		webtest.InsertText(" now"),
		chromedp.KeyEvent("\r"))
	p.until(`[...document.querySelectorAll(` + q(selChat) + `)].some((li) => li.textContent.includes("now"))`)
	lines := eval[[]string](p, `[...document.querySelectorAll(`+q(selChat)+`)].map((li) => li.textContent)`)
	if len(lines) != 1 || lines[0] != name+": 3 of us? now" {
		t.Errorf("the chat shows %q; want one line, %q: the Enter that ended the input method's word sent the line half written", lines, name+": 3 of us? now")
	}

	type place struct{ Name, Colon, Three float64 }
	got := eval[place](p, `(() => {
	  const li = document.querySelector(`+q(selChat)+`);
	  const at = (s) => {
	    const w = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
	    for (let n = w.nextNode(); n; n = w.nextNode()) {
	      const i = n.data.indexOf(s);
	      if (i < 0) continue;
	      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + s.length);
	      return r.getBoundingClientRect();
	    }
	    return null;
	  };
	  return { name: at(`+q(name)+`).left, colon: at(":").left, three: at("3").left };
	})()`)
	if !(got.Name < got.Colon && got.Colon < got.Three) {
		t.Errorf("the chat line reads out of order: the name at x=%.0f, the colon at %.0f, the 3 at %.0f; want them left to right", got.Name, got.Colon, got.Three)
	}
}

// TestBrowserArlingtonGamesDate: אבי finishes a game against a bot and
// reads their games page in a browser set to Egyptian Arabic: the game's
// date is the English page's (Latin digits, the month a word), not
// toLocaleString's Arabic digits and right-to-left marks in an English
// line.
func TestBrowserArlingtonGamesDate(t *testing.T) {
	t.Parallel()
	const name = "אבי"
	e := newEnv(t, Limits{Burst: 10000})
	c := e.client()
	var tb created
	if code := c.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1}, &tb); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	c.join(tb.ID, name)
	w := c.dial(tb.ID, -1)
	for m := w.started(); m.View.ToMove >= 0; {
		if m.View.ToMove == m.Seat && len(m.Legal) > 0 {
			w.send(map[string]any{"type": "action", "action": m.Legal[0]})
		}
		n := m.View.EventCount
		m = w.waitFor(func(x srvMsg) bool { return isView(x) && x.View.EventCount > n })
	}
	u, _ := url.Parse(e.srv.URL)
	cookies := c.hc.Jar.Cookies(u)
	p := newTab(t, startBrowser(t), 390, 844)
	p.do(webtest.Locale("ar_EG"), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, k := range cookies {
			if _, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: k.Name, Value: k.Value, URL: e.srv.URL, HTTPOnly: new(true)}); err != nil {
				return err
			}
		}
		return nil
	}), chromedp.Navigate(e.srv.URL+"/arlington/games"))
	p.wait(`document.querySelector("#games li.game .g-head")`, "the game listed")
	var head string
	p.eval(`document.querySelector("#games li.game .g-head").textContent`, &head)
	if !regexp.MustCompile(`· [A-Z][a-z]{2} [0-9]{1,2}, [0-9]{4}, [0-9]{1,2}:[0-9]{2} [AP]M$`).MatchString(head) {
		t.Errorf("the game's line reads %q under ar_EG: want its date in the page's English, Latin digits", head)
	}
	// Each name isolated from the score after it: "אבי (you) 1" must not
	// be drawn with a right-to-left name taking what follows along.
	var got []string
	p.eval(`[...document.querySelectorAll("#games li.game .g-scores bdi")].map((b) => b.textContent)`, &got)
	if len(got) != 2 || got[0] != name {
		t.Errorf("the game's scores isolate the names %q; want each of the 2 names in a <bdi>, %s's first", got, name)
	}
}

// TestBrowserArlingtonLobbyLongName: a table whose player's name is 24
// letters with no space (the longest the server takes) is listed in the
// lobby on a 360 px screen without the page scrolling sideways.
func TestBrowserArlingtonLobbyLongName(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("W", table.MaxNameRunes)
	e := newEnv(t, Limits{})
	c := e.client()
	c.join(c.create("", "random"), name)
	p := newTab(t, startBrowser(t), 360, 740)
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
	p.wait(`[...document.querySelectorAll(".tables .t-main")].some((s) => s.textContent.includes(`+q(name)+`)) && document.readyState === "complete"`, "the table listed")
	var w []float64
	p.eval(`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`, &w)
	if w[0] > w[1] {
		t.Errorf("at 360 px the lobby is %.0f px wide, listing %s's table: it scrolls sideways", w[0], name)
	}
}

// TestLongBrowserArlingtonKeysPunctuation: on Colemak (and Workman) the
// key where US English has P types ";": pressed when Ann may pass, it
// does not pass. Russian C (с, a Cyrillic letter on the key of C) after
// it opens the chat, in order, so the ; was handled first.
func TestLongBrowserArlingtonKeysPunctuation(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{Burst: 10000})
	_, _, p := openTable(t, e, "Ann", longGame, "", "random", "random", "random")
	p.join("Ann")
	// Ann plays the first action offered until she may pass.
	p.until(`(() => {
	  if (document.querySelector('#actions button[data-action="pass"]:not(:disabled)')) return true;
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (first && window.__clickedAt !== window.__ws.count) { window.__clickedAt = window.__ws.count; first.click(); }
	  return false;
	})()`)
	n := p.events()
	eval[bool](p, `(() => { document.activeElement.blur(); return true; })()`)
	p.do(webtest.Press(webtest.LayoutKey{Key: ";", Code: "KeyP", VK: 186}),
		webtest.Press(webtest.LayoutKey{Key: "с", Code: "KeyC", VK: 67}))
	p.until(`document.activeElement && document.activeElement.id === "chat-text"`)
	if got := p.events(); got != n || p.count(`#actions button[data-action="pass"]:not(:disabled)`) != 1 {
		t.Errorf("Colemak's ; (where US English has P) passed: events %d -> %d", n, got)
	}
}

// chatComposition fires an input method's composition event of typ at
// the chat's field, as a browser does around a word being composed.
func chatComposition(typ string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`document.getElementById("chat-text").dispatchEvent(new CompositionEvent(` + q(typ) + `, {bubbles: true}))`)
}
