package spiderweb

import (
	"encoding/json"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserMenuChoiceKeepsFocus: a menu's item chosen from the keyboard
// leaves the focus on the menu's button, not on <body> (the item, hidden
// with its menu, lost it, and the next Tab began at the page's top): a
// dialog it opens gives the focus back there when closed with Escape, and
// a choice with no dialog (Restart this deal, a setting) keeps it there.
func TestBrowserMenuChoiceKeepsFocus(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	focused := func() string {
		var s string
		p.eval(`document.activeElement.id || document.activeElement.dataset.act || document.activeElement.dataset.set || document.activeElement.tagName`, &s)
		return s
	}
	choose := func(menu, item string) {
		t.Helper()
		p.eval(`document.getElementById(`+jsq(menu)+`).focus(), 1`, nil)
		p.keys(kb.Enter)
		p.waitJS(`document.activeElement.getAttribute("role") === "menuitem"`, "the menu open, its first item focused")
		p.eval(`document.querySelector(`+jsq(item)+`).focus(), 1`, nil)
		p.keys(kb.Enter)
	}
	for _, c := range []struct{ menu, item, dialog string }{
		{"btn-game-menu", `[data-act="stats"]`, "#dlg-stats"},
		{"btn-game-menu", `[data-act="restart"]`, ""},
		{"btn-cards-menu", `[data-set="sound"]`, ""},
	} {
		choose(c.menu, c.item)
		if c.dialog != "" {
			p.waitJS(`document.querySelector(`+jsq(c.dialog)+`).open`, c.dialog+" open")
			p.do(chromedp.KeyEvent(kb.Escape))
			p.waitJS(`!document.querySelector(`+jsq(c.dialog)+`).open`, c.dialog+" closed")
		}
		p.idle()
		if f := focused(); f != c.menu {
			t.Errorf("after %s chosen from the keyboard (and its dialog closed) the focus is on %s, want %s", c.item, f, c.menu)
		}
	}
}

// jsq is s as a JavaScript string.
func jsq(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
