package spiderweb

// Browser tests: the page in real Chromium (through chromedp) against the
// real server with a temporary SQLite database. A shadow spider.Game plays
// every move the test makes through the page, and after each step the page's
// tableau, the server's view and the shadow's view must agree.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"cardtable/card"
	"cardtable/spider"
)

func TestBrowserGame(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	downloads := t.TempDir()
	enabled := true
	if _, err := chromedp.CallBrowser(bctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads, EventsEnabled: &enabled,
		BrowserContextID: chromedp.FromContext(bctx).BrowserContextID, // the test's own, in a shared browser
	}); err != nil {
		t.Fatal(err)
	}

	// The parts run side by side, each on a server of its own and, but
	// for the first (the downloads'), in a browser context of its own.
	t.Run("desktop", func(t *testing.T) {
		t.Parallel()
		srv := pageServer(t)
		p := openPage(t, bctx, srv, 1280, 800)
		p.measure() // the commands' times, logged at the end
		p.newGameByNumber(617)
		p.noHorizontalScroll()
		// Deal 617 opens 9C 2C 2D TH JC QD 5S 3S 3D 4D.
		var label string
		p.eval(`document.querySelector("#pile-0").getAttribute("aria-label")`, &label)
		if !strings.Contains(label, "5 face down") || !strings.Contains(label, "nine of clubs") {
			t.Errorf("pile 1's label %q does not name its cards", label)
		}

		// Drag the jack of clubs onto the queen of diamonds.
		p.drag(p.bottomPoint(4), p.bottomPoint(5))
		p.play(spider.Cards(4, 5, 1))
		p.expect("drag JC onto QD")
		p.waitJS(`document.querySelector("#live").textContent.includes("Moved jack of clubs")`, "the move to be spoken")

		// Click the nine of clubs, then the ten of hearts.
		p.click(p.bottomPoint(0))
		p.waitJS(`document.querySelectorAll("#pile-0 .card.selected").length === 1`, "the nine to be picked up")
		p.click(p.bottomPoint(3))
		p.play(spider.Cards(0, 3, 1))
		p.expect("click 9C then TH")

		// Keyboard: choose pile 8, pick up, choose pile 10, drop.
		p.keys("8")
		p.keys(kbEnter)
		p.keys("0")
		p.keys(kbEnter)
		p.play(spider.Cards(7, 9, 1))
		p.expect("keys 8 Enter 0 Enter")

		// An illegal move: the two of diamonds onto the five of spades.
		p.click(p.bottomPoint(2))
		p.click(p.bottomPoint(6))
		p.refused("goes only on a card one rank higher")
		if msg := p.text("#toast .msg"); !strings.Contains(msg, "2♦") || !strings.Contains(msg, "5♠") {
			t.Errorf("the refusal shown is %q, want it to name 2♦ and 5♠", msg)
		}

		// Double-click the two of clubs: the auto-move.
		want, err := p.shadow.Pos().Auto(1, 0)
		p.dblclick(p.bottomPoint(1))
		if err != nil {
			p.refused("")
		} else {
			p.play(want)
			p.expect("double-click auto-move " + want.String())
		}

		// Hint: the page highlights the server's suggestion.
		hint, err := firstMoveHint(context.Background(), p.shadow)
		if err != nil {
			t.Fatal(err)
		}
		p.clickSel("#btn-hint")
		switch hint.Kind {
		case spider.MoveCards:
			p.waitJS(fmt.Sprintf(`document.querySelectorAll("#pile-%d .card.hint-src").length === %d && document.querySelector("#pile-%d").classList.contains("hint-dst")`,
				hint.From, hint.Count, hint.To), "the hint "+hint.String()+" highlighted")
		case spider.Deal:
			p.waitJS(`document.querySelector("#stock").classList.contains("hint-src")`, "the hinted deal highlighted")
		}
		hintWord := "Deal"
		if hint.Kind == spider.MoveCards {
			hintWord = fmt.Sprintf("pile %d", hint.From+1)
		}
		p.waitJS(fmt.Sprintf(`!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.includes(%q)`, hintWord), "the hint's text")

		// Deal a row by clicking the stock.
		p.click(p.elementPoint("#stock"))
		p.play(spider.DealMove)
		p.expect("deal")

		// Undo (button, Ctrl+Z), redo (Ctrl+Y, button, Ctrl+Shift+Z).
		shadowUndo := func() {
			if err := p.shadow.Undo(); err != nil {
				t.Fatal(err)
			}
		}
		shadowRedo := func() {
			if err := p.shadow.Redo(); err != nil {
				t.Fatal(err)
			}
		}
		p.clickSel("#btn-undo")
		shadowUndo()
		p.expect("undo button")
		p.keys("z", chromedp.ModifierCtrl)
		shadowUndo()
		p.expect("Ctrl+Z")
		p.keys("y", chromedp.ModifierCtrl)
		shadowRedo()
		p.expect("Ctrl+Y")
		p.clickSel("#btn-redo")
		shadowRedo()
		p.expect("redo button")
		p.keys("z", chromedp.ModifierCtrl)
		shadowUndo()
		p.expect("Ctrl+Z again")
		p.keys("z", chromedp.ModifierCtrl, chromedp.ModifierShift)
		shadowRedo()
		p.expect("Ctrl+Shift+Z")
		p.shot("desktop-1280x800-midgame")

		// Save to a file (a real download), then load it back.
		p.menu("#btn-game-menu", `#menu-game [data-act="save-file"]`)
		saved := waitDownload(t, downloads)
		want617 := p.shadow.Save()
		if saved != want617 {
			t.Fatalf("downloaded save file:\n%s\nwant:\n%s", saved, want617)
		}
		path := filepath.Join(t.TempDir(), "game.txt")
		if err := os.WriteFile(path, []byte(saved), 0o644); err != nil {
			t.Fatal(err)
		}
		oldID := p.gameID()
		p.loadSaveFile(path)
		if p.gameID() == oldID {
			t.Fatal("loading did not start a new game")
		}

		// A damaged file is refused with the line at fault; the game stays.
		bad := filepath.Join(t.TempDir(), "damaged.txt")
		// The move line goes right after "moves: N".
		at := strings.Index(saved, "moves:")
		at += strings.IndexByte(saved[at:], '\n') + 1
		if err := os.WriteFile(bad, []byte(saved[:at]+"move 1 2 9\n"+saved[at:]), 0o644); err != nil {
			t.Fatal(err)
		}
		keep := p.gameID()
		p.do(chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{bad}))
		p.waitJS(`(document.body.dataset.lastError || "").startsWith("Could not load damaged.txt: ") && document.body.dataset.lastError.includes("line ")`, "the damaged file refused with its line")
		if p.gameID() != keep {
			t.Fatal("a damaged file replaced the game")
		}
		p.expect("after a refused load")
		// A file larger than any save (a photo chosen by mistake) is refused
		// in the page's words, by its size; the server's "request body too
		// large (limit 2097152 bytes)" was all the player read.
		huge := filepath.Join(t.TempDir(), "photo.txt")
		if err := os.WriteFile(huge, bytes.Repeat([]byte("x"), 5<<19), 0o644); err != nil {
			t.Fatal(err)
		}
		p.do(chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{huge}))
		p.waitJS(`(document.body.dataset.lastError || "").startsWith("Could not load photo.txt: ")`, "the large file refused")
		var said string
		p.eval(`document.body.dataset.lastError`, &said)
		if want := "Could not load photo.txt: it is 2.5 MB, and a save file is 2 MB at most."; said != want {
			t.Errorf("a 2.5 MB file refused with %q, want %q", said, want)
		}
		if p.gameID() != keep {
			t.Fatal("a file too large replaced the game")
		}
		// A picture under the limit is not text: read as text its bytes
		// grew past the limit, and the server's words came back.
		picture := filepath.Join(t.TempDir(), "photo.jpg")
		if err := os.WriteFile(picture, bytes.Repeat([]byte{0xff, 0xd8, 0x00, 0x9c}, 300<<10), 0o644); err != nil {
			t.Fatal(err)
		}
		p.do(chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{picture}))
		p.waitJS(`(document.body.dataset.lastError || "").startsWith("Could not load photo.jpg: ")`, "the picture refused")
		p.eval(`document.body.dataset.lastError`, &said)
		if want := "Could not load photo.jpg: it is not text, so not a save file."; said != want {
			t.Errorf("a 1.2 MB picture refused with %q, want %q", said, want)
		}
		if p.gameID() != keep {
			t.Fatal("a picture replaced the game")
		}

		// Saved games on the server: save under a name, find it listed, open it.
		p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
		p.waitJS(`document.querySelector("#dlg-saves").open`, "the saved games dialog")
		p.eval(`document.querySelector("#save-name").value = ""`, nil)
		p.do(chromedp.SendKeys(chromedp.CSS("#save-name"), "Lunch break"))
		p.clickSel(`#form-save button[type=submit]`)
		p.waitJS(`[...document.querySelectorAll("#saves-list td")].some((td) => td.textContent === "Lunch break")`, "the save listed")
		before := p.gameID()
		p.clickSel(`#saves-list button[aria-label="Open Lunch break"]`)
		p.waitJS(fmt.Sprintf(`sessionStorage.getItem("cardtable.spider.game") !== %q && !document.querySelector("#dlg-saves").open`, before), "the saved game opened")
		p.expect("the saved game opened")

		// Restart: confirm, and the deal starts again.
		p.clickSel("#btn-restart")
		p.waitJS(`document.querySelector("#dlg-confirm").open`, "the restart confirmation")
		p.clickSel("#confirm-yes")
		p.shadow.Restart()
		p.expect("restart")

		// Letter keys: D deals, U undoes.
		p.keys("d")
		p.play(spider.DealMove)
		p.expect("key D")
		p.keys("u")
		if err := p.shadow.Undo(); err != nil {
			t.Fatal(err)
		}
		p.expect("key U")
		// Every move taken back, a restart would end the way to redo them:
		// it asks too (it went at once), and Cancel keeps them.
		p.keys("r")
		p.waitJS(`document.querySelector("#dlg-confirm").open && document.querySelector("#confirm-text").textContent === "The moves you took back can no longer be redone."`, "the restart confirmation with moves to redo")
		p.clickSel(`#dlg-confirm button[value="no"]`)
		p.waitJS(`!document.querySelector("#dlg-confirm").open && !document.querySelector("#btn-redo").disabled`, "the moves to redo kept")
		p.expect("restart cancelled with moves to redo")

		// Cards menu: locate a card, display a column, hide the deal and
		// discard areas.
		p.menu("#btn-cards-menu", `#menu-cards [data-act="locate"]`)
		p.waitJS(`document.querySelector("#dlg-locate").open`, "the locate dialog")
		p.do(chromedp.SendKeys(chromedp.CSS("#locate-card"), "qd\n"))
		p.waitJS(`document.querySelector("#locate-text").textContent === "Queen of diamonds: pile 6 (card 5 of 5)."`, "the queen of diamonds located")
		p.waitJS(`document.querySelectorAll("#pile-5 .card.located").length === 1`, "the located card highlighted")
		p.clickSel(`#dlg-locate [data-close]`)
		p.menu("#btn-cards-menu", `#menu-cards [data-act="column"]`)
		p.waitJS(`document.querySelector("#dlg-column").open`, "the display column dialog")
		p.clickSel(`#column-piles button[aria-label="Pile 4"]`)
		p.waitJS(`document.querySelector("#column-text").textContent === "Pile 4 (5 face down): ten of hearts."`, "pile 4 displayed")
		p.clickSel(`#dlg-column [data-close]`)
		p.menu("#btn-cards-menu", `#menu-cards [data-set="hideAreas"]`)
		p.waitJS(`getComputedStyle(document.querySelector("#stock")).display === "none" && getComputedStyle(document.querySelector("#completed")).display === "none"`, "the deal and discard areas hidden")
		// The rows left to deal are still told, in the status bar.
		p.waitJS(`(() => { const r = document.querySelector("#status .rows"); return r.checkVisibility() &&
			r.getBoundingClientRect().width > 0 && r.textContent === "To deal 5"; })()`, "the rows left to deal shown with the stock hidden")
		p.menu("#btn-cards-menu", `#menu-cards [data-set="hideAreas"]`)
		p.waitJS(`getComputedStyle(document.querySelector("#stock")).display !== "none" &&
			!document.querySelector("#status .rows").checkVisibility()`, "the deal and discard areas back, the status bar's count gone")

		// Settings persist: verbose off survives a reload, on the server too.
		p.menu("#btn-cards-menu", `#menu-cards [data-set="verbose"]`)
		p.waitJS(`document.querySelector('[data-set="verbose"]').getAttribute("aria-checked") === "false"`, "verbose off")
		p.idle()
		p.load()
		p.waitJS(`document.querySelector('[data-set="verbose"]').getAttribute("aria-checked") === "false"`, "verbose still off after a reload")
		settings := getJSON[map[string]any](p, srv.URL+"/api/settings")
		if settings["verbose"] != false {
			t.Errorf("server settings %v: want verbose false", settings)
		}
		// With verbose off a refusal is only a sound: no message box.
		p.eval(`document.querySelector("#toast").hidden = true`, nil)
		p.click(p.bottomPoint(2))
		p.click(p.bottomPoint(6))
		p.refused("goes only on")
		var toastHidden bool
		p.eval(`document.querySelector("#toast").hidden`, &toastHidden)
		if !toastHidden {
			t.Error("verbose off: a refused move still showed a message box")
		}
		p.menu("#btn-cards-menu", `#menu-cards [data-set="verbose"]`)
		p.waitJS(`document.querySelector('[data-set="verbose"]').getAttribute("aria-checked") === "true"`, "verbose on")

		// A constructed position with spaces: dealing is refused; split a run
		// with a right-click and with the T key; double-click removes a suit.
		p.loadLayout(spaceLayout)
		p.noEndScreen()
		p.click(p.elementPoint("#stock"))
		p.refused("space")
		// The middle button (the Amiga's) picks up from the six of clubs;
		// then the right button, from the five.
		p.do(chromedp.MouseClickXY(p.cardPoint(1, 7).X, p.cardPoint(1, 7).Y, chromedp.ButtonMiddle))
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 5`, "the split from the six of clubs")
		p.do(chromedp.MouseClickXY(p.cardPoint(1, 8).X, p.cardPoint(1, 8).Y, chromedp.ButtonRight))
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 4`, "the split from the five of clubs")
		p.click(p.bottomPoint(4))
		p.play(spider.Cards(1, 4, 4))
		p.expect("right-click split 5C..2C into a space")
		p.keys("2")
		p.keys("t")
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 8`, "T picks the run")
		p.keys("t")
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 7`, "T splits one card off")
		p.keys("6")
		p.keys(kbEnter)
		p.play(spider.Cards(1, 5, 7))
		p.expect("T-key split QC..6C into a space")
		p.dblclick(p.bottomPoint(0))
		p.play(spider.RemoveFrom(0))
		p.expect("double-click removes the complete suit")
		p.noEndScreen()

		// A position with no move left: the end screen says so.
		p.loadLayout(stuckLayout)
		if !p.shadow.Stuck() {
			t.Fatal("stuckLayout is not stuck")
		}
		p.waitJS(`document.querySelector("#dlg-end").open && document.querySelector("#dlg-end-title").textContent === "No moves left"`, "the no-moves-left screen")
		var undoShown bool
		p.eval(`!document.querySelector('#end-buttons [data-end="undo"]').hidden`, &undoShown)
		if undoShown {
			t.Error("the no-moves-left screen offers undo with nothing to undo")
		}
		p.shot("desktop-1280x800-stuck")
		p.clickSel(`#end-buttons [data-end="restart"]`)
		p.waitJS(`!document.querySelector("#dlg-end").open`, "the end screen to close")
		p.idle()

		// The near-won position: drag a complete suit to the completed area,
		// then finish by clicks; the end screen and statistics follow.
		statsBefore := statsGroup4(p, srv.URL)
		p.loadLayout(nearWonLayout)
		p.drag(p.cardPoint(0, 0), p.elementPoint("#completed"))
		p.play(spider.RemoveFrom(0))
		p.expect("drag a complete suit to the completed area")
		p.click(p.bottomPoint(2))
		p.click(p.bottomPoint(1))
		p.play(spider.Cards(2, 1, 1))
		p.expect("the winning move")
		p.waitJS(`document.querySelector("#dlg-end").open && document.querySelector("#dlg-end-title").textContent === "You won!"`, "the win screen")
		bd := p.shadow.Score()
		endText := p.text("#end-breakdown")
		for _, part := range []string{"Complete suits (50 each)", fmt.Sprint(bd.Complete), "Total", fmt.Sprint(bd.Total)} {
			if !strings.Contains(endText, part) {
				t.Errorf("end screen breakdown %q lacks %q", endText, part)
			}
		}
		p.shot("desktop-1280x800-won")

		// Statistics: one more game won, shown in the panel with its charts.
		p.clickSel(`#end-buttons [data-end="stats"]`)
		p.waitJS(`document.querySelector("#dlg-stats").open && document.querySelector("#stats-charts svg")`, "the statistics panel")
		statsAfter := statsGroup4(p, srv.URL)
		if statsAfter.Won != statsBefore.Won+1 || statsAfter.Played <= statsBefore.Played {
			t.Errorf("statistics after the win: %+v, before: %+v", statsAfter, statsBefore)
		}
		if statsAfter.CurrentStreak < 1 || statsAfter.BestScore < bd.Counted {
			t.Errorf("statistics after the win: streak %d, best %d (score %d)", statsAfter.CurrentStreak, statsAfter.BestScore, bd.Counted)
		}
		var shown map[string]string
		p.eval(`Object.fromEntries([...document.querySelectorAll("#stats-numbers div")].map((d) => [d.dataset.stat, d.querySelector("dd").textContent]))`, &shown)
		if shown["won"] != fmt.Sprint(statsAfter.Won) || shown["played"] != fmt.Sprint(statsAfter.Played) {
			t.Errorf("the panel shows %v; the server has played %d, won %d", shown, statsAfter.Played, statsAfter.Won)
		}
		var dots int
		p.eval(`document.querySelectorAll("#stats-charts svg")[0].querySelectorAll("circle").length`, &dots)
		if dots != len(statsAfter.History) {
			t.Errorf("the score chart has %d points, want %d", dots, len(statsAfter.History))
		}
		p.shot("desktop-1280x800-statistics")
		var times []float64
		p.eval(`window.cardtableTimings`, &times)
		if len(times) > 0 {
			slices.Sort(times)
			t.Logf("%d accepted commands, request to redrawn table: median %.1f ms, max %.1f ms", len(times), times[len(times)/2], times[len(times)-1])
		}
	})

	t.Run("options", func(t *testing.T) {
		t.Parallel()
		srv := pageServer(t)
		// Spider, two suits, open tableau and relaxed dealing through the
		// New game dialog; Spider's scoring freezes at the first undo.
		p := openPage(t, bctx, srv, 1280, 800, chromedp.WithNewBrowserContext())
		p.clickSel("#btn-new")
		p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
		p.do(
			chromedp.SendKeys(chromedp.CSS("#new-deal"), "#42"),
			chromedp.Click(chromedp.CSS(`#form-new input[name=variant][value=spider]`)),
			chromedp.Click(chromedp.CSS(`#form-new input[name=suits][value="2"]`)),
			chromedp.Click(chromedp.CSS(`#form-new input[name=open]`)),
			chromedp.Click(chromedp.CSS(`#form-new input[name=relaxed]`)),
			chromedp.Click(chromedp.CSS("#new-start")),
		)
		p.waitJS(`!document.querySelector("#dlg-new").open`, "the new game dialog to close")
		// A fresh player's default removes completed suits automatically.
		g, err := spider.NewGame(42, spider.Options{Variant: spider.Spider, Suits: 2, Open: true, Relaxed: true, AutoRemove: true})
		if err != nil {
			t.Fatal(err)
		}
		p.shadow = g
		p.expect("Spider, 2 suits, open, relaxed, deal 42")
		if got := p.text("#st-kind"); got != "Spider · 2 suits · open · relaxed" {
			t.Errorf("status shows %q", got)
		}
		// The open tableau shows the covered cards, marked as covered.
		var covered []string
		p.eval(`[...document.querySelectorAll("#pile-0 .card.covered")].map((c) => c.dataset.card)`, &covered)
		if want := g.View(false).Piles[0].Hidden; !reflect.DeepEqual(covered, want) {
			t.Errorf("pile 1 shows covered cards %v, want %v", covered, want)
		}
		// The new game's options became the defaults for the next one.
		settings := getJSON[map[string]any](p, srv.URL+"/api/settings")
		if ng, _ := settings["newGame"].(map[string]any); ng["variant"] != "spider" || ng["suits"] != 2.0 {
			t.Errorf("settings after a Spider 2-suit game: %v", settings)
		}
		p.clickSel("#btn-deal")
		p.play(spider.DealMove)
		p.expect("deal")
		p.clickSel("#btn-undo")
		if err := p.shadow.Undo(); err != nil {
			t.Fatal(err)
		}
		p.expect("undo")
		if !p.shadow.ScoringStopped() {
			t.Fatal("the shadow's scoring did not stop")
		}
		if got := p.text("#st-note"); got != "(frozen)" {
			t.Errorf("after an undo in Spider the score note is %q, want (frozen)", got)
		}
		p.shot("desktop-1280x800-spider-open")
	})

	t.Run("phone", func(t *testing.T) {
		t.Parallel()
		srv := pageServer(t)
		// A fresh browser context: a new player, with nothing stored.
		// A phone: a fresh browser context (a new player, nothing stored), the
		// mobile viewport and touch input.
		p := openPage(t, bctx, srv, 390, 844, chromedp.WithNewBrowserContext())
		p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
		p.load()
		// The largest deal number shows exactly (beyond JavaScript's 2^53).
		p.newGameByNumber(card.MaxDeal)
		p.newGameByNumber(617)
		p.noHorizontalScroll()
		p.touchDrag(p.bottomPoint(4), p.bottomPoint(5))
		p.play(spider.Cards(4, 5, 1))
		p.expect("phone: drag JC onto QD with a finger")
		p.tap(p.bottomPoint(0))
		p.waitJS(`document.querySelectorAll("#pile-0 .card.selected").length === 1`, "the nine picked up by a tap")
		p.tap(p.bottomPoint(3))
		p.play(spider.Cards(0, 3, 1))
		p.expect("phone: tap 9C then TH")
		// A double tap is the auto-move.
		auto, err := p.shadow.Pos().Auto(1, 0)
		if err != nil {
			t.Fatal(err)
		}
		p.doubleTap(p.bottomPoint(1))
		p.play(auto)
		p.expect("phone: double tap auto-move " + auto.String())
		for i := range 5 {
			p.clickSel("#btn-deal")
			p.play(spider.DealMove)
			p.expect(fmt.Sprintf("phone: deal %d", i+1))
		}
		p.noHorizontalScroll()
		// Every pile fits the screen's height once the stock is dealt.
		var overflow float64
		p.eval(`Math.max(...[...document.querySelectorAll("#tableau .card")].map((c) => c.getBoundingClientRect().bottom)) - window.innerHeight`, &overflow)
		if overflow > 0 {
			t.Errorf("phone: the piles run %vpx below the screen", overflow)
		}
		p.tap(p.bottomPoint(2))
		p.shot("phone-390x844")

		// A long press picks up from the pressed card (a split): the five of
		// clubs of the club run, then a tap on a space puts the four there.
		p.loadLayout(spaceLayout)
		// The finger stays down until the page's long-press timer has picked
		// the cards up; they stay picked up after it lifts.
		p.touch(input.DispatchTouchEventTypeTouchStart, p.cardPoint(1, 8))
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 4`, "a long press to pick up four cards")
		p.touch(input.DispatchTouchEventTypeTouchEnd)
		p.waitJS(`document.querySelectorAll("#pile-1 .card.selected").length === 4`, "the four cards to stay picked up")
		p.tap(p.bottomPoint(6))
		p.play(spider.Cards(1, 6, 4))
		p.expect("phone: long-press split into a space")

		// The smallest phones in use (320 px wide) do not scroll sideways either.
		p.do(chromedp.EmulateViewport(320, 568, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
		// The page lays out again shortly after a resize and marks the width
		// it laid out for.
		p.waitJS(`document.documentElement.clientWidth === 320 && document.body.dataset.layoutWidth === "320"`, "the page laid out for 320 px")
		p.noHorizontalScroll()
	})
}

// kbEnter is the Enter key for chromedp.KeyEvent.
const kbEnter = "\r"
