package spiderweb

import (
	"fmt"
	"strings"
	"testing"

	"cardtable/spider"
)

// TestLongBrowserHintCycle: the first Hint shows the server's best move, each
// further press (button or H) the next of its ranked moves, wrapping
// round; a move starts the list again. The spoken text names the cards.
func TestLongBrowserHintCycle(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it; TestHintRanked is the quick version")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.newGameByNumber(617)
	ranked := getJSON[hintResponse](p, p.srv.URL+"/api/games/"+p.gameID()+"/hint")
	n := len(ranked.Moves)
	if n < 3 {
		t.Fatalf("deal 617 ranks %d moves, want several: %+v", n, ranked)
	}
	shows := func(i int) {
		t.Helper()
		want := fmt.Sprintf("%s (Hint %d of %d.)", ranked.Moves[i].Text, i+1, n)
		p.waitJS(fmt.Sprintf(`document.querySelector("#toast .msg").textContent === %q`, want), "hint "+want)
		// The live region is emptied, then filled a moment later.
		p.waitJS(fmt.Sprintf(`document.getElementById("live").textContent.includes(%q)`, fmt.Sprintf("(Hint %d of %d", i+1, n)), "hint spoken")
		if said := p.text("#live"); strings.ContainsAny(said, "♣♦♥♠") {
			t.Errorf("hint %d spoken as %q: want the cards in words", i+1, said)
		}
	}
	p.clickSel("#btn-hint")
	shows(0)
	for i := 1; i <= n; i++ {
		p.keys("h")
		shows(i % n)
	}
	// A move (to where the second hint said) starts the list again at the best.
	m, err := spider.ParseMove(ranked.Moves[1].Move)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != spider.MoveCards {
		t.Fatalf("the second hint is %v: want a card move", m)
	}
	mv, err := p.shadow.Pos().Resolve(int(m.From), int(m.To))
	if err != nil {
		t.Fatal(err)
	}
	p.click(p.bottomPoint(int(m.From)))
	p.click(p.bottomPoint(int(m.To)))
	p.play(mv)
	p.expect("the second hint's cards moved")
	again := getJSON[hintResponse](p, p.srv.URL+"/api/games/"+p.gameID()+"/hint")
	p.keys("h")
	p.waitJS(fmt.Sprintf(`document.querySelector("#toast .msg").textContent.startsWith(%q)`, again.Moves[0].Text+" (Hint 1 of "), "the best hint again")
}
