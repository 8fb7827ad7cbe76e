package spiderweb

// Browser tests of when the message box closes by itself: a refusal
// goes once a later command is played, and a message about one game goes
// when another starts (docs/page.md, "Messages").

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// toastJS is the message box's kind and text while it shows ("" hidden).
const toastJS = `(() => { const t = document.querySelector("#toast"); return t.hidden ? "" : t.className + ": " + t.querySelector(".msg").textContent; })()`

// TestBrowserRefusalGoesOnSuccess: U with nothing to undo is refused in
// the box; D then deals a row, and the refusal, no longer true, goes
// with it. Before, it stayed over the dealt row until its timer ran out.
func TestBrowserRefusalGoesOnSuccess(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	stock := p.serverView().Stock
	p.keys("u")
	p.waitJS(`!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.includes("no move to undo")`, "the refused undo in the message box")
	p.keys("d")
	p.waitJS(`document.body.dataset.busy === "0"`, "the deal to be answered")
	if got := p.serverView().Stock; got >= stock {
		t.Fatalf("the stock holds %d after D, was %d: no row dealt", got, stock)
	}
	var shown string
	p.eval(toastJS, &shown)
	if shown != "" {
		t.Errorf("after the row was dealt the page still shows %q", shown)
	}
}

// TestBrowserGivenUpMessageGoesOnNewGame: a given-up game, shown again,
// says it takes no more moves; a new game started from the New game
// dialog takes moves, and the message goes. Before, it stayed over the
// new game. A refusal with no game shown yet (a bad link) is kept: the
// game the page then goes on with is not what it was about.
func TestBrowserGivenUpMessageGoesOnNewGame(t *testing.T) {
	t.Parallel()
	srv := analysisPageServer(t, unknownAnalysis)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	var code int
	p.eval(`fetch("/api/games/" + sessionStorage.getItem("cardtable.spider.game") + "/analysis",
	  {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"giveUp": true}'}).then((r) => r.status)`, &code)
	if code != 200 {
		t.Fatalf("giving the game up: %d", code)
	}
	p.load()
	p.waitJS(`!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.includes("no more moves")`, "the message on the given-up game")
	before := p.gameID()
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	p.eval(`document.querySelector("#new-deal").value = "", 1`, nil)
	p.do(chromedp.SendKeys(chromedp.CSS("#new-deal"), "617"), chromedp.Click(chromedp.CSS("#new-start")))
	p.waitJS(`!document.querySelector("#dlg-new").open && document.body.dataset.busy === "0"`, "the new game")
	if p.gameID() == before {
		t.Fatal("the page still shows the given-up game")
	}
	var shown string
	p.eval(toastJS, &shown)
	if strings.Contains(shown, "given up") || strings.Contains(shown, "no more moves") {
		t.Errorf("over the new game the page still shows %q", shown)
	}

	// A link the server refuses, as the page starts: its refusal stays
	// over the game the page goes on with.
	p.do(chromedp.Navigate(srv.URL + spiderPage + "?deal=0"))
	p.waitJS(`document.body.dataset.ready === "1" && document.body.dataset.busy === "0"`, "the page to start")
	p.eval(toastJS, &shown)
	if !strings.HasPrefix(shown, "error: ") || !strings.Contains(shown, "0") {
		t.Errorf("after a refused link the page shows %q, want the refusal", shown)
	}
}

// TestBrowserSaveFailureStaysOnMove: a save the server refused is still
// unsaved after a move, so the failure stays when a row is dealt; only a
// command's refusal goes with a later command played. Before, any error
// in the box went.
func TestBrowserSaveFailureStaysOnMove(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.waitJS(`document.querySelector("#dlg-saves").open`, "the saved games dialog")
	p.eval(`document.querySelector("#save-name").value = "a\u0007b", 1`, nil)
	p.clickSel(`#form-save button[type=submit]`)
	const failed = `!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.includes("control characters")`
	p.waitJS(failed, "the refused save in the message box")
	p.clickSel(`#dlg-saves [data-close]`)
	p.waitJS(`!document.querySelector("#dlg-saves").open`, "the saved games dialog to close")
	if !p.dealThenHolds(failed) {
		t.Errorf("the refused save's message went when a row was dealt: the game is still unsaved")
	}
}

// TestBrowserLostMoveGoesOnMove: a command the network lost is said, and
// the message goes once a later command is played, since the table then
// shows something newer than what failed.
func TestBrowserLostMoveGoesOnMove(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	p.eval(`(() => { window.__failOnce = true; const f = window.fetch; window.fetch = (u, o) => {
	  if (window.__failOnce && String(u).includes("/commands")) { window.__failOnce = false; return Promise.reject(new TypeError("network lost")); }
	  return f(u, o); }; return 1; })()`, nil)
	stock := p.serverView().Stock
	p.keys("d")
	const failed = `!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.includes("cannot be reached")`
	p.waitJS(failed+` && document.body.dataset.busy === "0"`, "the lost deal in the message box")
	if got := p.serverView().Stock; got != stock {
		t.Fatalf("the stock holds %d after the lost deal, was %d", got, stock)
	}
	if p.dealThenHolds(failed) {
		t.Errorf("the lost deal's message stays after a row was dealt: the table shows newer")
	}
}

// TestBrowserHintGoesOnDeal: a hint's message goes once a command is
// played (a deal here), since the table then shows another position,
// where the hinted move may be covered. The message's own 4.5 s timer is
// held, so only the deal can close it.
func TestBrowserHintGoesOnDeal(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	best := getJSON[hintResponse](p, p.srv.URL+"/api/games/"+p.gameID()+"/hint").Moves[0].Text
	p.eval(`(() => { window.realSetTimeout = setTimeout;
	  window.setTimeout = (f, ms, ...a) => ms === 4500 ? 0 : window.realSetTimeout(f, ms, ...a); return 1; })()`, nil)
	shown := fmt.Sprintf(`!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.startsWith(%q)`, best)
	p.clickSel("#btn-hint")
	p.waitJS(shown+` && document.body.dataset.busy === "0"`, "the hint in the message box")
	if p.dealThenHolds(shown) {
		t.Errorf("the hint's message (%q) stays after a row was dealt: the table shows another position", best)
	}
}

// TestBrowserSaveNameComposed: a name typed as e and a combining accent
// is saved as the composed one the server takes (NFC), and typed again
// composed it is the same save, not a second that looks the same.
func TestBrowserSaveNameComposed(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.waitJS(`document.querySelector("#dlg-saves").open`, "the saved games dialog")
	for _, typed := range []string{`cafe\u0301`, `caf\u00e9`} {
		p.eval(`document.querySelector("#save-name").value = "`+typed+`", 1`, nil)
		p.clickSel(`#form-save button[type=submit]`)
		p.savesListed("caf\u00e9")
	}
	var n int
	p.eval(`document.querySelectorAll('#saves-list button[aria-label^="Open caf"]').length`, &n)
	if n != 1 {
		t.Errorf("%d saves named café listed, want 1", n)
	}
}

// dealThenHolds deals a row with D, checks with the server that it was
// dealt, and says whether the condition cond holds on the page then.
func (p *browserPage) dealThenHolds(cond string) bool {
	p.t.Helper()
	stock := p.serverView().Stock
	p.keys("d")
	p.waitJS(`document.body.dataset.busy === "0" && document.querySelector("#pile-0").children.length > 0`, "the deal to be answered")
	if got := p.serverView().Stock; got >= stock {
		p.t.Fatalf("the stock holds %d after D, was %d: no row dealt", got, stock)
	}
	var holds bool
	p.eval(cond, &holds)
	return holds
}
