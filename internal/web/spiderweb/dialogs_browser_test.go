package spiderweb

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// TestLongBrowserNewGameRefused: a deal number the server refuses (0, past
// 2^64-1) is said in the New game dialog itself, which stays open with
// what was typed; before, the message went to the message box behind the
// dialog's backdrop, dimmed and out of reach. A good number then starts
// the game and the message is gone the next time the dialog opens.
func TestLongBrowserNewGameRefused(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	before := p.gameID()
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	for _, deal := range []string{"0", "18446744073709551616"} {
		p.eval(`document.querySelector("#new-deal").value = "", 1`, nil)
		p.do(chromedp.SendKeys(chromedp.CSS("#new-deal"), deal), chromedp.Click(chromedp.CSS("#new-start")))
		p.waitJS(`!document.querySelector("#new-error").hidden`, "the refusal in the dialog for "+deal)
		if msg := p.text("#new-error"); !strings.Contains(msg, deal) || !strings.Contains(msg, "want a number") {
			t.Errorf("deal %s: the dialog says %q, want the server's reason", deal, msg)
		}
		var open bool
		p.eval(`document.querySelector("#dlg-new").open`, &open)
		if !open || p.gameID() != before {
			t.Fatalf("deal %s: dialog open %v, game %s (was %s); want the dialog open on the same game", deal, open, p.gameID(), before)
		}
	}
	p.shot("new-game-refused")
	p.eval(`document.querySelector("#new-deal").value = "", 1`, nil)
	p.do(chromedp.SendKeys(chromedp.CSS("#new-deal"), "617"), chromedp.Click(chromedp.CSS("#new-start")))
	p.waitJS(`!document.querySelector("#dlg-new").open`, "the dialog to close on a good number")
	if p.serverView().Deal != 617 {
		t.Fatalf("the page plays deal %d, want 617", p.serverView().Deal)
	}
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog again")
	var hidden bool
	p.eval(`document.querySelector("#new-error").hidden`, &hidden)
	if !hidden {
		t.Errorf("the dialog opens again with the old refusal %q", p.text("#new-error"))
	}
}

// TestLongBrowserMessageOverDialog: a message while a dialog is open (here the
// saved games list, opening a save deleted meanwhile) shows above the
// dialog's backdrop and its × closes it; before, the box stayed behind
// the backdrop, dimmed, and the × could not be reached.
func TestLongBrowserMessageOverDialog(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.saveAs("gone")
	// The dialog refreshes its list as it opens: the list to click in is
	// the refreshed one, drawn before the save goes (the list the dialog
	// showed last time is still there meanwhile, and the refresh replaces
	// its buttons).
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.savesListed("gone")
	var code int
	p.eval(`fetch("/api/saves/gone", {method: "DELETE"}).then((r) => r.status)`, &code)
	if code != 200 {
		t.Fatalf("deleting the save: %d", code)
	}
	// The error's box would hide itself after 7 s: its timer is held from
	// here, so however slowly the machine runs, the checks and the click
	// below find it shown and the × is what the click hits.
	p.eval(`(() => { window.realSetTimeout = setTimeout;
	  window.setTimeout = (f, ms, ...a) => ms === 7000 ? 0 : window.realSetTimeout(f, ms, ...a); return 1; })()`, nil)
	defer p.eval(`(window.setTimeout = window.realSetTimeout, 1)`, nil)
	p.clickSel(`#saves-list[aria-busy="false"] button[aria-label="Open gone"]`)
	p.waitJS(`!document.querySelector("#toast").hidden && document.querySelector("#toast").classList.contains("error")`, "the error")
	if msg := p.text("#toast .msg"); !strings.Contains(msg, "not found") {
		t.Errorf("the message says %q, want the save not found", msg)
	}
	var shown bool
	p.eval(`!document.querySelector("#toast").hidden`, &shown)
	if !shown {
		t.Fatal("the message hid itself before the test could click its ×")
	}
	// On top: the point in the middle of its × hits the ×, not the backdrop.
	var onTop bool
	p.eval(`(() => { const r = document.querySelector("#toast .close").getBoundingClientRect();
	  const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
	  return !!e && !!e.closest("#toast .close"); })()`, &onTop)
	if !onTop {
		p.shot("message-under-dialog")
		t.Fatal("the message box is behind the open dialog's backdrop")
	}
	p.shot("message-over-dialog")
	p.click(p.elementPoint("#toast .close"))
	p.waitJS(`document.querySelector("#toast").hidden`, "the × to close the message")
	var open bool
	p.eval(`document.querySelector("#dlg-saves").open`, &open)
	if !open {
		t.Error("closing the message closed the dialog")
	}
}

// TestLongBrowserToggleMessages: each Cards menu switch says its new state in
// words; turning "Hide deal and discard" off said "Deal and discard areas
// hidden shown."
func TestLongBrowserToggleMessages(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	for _, c := range []struct{ set, want string }{
		{"hideAreas", "Deal and discard areas hidden."},
		{"hideAreas", "Deal and discard areas shown."},
		{"verbose", "Verbose messages off."},
		{"verbose", "Verbose messages on."},
		{"fourColor", "Four-colour suits on."},
		{"fourColor", "Four-colour suits off."},
	} {
		p.menu("#btn-cards-menu", fmt.Sprintf(`#menu-cards [data-set=%q]`, c.set))
		p.waitJS(fmt.Sprintf(`document.querySelector("#toast .msg").textContent === %q`, c.want), "the message "+c.want)
	}
}

