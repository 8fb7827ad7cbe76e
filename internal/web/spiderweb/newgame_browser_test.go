package spiderweb

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserNewGameRefused: a deal number the server refuses (0, past
// 2^64-1) is said in the New game dialog itself, which stays open with
// what was typed; before, the message went to the message box behind the
// dialog's backdrop, dimmed and out of reach. A good number then starts
// the game and the message is gone the next time the dialog opens.
func TestBrowserNewGameRefused(t *testing.T) {
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
