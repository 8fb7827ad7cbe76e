package spiderweb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// TestBrowserNewGameDealTyped: a deal number pasted with a space or a
// leading "#" ("#617 ", as a shared message often has it) starts that
// deal, and text that is no number is told so in the page's words, which
// go once the field is corrected (to "#617 " here). Before, the field's pattern refused
// "#617 " with the browser's "Please match the requested format", the
// page's own message never showed, and the player was not told why.
func TestBrowserNewGameDealTyped(t *testing.T) {
	t.Parallel()
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	typeDeal := func(deal string) {
		p.t.Helper()
		p.eval(`document.querySelector("#new-deal").value = "", 1`, nil)
		p.do(chromedp.SendKeys(chromedp.CSS("#new-deal"), deal), chromedp.Click(chromedp.CSS("#new-start")))
	}
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	before := p.gameID()
	typeDeal("12abc")
	var msg string
	p.eval(`document.querySelector("#new-deal").validationMessage`, &msg)
	if !strings.Contains(msg, "is not a deal number") || !strings.Contains(msg, "617") {
		t.Errorf("the field says %q, want the page's words on deal numbers", msg)
	}
	var open bool
	p.eval(`document.querySelector("#dlg-new").open`, &open)
	if !open || p.gameID() != before {
		t.Fatalf("12abc: dialog open %v, game %s (was %s); want the dialog open on the same game", open, p.gameID(), before)
	}
	typeDeal("#617 ")
	p.waitJS(`!document.querySelector("#dlg-new").open`, "the dialog to close on #617 with a space")
	if d := p.serverView().Deal; d != 617 {
		t.Fatalf("the page plays deal %d, want 617", d)
	}
}

// TestLongBrowserSavesAskBeforeLoss: the Saved games dialog asks before it
// loses a save for good. Delete asks, and Cancel keeps the save; saving
// under the name of another game's save asks, and Cancel keeps that
// save; saving the same game again under its name (keeping its
// progress) replaces it without a question. Before, one click on Delete,
// or a name typed that was already taken, lost the save at once.
// TestBrowserSaveDeleteAsks is its quick part.
func TestLongBrowserSavesAskBeforeLoss(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p, saved := otherGameSaved(t)
	submit := func(name string) {
		p.t.Helper()
		p.eval(`document.querySelector("#save-name").value = ""`, nil)
		p.do(chromedp.SendKeys(chromedp.CSS("#save-name"), name))
		p.clickSel(`#form-save button[type=submit]`)
	}
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.savesListed("other")

	submit("other")
	p.answer("no", "the question before replacing another game's save")
	if got := p.text("#confirm-text"); !strings.Contains(got, "#617") {
		t.Errorf("the question says %q, want it to name the game it would replace", got)
	}
	if d := saved("other"); d != "617" {
		t.Fatalf("after Cancel the save \"other\" holds deal %q, want 617", d)
	}

	// The same game saved twice under its name: no question.
	submit("mine")
	p.savesListed("mine")
	p.waitJS(`document.querySelector("#toast .msg").textContent.includes("Saved as")`, "the first save said")
	p.eval(`document.querySelector("#toast .msg").textContent = ""`, nil)
	submit("mine")
	p.waitJS(`document.querySelector("#toast .msg").textContent.includes("Saved as")`, "the second save said, with no question")
	var asked bool
	p.eval(`document.querySelector("#dlg-confirm").open`, &asked)
	if asked {
		t.Fatal("saving the same game again under its name asked")
	}

	p.savesListed("other")
	p.clickSel(`#saves-list button[aria-label="Delete other"]`)
	p.answer("no", "the question before deleting")
	if d := saved("other"); d != "617" {
		t.Fatalf("after Cancel the save \"other\" holds deal %q, want it kept", d)
	}
	p.savesListed("other")
	p.clickSel(`#saves-list button[aria-label="Delete other"]`)
	p.answer("yes", "the question before deleting, again")
	p.waitJS(`document.querySelector("#saves-list").getAttribute("aria-busy") === "false" &&
	  !document.querySelector('#saves-list button[aria-label="Delete other"]')`, "the save deleted once confirmed")
}

