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

// layoutsPage is the Spider page with the focus on the tableau and the
// cursor on pile 5, and its checks.
type layoutsPage struct {
	*browserPage
	before int // the cards on the tableau after the first deal
}

const tableauCards = `document.querySelectorAll("#tableau .card").length`

func openLayoutsPage(t *testing.T) *layoutsPage {
	p := &layoutsPage{browserPage: openPage(t, startBrowser(t), pageServer(t), 1280, 800)}
	p.eval(`document.querySelector("#tableau").focus(), true`, nil)
	p.keys("5")
	p.cursorAt(4, "the cursor on pile 5")
	p.eval(tableauCards, &p.before)
	return p
}

// cursorAt waits for the cursor on pile k (0-based).
func (p *layoutsPage) cursorAt(k int, what string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`document.querySelector("#tableau").getAttribute("aria-activedescendant") === "pile-%d"`, k), what)
}

// settled waits for n cards on the tableau and the page idle.
func (p *layoutsPage) settled(n int, what string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`%s === %d && document.body.dataset.busy === "0"`, tableauCards, n), what)
}

// altGraph sends a keydown with the AltGraph modifier, as Linux and
// macOS report AltGr: Chromium's protocol cannot send that modifier, so
// the event is made in the page.
func (p *layoutsPage) altGraph(key, code string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`document.querySelector("#tableau").dispatchEvent(new KeyboardEvent("keydown", {key: %q, code: %q, bubbles: true, cancelable: true, modifierAltGraph: true})), true`, key, code), nil)
}

// nothingDone checks that the key just sent did nothing: the digit sent
// after it (choosing pile+1) is handled, in order, and then no dialog is
// open, the page is idle and the tableau holds cards cards.
func (p *layoutsPage) nothingDone(digit string, pile, cards int, what string) {
	p.t.Helper()
	p.keys(digit)
	p.waitJS(fmt.Sprintf(`document.querySelector("#tableau").getAttribute("aria-activedescendant") === "pile-%d" || document.querySelector("dialog[open]")`, pile), "the digit after "+what)
	var got struct {
		Dialog string
		Busy   string
		Cards  int
	}
	p.eval(fmt.Sprintf(`({dialog: (document.querySelector("dialog[open]") || {}).id || "", busy: document.body.dataset.busy, cards: %s})`, tableauCards), &got)
	if got.Dialog != "" || got.Busy != "0" || got.Cards != cards {
		p.t.Errorf("%s acted: dialog %q open, busy %q, %d cards (want none, \"0\", %d)", what, got.Dialog, got.Busy, got.Cards, cards)
	}
}

// TestBrowserSpiderKeysLayouts: AZERTY's & (the digit row's first key,
// unshifted) chooses pile 1; on a Russian layout the key of D (в) deals;
// "?" typed with AltGr (Brazilian ABNT's AltGr+W, the AltGraph modifier
// on Linux) opens the keys' help.
func TestBrowserSpiderKeysLayouts(t *testing.T) {
	t.Parallel()
	p := openLayoutsPage(t)
	p.press(layoutKey{Key: "&", Code: "Digit1", VK: 49})
	p.cursorAt(0, `AZERTY's "&" to choose pile 1`)
	p.press(layoutKey{Key: "в", Code: "KeyD", VK: 68})
	p.waitJS(fmt.Sprintf(`%s === %d`, tableauCards, p.before+10), "Russian D (в) to deal")
	p.altGraph("?", "KeyW")
	p.waitJS(`document.querySelector("#dlg-keys").open`, "AltGr+W typing ? to open the keys' help")
}

