package spiderweb

// Browser test of the keys on keyboards other than US English
// (docs/page.md, "Keyboards, languages and names"): each key is sent as
// Chromium receives it from that layout, its key (what it types) and its
// code (where it sits) as the layout gives them.

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// layoutKey is a key as another layout reports it: key, code, keyCode,
// modifiers.
type layoutKey = webtest.LayoutKey

// press sends k (webtest.Press).
func (p *browserPage) press(k layoutKey) {
	p.t.Helper()
	p.step(fmt.Sprintf("pressing %q (%s)", k.Key, k.Code), webtest.Press(k))
}

// TestBrowserSpiderKeysLayouts: on AZERTY the digit row's keys choose
// their piles unshifted (& é and à type no digit there) as well as with
// Shift; on a Russian layout D deals and Ctrl+Z undoes from the keys
// where those letters sit; QWERTZ's Ctrl+Z, on the key US English calls
// Y, undoes (the letter typed counts, not the place); and AltGr with the
// key of U (Ctrl+Alt to Windows, the AltGraph modifier to Linux, typing
// € on Polish) does not undo.
func TestBrowserSpiderKeysLayouts(t *testing.T) {
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	p.eval(`document.querySelector("#tableau").focus(), true`, nil)
	cursorAt := func(k int, what string) {
		t.Helper()
		p.waitJS(fmt.Sprintf(`document.querySelector("#tableau").getAttribute("aria-activedescendant") === "pile-%d"`, k), what)
	}
	p.keys("5")
	cursorAt(4, "the cursor on pile 5")
	for _, c := range []struct {
		k    layoutKey
		pile int
	}{
		{layoutKey{Key: "&", Code: "Digit1", VK: 49}, 0},
		{layoutKey{Key: "é", Code: "Digit2", VK: 50}, 1},
		{layoutKey{Key: "à", Code: "Digit0", VK: 48}, 9},
		{layoutKey{Key: "7", Code: "Digit7", VK: 55, Mods: chromedp.ModifierShift}, 6},
	} {
		p.press(c.k)
		cursorAt(c.pile, fmt.Sprintf("AZERTY's %q to choose pile %d", c.k.Key, c.pile+1))
	}

	const cards = `document.querySelectorAll("#tableau .card").length`
	var before int
	p.eval(cards, &before)
	settled := func(n int, what string) {
		t.Helper()
		p.waitJS(fmt.Sprintf(`%s === %d && document.body.dataset.busy === "0"`, cards, n), what)
	}
	p.press(layoutKey{Key: "в", Code: "KeyD", VK: 68})
	settled(before+10, "Russian D (в) to deal")
	p.press(layoutKey{Key: "я", Code: "KeyZ", VK: 90, Mods: chromedp.ModifierCtrl})
	settled(before, "Russian Ctrl+Z (я) to undo the deal")
	p.press(layoutKey{Key: "в", Code: "KeyD", VK: 68})
	settled(before+10, "Russian D to deal again")
	p.press(layoutKey{Key: "z", Code: "KeyY", VK: 90, Mods: chromedp.ModifierCtrl})
	settled(before, "QWERTZ Ctrl+Z to undo, not redo")
	p.keys("d")
	settled(before+10, "D to deal")

	// AltGr and the key of U, typing € on Polish: no undo. The key after
	// it (4, choosing pile 4) is handled after it, in order: had it
	// undone, the page would be busy or show ten cards fewer.
	p.press(layoutKey{Key: "€", Code: "KeyU", VK: 85, Mods: chromedp.ModifierCtrl | chromedp.ModifierAlt})
	p.keys("4")
	cursorAt(3, "4 to choose pile 4")
	settled(before+10, "the page, AltGr+U typing €, not to undo")
	// Linux and macOS report AltGr as a modifier of its own, which
	// Chromium's protocol cannot send: the page's keydown handler gets
	// it from an event made in the page.
	p.eval(`document.querySelector("#tableau").dispatchEvent(new KeyboardEvent("keydown", {key: "€", Code: "KeyU", bubbles: true, cancelable: true, modifierAltGraph: true})), true`, nil)
	p.keys("3")
	cursorAt(2, "3 to choose pile 3")
	var n int
	var busy string
	p.eval(cards, &n)
	p.eval(`document.body.dataset.busy`, &busy)
	if n != before+10 || busy != "0" {
		t.Errorf("AltGr with the key of U (typing € on Polish) undid (%d cards, want %d; busy %q): it is typing, not U", n, before+10, busy)
	}
}

// TestBrowserSpiderSavedDateLocale: under an Egyptian Arabic locale the
// saved games list's date is the English page's: Latin digits, the month
// a word, no right-to-left marks. toLocaleString wrote it in Arabic
// digits with right-to-left marks, in an English table.
func TestBrowserSpiderSavedDateLocale(t *testing.T) {
	savedDateLocale(t, "ar_EG", regexp.MustCompile(`^[A-Z][a-z]{2} [0-9]{1,2}, [0-9]{4}, [0-9]{1,2}:[0-9]{2} [AP]M$`))
}

// TestLongBrowserSpiderSavedDateLocale: under a German locale the date is
// written the same way, but for the clock, the reader's: 24 hours.
func TestLongBrowserSpiderSavedDateLocale(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	savedDateLocale(t, "de_DE", regexp.MustCompile(`^[A-Z][a-z]{2} [0-9]{1,2}, [0-9]{4}, [0-9]{2}:[0-9]{2}$`))
}

// savedDateLocale opens the page under locale, saves its game and checks
// the date the list shows against want, and the page's language.
func savedDateLocale(t *testing.T, locale string, want *regexp.Regexp) {
	p := &browserPage{t: t, ctx: webtest.OpenTab(t, startBrowser(t), 1280, 800), srv: pageServer(t)}
	p.watchErrors()
	p.do(webtest.Locale(locale))
	p.load()
	var lang string
	p.eval(`document.documentElement.lang`, &lang)
	if lang != "en" {
		t.Errorf("the page's language is %q, want en", lang)
	}
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.waitJS(`document.querySelector("#dlg-saves").open`, "the saved games dialog")
	p.do(chromedp.SendKeys(chromedp.CSS("#save-name"), "partie"))
	p.clickSel(`#form-save button[type=submit]`)
	p.waitJS(`document.querySelector("#saves-list td[data-label=Saved]")`, "the save listed")
	var got string
	p.eval(`document.querySelector("#saves-list td[data-label=Saved]").textContent`, &got)
	if !want.MatchString(got) {
		t.Errorf("under %s the save's date reads %q, want it to match %s", locale, got, want)
	}
}
