package spiderweb

import (
	"fmt"
	"testing"
)

// TestLongBrowserOpenTableauFinish: with an open tableau every card is in
// sight (the face-down ones veiled), so once the stock is dealt Finish is
// offered; before, the veiled cards counted as face-down and it never was
// (deal 1, two suits, after the last deal).
func TestLongBrowserOpenTableauFinish(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	var id string
	p.eval(`fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
	  body: JSON.stringify({deal: "1", suits: 2, open: true})}).then((r) => r.json()).then((r) => r.id)`, &id)
	p.eval(fmt.Sprintf(`sessionStorage.setItem("cardtable.spider.game", %q), 1`, id), nil)
	p.load()
	for n := 1; n <= 5; n++ {
		if !p.finishHidden() {
			t.Fatalf("Finish is offered with %d rows still in the stock", 6-n)
		}
		p.keys("d")
		p.waitJS(fmt.Sprintf(`document.querySelector("#st-moves").textContent === "%d"`, n), "deal "+fmt.Sprint(n))
		p.idle()
	}
	var veiled int
	p.eval(`document.querySelectorAll("#tableau .card.down").length`, &veiled)
	if veiled == 0 {
		t.Fatal("no veiled card left: the test shows nothing")
	}
	p.waitJS(`!document.querySelector("#btn-finish").hidden`, "Finish, every card in sight and the stock dealt")
}

func (p *browserPage) finishHidden() bool {
	p.t.Helper()
	var hidden bool
	p.eval(`document.querySelector("#btn-finish").hidden`, &hidden)
	return hidden
}