// TestLongBrowserSpiderKeysLayouts: the rest of AZERTY's digit row
// unshifted and shifted; Russian Ctrl+Z undoes from the key of Z;
// QWERTZ's Ctrl+Z, on the key US English calls Y, undoes (the letter
// typed counts, not the place); punctuation on a letter's place is no
// shortcut (Dvorak's Ctrl+; where US English has Z, Bépo's ' where it has
// N); and AltGr is typing: Windows' Ctrl+Alt+Z does not undo, nor
// Ukrainian AltGr+U (ґ, a Cyrillic letter on the key of U) with Linux's
// AltGraph modifier; Windows' AltGr+W typing ? opens the keys' help.
func TestLongBrowserSpiderKeysLayouts(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := openLayoutsPage(t)
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
		p.cursorAt(c.pile, fmt.Sprintf("AZERTY's %q to choose pile %d", c.k.Key, c.pile+1))
	}

	before := p.before
	p.press(layoutKey{Key: "в", Code: "KeyD", VK: 68})
	p.settled(before+10, "Russian D (в) to deal")
	p.press(layoutKey{Key: "я", Code: "KeyZ", VK: 90, Mods: chromedp.ModifierCtrl})
	p.settled(before, "Russian Ctrl+Z (я) to undo the deal")
	p.press(layoutKey{Key: "в", Code: "KeyD", VK: 68})
	p.settled(before+10, "Russian D to deal again")
	p.press(layoutKey{Key: "z", Code: "KeyY", VK: 90, Mods: chromedp.ModifierCtrl})
	p.settled(before, "QWERTZ Ctrl+Z to undo, not redo")
	p.keys("d")
	p.settled(before+10, "D to deal")

	p.press(layoutKey{Key: ";", Code: "KeyZ", VK: 186, Mods: chromedp.ModifierCtrl})
	p.nothingDone("4", 3, before+10, "Dvorak's Ctrl+; (where US English has Z)")
	p.press(layoutKey{Key: "'", Code: "KeyN", VK: 222})
	p.nothingDone("3", 2, before+10, "Bépo's ' (where US English has N)")
	p.press(layoutKey{Key: "z", Code: "KeyZ", VK: 90, Mods: chromedp.ModifierCtrl | chromedp.ModifierAlt})
	p.nothingDone("2", 1, before+10, "Windows' Ctrl+Alt+Z (AltGr+Z)")
	p.altGraph("ґ", "KeyU")
	p.nothingDone("1", 0, before+10, "Ukrainian AltGr+U typing ґ (Linux's AltGraph)")
	p.press(layoutKey{Key: "?", Code: "KeyW", VK: 87, Mods: chromedp.ModifierCtrl | chromedp.ModifierAlt})
	p.waitJS(`document.querySelector("#dlg-keys").open`, "Windows' AltGr+W typing ? to open the keys' help")
}

// TestBrowserSpiderSavedDateLocale: under an Egyptian Arabic locale the
// saved games list's date is the English page's: Latin digits, the month
// a word, no right-to-left marks. toLocaleString wrote it in Arabic
// digits with right-to-left marks, in an English table.
func TestBrowserSpiderSavedDateLocale(t *testing.T) {
	t.Parallel()
	savedDateLocale(t, "ar_EG", regexp.MustCompile(`^[A-Z][a-z]{2} [0-9]{1,2}, [0-9]{4}, [0-9]{1,2}:[0-9]{2} [AP]M$`))
}

// TestLongBrowserSpiderSavedDateLocale: under a German locale the date is
// written the same way, but for the clock, the reader's: 24 hours.
func TestLongBrowserSpiderSavedDateLocale(t *testing.T) {
	t.Parallel()
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
	// The game saved through the page's own client, as its Save button
	// does, then listed in the dialog.
	p.eval(`Promise.all([import("/shared/api.js"), import("/spider/state.js")]).then(([{api}, {S}]) => api.putSave("partie", S.id)).then(() => { window.__saved = true; }), true`, nil)
	p.waitJS(`window.__saved === true`, "the game saved")
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.waitJS(`document.querySelector("#saves-list td[data-label=Saved]")`, "the save listed")
	var got string
	p.eval(`document.querySelector("#saves-list td[data-label=Saved]").textContent`, &got)
	if !want.MatchString(got) {
		t.Errorf("under %s the save's date reads %q, want it to match %s", locale, got, want)
	}
}
