package spiderweb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/spider"
)

// TestLongBrowserDropThenPick: a click that puts cards down on a pile is not
// the first click of a double-click. Picking up from that pile at once
// after (the hearts just moved into a space, to carry them on) picks them
// up; it is no auto-move, neither by the page's own pairing of clicks nor
// by the browser's dblclick, which a real mouse sends for the pair.
// Before, the hearts flew on to the 7♠ by themselves. The page's clock is
// held still, so the pair is within the double-click time however slowly
// the machine runs.
func TestLongBrowserDropThenPick(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.loadLayout(finishLayout)
	p.eval(`(() => { const t0 = Date.now(); window.realNow = Date.now; Date.now = () => t0; return 1; })()`, nil)
	defer p.eval(`(Date.now = window.realNow, 1)`, nil)

	p.click(p.bottomPoint(1)) // picks up the hearts
	p.click(p.bottomPoint(2)) // puts them into the space
	p.play(spider.Cards(1, 2, 6))
	p.expect("the hearts moved into the space by two clicks")
	// The second click of a real double-click (the browser sends dblclick).
	p.click(p.bottomPoint(2), chromedp.ClickCount(2))
	p.waitJS(`document.querySelectorAll("#pile-2 .card.selected").length === 6`, "the hearts picked up")
	p.idle()
	p.expect("the hearts picked up, not moved")
}

// TestLongBrowserDropOnce: a second click on the pile the cards were just put
// on, before the server's answer (a double-click from habit, a slow
// network), does not send the move again. Before, the cards stayed picked
// up until the answer, so the second click sent "move 2 3" once more,
// refused here, and legal whenever the card turned up fitted. (The second
// click now reads the pile as it is shown until the answer: empty here.)
func TestLongBrowserDropOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.loadLayout(finishLayout)
	// Commands take a while to answer, so the second click comes first.
	p.eval(`(() => { const f = window.fetch; window.fetch = (u, o) =>
	  String(u).includes("/commands") ? new Promise((r) => setTimeout(r, 400)).then(() => f(u, o)) : f(u, o); return 1; })()`, nil)
	var sent int
	p.eval(`(() => { window.commandsSent = 0; const f = window.fetch; window.fetch = (u, o) => {
	  if (String(u).includes("/commands")) window.commandsSent++; return f(u, o); }; return 0; })()`, &sent)

	p.click(p.bottomPoint(1)) // picks up the hearts
	p.click(p.bottomPoint(2)) // puts them into the space
	p.click(p.bottomPoint(2)) // again, before the answer
	p.play(spider.Cards(1, 2, 6))
	p.expect("the hearts moved into the space once")
	p.eval(`window.commandsSent`, &sent)
	var lastError string
	p.eval(`document.body.dataset.lastError || ""`, &lastError)
	if sent != 1 || strings.Contains(lastError, "llegal") {
		t.Errorf("%d commands sent, refusal %q; want the move sent once", sent, lastError)
	}
}

// TestLongBrowserSpokenMoveRemoved: the live region names the cards a move
// carried also when they completed a suit that went at once: "Moved six
// of spades and 5 cards below it ... Removed a complete suit of spades."
// It said "Moved cards and 5 cards below it", the cards being gone from
// the pile they were put on.
func TestLongBrowserSpokenMoveRemoved(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.loadSaveFile(writeAutoRemoveLayout(t, finishLayout))
	p.drag(p.cardPoint(1, 7), p.bottomPoint(2)) // the hearts into the space
	p.play(spider.Cards(1, 2, 6))
	p.expect("the hearts moved into a space")
	p.drag(p.cardPoint(0, 7), p.bottomPoint(1)) // the spades home: removed
	p.play(spider.Cards(0, 1, 6))
	p.expect("the spades completed and removed")
	const want = "Moved six of spades and 5 cards below it from pile 1 to pile 2, onto seven of spades."
	p.waitJS(fmt.Sprintf(`document.querySelector("#live").textContent.startsWith(%q)`, want), "the move spoken: "+want)
	if got := p.text("#live"); !strings.Contains(got, "Removed a complete suit of spades") {
		t.Errorf("the live region says %q; want the removed suit said too", got)
	}
}