// TestLongBrowserSavesListGame: the saved games list names a save's game as
// the status bar does ("Arachnid · 4 suits · #617"); it said "arachnid
// 4♠ #617", which reads as a four of spades.
func TestLongBrowserSavesListGame(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.newGameByNumber(617)
	p.saveAs("monday")
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.waitJS(`!!document.querySelector('#saves-list td[data-label="Game"]')`, "the list")
	if got, want := p.text(`#saves-list td[data-label="Game"]`), "Arachnid · 4 suits · #617"; got != want {
		t.Errorf("the list names the game %q, want %q", got, want)
	}
}

// TestLongBrowserPhoneMessageWidth: on a 390x844 phone a long message takes
// the screen's width (92%), not half of it: the box was placed at the
// middle and shrank to the half it had left, a column of short lines.
func TestLongBrowserPhoneMessageWidth(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 390, 844)
	p.keys("h") // a hint: a sentence longer than the screen is wide
	p.waitJS(`!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.length > 40`, "the hint")
	var w float64
	p.eval(`document.querySelector("#toast").getBoundingClientRect().width`, &w)
	if w < 0.85*390 {
		p.shot("phone-message-narrow")
		t.Errorf("the message box is %.0f px wide on a 390 px screen, want about 92%% of it", w)
	}
	p.noHorizontalScroll()
}

// TestLongBrowserDamagedSave: a save damaged on the server (its deal
// overwritten behind the server's back) is listed in the Saved games
// dialog marked damaged, with Delete and no Open or Analyse, next to the
// sound save; Delete removes it once the player confirms.
func TestLongBrowserDamagedSave(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	path := filepath.Join(t.TempDir(), "cardtable.db")
	p := openPage(t, startBrowser(t), pageServerAt(t, path), 1280, 800)
	p.saveAs("sound")
	p.saveAs("broken")
	webtest.Damage(t, path, `UPDATE saves SET deal = 'x1' WHERE name = 'broken'`)
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.savesListed("sound")
	p.waitJS(`!!document.querySelector('#saves-list button[aria-label="Delete broken"]')`, "the damaged save listed")
	var row struct {
		Name    string   `json:"name"`
		Buttons []string `json:"buttons"`
	}
	p.eval(`(() => { const tr = document.querySelector('#saves-list button[aria-label="Delete broken"]').closest("tr");
	  return {name: tr.cells[0].textContent, buttons: [...tr.querySelectorAll("button")].map((b) => b.textContent)}; })()`, &row)
	if row.Name != "broken (damaged)" || !slices.Equal(row.Buttons, []string{"Delete"}) {
		p.shot("damaged-save")
		t.Fatalf("the damaged save's row: %+v, want it marked damaged with Delete alone", row)
	}
	p.clickSel(`#saves-list button[aria-label="Delete broken"]`)
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the question before deleting")
	p.clickSel("#confirm-yes")
	p.waitJS(`document.querySelector("#saves-list").getAttribute("aria-busy") === "false" &&
	  !document.querySelector('#saves-list button[aria-label="Delete broken"]') &&
	  !!document.querySelector('#saves-list button[aria-label="Open sound"]')`, "the damaged save deleted, the sound one kept")
}

// TestBrowserSaveOverOldDecomposedName: a save stored before names were
// composed (NFC), "café" as e and a combining accent, is the save the
// player means when typing "café": the same game saves over it by its
// own name, with no twin that looks the same, and another game asks
// before replacing it.
func TestBrowserSaveOverOldDecomposedName(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "cardtable.db")
	p := openPage(t, startBrowser(t), pageServerAt(t, path), 1280, 800)
	p.saveAs("old")
	const old = "cafe\u0301"
	webtest.Damage(t, path, `UPDATE saves SET name = ? WHERE name = 'old'`, old)
	names := func() []string {
		list := getJSON[struct {
			Saves []saveSummary `json:"saves"`
		}](p, p.srv.URL+"/api/saves")
		var n []string
		for _, s := range list.Saves {
			n = append(n, s.Name)
		}
		return n
	}
	typeCafe := func() {
		p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
		p.savesListed(old)
		p.eval(`document.querySelector("#toast .msg").textContent = ""`, nil)
		p.eval(`document.querySelector("#save-name").value = "caf\u00e9", 1`, nil)
		p.clickSel(`#form-save button[type=submit]`)
	}

	typeCafe()
	p.waitJS(`document.querySelector("#toast .msg").textContent.includes("Saved as")`, "the save said")
	var asked bool
	p.eval(`document.querySelector("#dlg-confirm").open`, &asked)
	if got := names(); asked || !slices.Equal(got, []string{old}) {
		t.Fatalf("the same game saved as composed café: asked %v, saves %+q; want no question and the old save alone", asked, got)
	}
	p.clickSel(`#dlg-saves [data-close]`)
	p.waitJS(`!document.querySelector("#dlg-saves").open`, "the saved games dialog to close")

	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	p.eval(`document.querySelector("#new-deal").value = "", 1`, nil)
	p.do(chromedp.SendKeys(chromedp.CSS("#new-deal"), "5"), chromedp.Click(chromedp.CSS("#new-start")))
	p.waitJS(`!document.querySelector("#dlg-new").open`, "the dialog to close on 5")
	typeCafe()
	p.answer("no", "the question before replacing another game's save")
	if got := p.text("#dlg-confirm-title"); got != "Replace “"+old+"”?" {
		t.Errorf("the question is %q, want it to name the old save", got)
	}
	if got := names(); !slices.Equal(got, []string{old}) {
		t.Errorf("after Cancel the saves are %+q, want the old save alone", got)
	}
}