// TestBrowserSaveDeleteAsks: Delete in the Saved games dialog asks first,
// and Cancel keeps the save (TestLongBrowserSavesAskBeforeLoss has the
// rest).
func TestBrowserSaveDeleteAsks(t *testing.T) {
	t.Parallel()
	p, saved := otherGameSaved(t)
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.savesListed("other")
	p.clickSel(`#saves-list button[aria-label="Delete other"]`)
	p.answer("no", "the question before deleting")
	if got := p.text("#dlg-confirm-title"); got != "Delete “other”?" {
		t.Errorf("the question is %q", got)
	}
	if d := saved("other"); d != "617" {
		t.Fatalf("after Cancel the save \"other\" holds deal %q, want it kept", d)
	}
}

// TestBrowserSaveSameDealAsks: saving over the save of a fresh deal of the
// same number, variant and suits (another game: its own progress) asks,
// and Cancel keeps that save. Before, the page took the same deal for
// the same game and replaced the save without a question.
func TestBrowserSaveSameDealAsks(t *testing.T) {
	t.Parallel()
	p, _ := otherGameSaved(t)
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	p.eval(`document.querySelector("#new-deal").value = "", 1`, nil)
	p.do(chromedp.SendKeys(chromedp.CSS("#new-deal"), "617"), chromedp.Click(chromedp.CSS("#new-start")))
	p.waitJS(`!document.querySelector("#dlg-new").open`, "the dialog to close on 617")
	if v := p.serverView(); v.Deal != 617 {
		t.Fatalf("the page plays deal %d, want 617", v.Deal)
	}
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.savesListed("other")
	p.eval(`document.querySelector("#save-name").value = ""`, nil)
	p.do(chromedp.SendKeys(chromedp.CSS("#save-name"), "other"))
	p.clickSel(`#form-save button[type=submit]`)
	p.answer("no", "the question before replacing another game's save of the same deal")
	if got := p.text("#confirm-text"); !strings.Contains(got, "#617") {
		t.Errorf("the question says %q, want it to name the game it would replace", got)
	}
	// A later save under a new name, once said, comes after anything the
	// page would have sent on Cancel; then the server tells whether each
	// save holds the page's very game: "other" must still hold the other.
	p.eval(`document.querySelector("#save-name").value = ""`, nil)
	p.do(chromedp.SendKeys(chromedp.CSS("#save-name"), "mine"))
	p.clickSel(`#form-save button[type=submit]`)
	p.waitJS(`document.querySelector("#toast .msg").textContent.includes("Saved as “mine”")`, "the save under a new name said")
	list := getJSON[struct {
		Saves []saveSummary `json:"saves"`
	}](p, p.srv.URL+"/api/saves?game="+p.gameID())
	same := map[string]bool{}
	for _, s := range list.Saves {
		same[s.Name] = s.SameGame
	}
	if len(same) != 2 || same["other"] || !same["mine"] {
		t.Errorf("after Cancel the saves are %+v, want \"other\" kept with the other game", list.Saves)
	}
}

// otherGameSaved opens the page on a new game and saves another game of
// the player's (deal 617), as another tab would, under the name "other".
// saved tells the deal a save of the player's holds ("" for none).
func otherGameSaved(t *testing.T) (p *browserPage, saved func(name string) string) {
	t.Helper()
	p = openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	var code int
	p.eval(`fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({deal: "617"})})
	  .then((r) => r.json()).then((g) => fetch("/api/saves/other", {method: "PUT", headers: {"Content-Type": "application/json"}, body: JSON.stringify({game: g.id})}))
	  .then((r) => r.status)`, &code)
	if code != 200 {
		t.Fatalf("saving another game: %d", code)
	}
	return p, func(name string) string {
		p.t.Helper()
		var deal string
		p.eval(fmt.Sprintf(`fetch("/api/saves").then((r) => r.json()).then((r) => ((r.saves || []).find((s) => s.name === %q) || {}).deal || "")`, name), &deal)
		return deal
	}
}

