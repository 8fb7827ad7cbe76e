package spiderweb

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserNewGameDealTyped: a deal number pasted with a space or a
// leading "#" ("#617 ", as a shared message often has it) starts that
// deal, and text that is no number is told so in the page's words, which
// go once the field is corrected (to "#617 " here). Before, the field's pattern refused
// "#617 " with the browser's "Please match the requested format", the
// page's own message never showed, and the player was not told why.
func TestBrowserNewGameDealTyped(t *testing.T) {
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