// answer waits for the confirm box and clicks its button ("yes" or "no").
func (p *browserPage) answer(button, what string) {
	p.t.Helper()
	p.waitJS(`document.querySelector("#dlg-confirm").open`, what)
	p.clickSel(`#dlg-confirm button[value=` + button + `]`)
	p.waitJS(`!document.querySelector("#dlg-confirm").open`, "the question to close")
}

// TestBrowserScoreMarkSaid: the undo that stops a Spider score is said in
// the message box when it happens, with why; before, only a small
// "(frozen)" after the score, easily missed. It is said once: a later
// undo, the score already stopped, says nothing of it.
// TestLongBrowserCheatSaid does the same for Arachnid's cheat detection.
func TestBrowserScoreMarkSaid(t *testing.T) {
	t.Parallel()
	p := markedPage(t, "?deal=617&variant=spider")
	p.pressSaid("d", "1")
	want := "Scoring stopped: in Spider an undo or a restart ends this game's scoring, and the score it records stays at 2."
	if got := p.pressSaid("u", "0"); got != want {
		t.Errorf("after the undo the message box says %q, want %q", got, want)
	}
	p.pressSaid("y", "1")
	if got := p.pressSaid("u", "0"); strings.Contains(got, "Scoring") {
		t.Errorf("a second undo, the score already stopped, says %q", got)
	}
}

// TestLongBrowserCheatSaid: the undo that halves an Arachnid score is said
// when it happens, with the level's rule: under new cards only, taking
// back a deal counts as taking back a card turned up, and the message
// said only the latter; with the tableau open, where no card is face
// down, only a deal counts, and the message says that.
func TestLongBrowserCheatSaid(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	for _, tc := range []struct{ level, rule string }{
		{"full", "full detection: any undo or restart counts"},
		{"newcards", "new cards only: taking back a move that turned a card up, or a deal, counts"},
	} {
		p := markedPage(t, "?deal=617&cheat="+tc.level)
		p.pressSaid("d", "1")
		want := "Cheating detected (" + tc.rule + "): this game's score is halved from now on."
		if got := p.pressSaid("u", "0"); got != want {
			t.Errorf("%s: after the undo of a deal the message box says %q, want %q", tc.level, got, want)
		}
	}
	p := markedPage(t, "?deal=617&cheat=newcards")
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	p.eval(`(() => { const f = document.querySelector("#form-new");
	  f.deal.value = "617"; f.open.checked = true; f.cheat.value = "newcards"; return 1; })()`, nil)
	p.clickSel("#new-start")
	p.waitJS(`!document.querySelector("#dlg-new").open && document.body.dataset.busy === "0"`, "the open game")
	if v := p.serverView(); !v.Open || v.Cheat != "newcards" || v.Variant != "arachnid" {
		t.Fatalf("the new game is %+v, want arachnid, open, new cards only", v)
	}
	p.pressSaid("d", "1")
	want := "Cheating detected (new cards only: with the tableau open, taking back a deal counts): this game's score is halved from now on."
	if got := p.pressSaid("u", "0"); got != want {
		t.Errorf("open tableau: after the undo of a deal the message box says %q, want %q", got, want)
	}
}

// markedPage opens the page on a deal link.
func markedPage(t *testing.T, link string) *browserPage {
	t.Helper()
	p := &browserPage{t: t, ctx: webtest.OpenTab(t, startBrowser(t), 1280, 800), srv: pageServer(t)}
	p.watchErrors()
	p.do(chromedp.Navigate(p.srv.URL + spiderPage + link))
	p.waitJS(`document.body.dataset.ready === "1" && document.body.dataset.busy === "0" && location.search === ""`, "the page on "+link)
	return p
}

// pressSaid presses key once the message box is emptied, waits until
// the game shows moves moves and the page is idle, and returns what the
// message box says: a message comes with the command's answer, before the
// page is idle.
func (p *browserPage) pressSaid(key, moves string) string {
	p.t.Helper()
	p.eval(`document.querySelector("#toast .msg").textContent = ""`, nil)
	p.keys(key)
	p.waitJS(`document.body.dataset.busy === "0" && document.querySelector("#st-moves").textContent === "`+moves+`"`, key+" played")
	return p.text("#toast .msg")
}

// TestBrowserLocateSigns: the Locate card dialog reads a card typed with
// the suit signs the page itself writes (Q♦, 10 ♠), as it reads QD and
// "queen of diamonds"; before, "Q♦" was "not a card".
func TestBrowserLocateSigns(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	p.menu("#btn-cards-menu", `#menu-cards [data-act="locate"]`)
	p.waitJS(`document.querySelector("#dlg-locate").open`, "the locate dialog")
	for _, tc := range []struct{ typed, name string }{{"Q♦", "queen of diamonds"}, {"10 ♠", "ten of spades"}} {
		p.eval(`document.querySelector("#locate-text").textContent = "", document.querySelector("#locate-card").value = ""`, nil)
		p.do(chromedp.SendKeys(chromedp.CSS("#locate-card"), tc.typed+"\n"))
		p.waitJS(`document.querySelector("#locate-text").textContent !== ""`, "the locate answer for "+tc.typed)
		if got := strings.ToLower(p.text("#locate-text")); !strings.Contains(got, tc.name) {
			t.Errorf("%s: the dialog says %q, want the %s located", tc.typed, got, tc.name)
		}
	}
}

// TestBrowserStockDoubleClick: a double-click on the stock deals one row,
// as the Amiga Arachnid's hand does on a double-click; before, each click
// dealt, so a double-click from habit dealt two rows, and taking the
// second back could halve the score or stop it.
func TestBrowserStockDoubleClick(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	stock := p.elementPoint("#stock")
	p.do(chromedp.MouseClickXY(stock.X, stock.Y), chromedp.MouseClickXY(stock.X, stock.Y, chromedp.ClickCount(2)))
	p.waitJS(`document.body.dataset.busy === "0" && document.querySelector("#st-moves").textContent !== "0"`, "the deal played")
	if v := p.serverView(); v.Stock != 40 || v.Moves != 1 {
		t.Fatalf("after a double-click on the stock: %d cards in the stock, %d moves; want one row dealt (40, 1)", v.Stock, v.Moves)
	}
}

// TestBrowserStockDoubleClickLate: the second press of a double-click is
// told by the mouse's own count of presses, not by the page's clock: seen
// more than the double-click time after the first (a busy page, or a
// player's own slower double-click setting), it still deals nothing. A
// single click afterwards deals, so the count of rows shows which dealt.
func TestBrowserStockDoubleClickLate(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	stock := p.elementPoint("#stock")
	// past waits until the double-click time has gone by on the page's
	// own clock since the last press: the time is the condition here.
	past := func() {
		p.eval(`window.__t0 = performance.now(), 1`, nil)
		p.waitJS(`performance.now() - window.__t0 > 600`, "the double-click time gone by")
	}
	p.do(chromedp.MouseClickXY(stock.X, stock.Y))
	p.waitJS(`document.body.dataset.busy === "0" && document.querySelector("#st-moves").textContent === "1"`, "the first deal played")
	past()
	p.do(chromedp.MouseClickXY(stock.X, stock.Y, chromedp.ClickCount(2)))
	past()
	p.do(chromedp.MouseClickXY(stock.X, stock.Y))
	p.waitJS(`document.body.dataset.busy === "0" && document.querySelector("#st-moves").textContent !== "1"`, "the last click's deal played")
	if v := p.serverView(); v.Stock != 30 || v.Moves != 2 {
		t.Fatalf("a click, a late double-click's second press, a click: %d cards in the stock, %d moves; want two rows dealt (30, 2)", v.Stock, v.Moves)
	}
}
