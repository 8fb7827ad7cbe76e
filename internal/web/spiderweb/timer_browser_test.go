package spiderweb

import (
	"fmt"
	"testing"

	"cardtable/spider"
)

// clockText is how the page writes a play time of ms milliseconds.
func clockText(ms int64) string {
	s := ms / 1000
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// TestBrowserTimer: the page shows the game's play time running while the
// game is played; at the win it stands at the time the server recorded,
// and the statistics panel shows the best and the average time of won
// games.
func TestBrowserTimer(t *testing.T) {
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.loadLayout(nearWonLayout)
	p.waitJS(`document.querySelector("#st-time").dataset.running === "1"`, "the timer to run")
	p.waitJS(`document.querySelector("#st-time").textContent !== "0:00"`, "the timer to count a second")

	p.drag(p.cardPoint(0, 0), p.elementPoint("#completed"))
	p.play(spider.RemoveFrom(0))
	p.expect("a complete suit removed")
	p.click(p.bottomPoint(2))
	p.click(p.bottomPoint(1))
	p.play(spider.Cards(2, 1, 1))
	p.expect("the winning move")
	p.waitJS(`document.querySelector("#st-time").dataset.running === "0"`, "the timer to stop at the win")
	won := getJSON[gameResponse](p, p.srv.URL+"/api/games/"+p.gameID())
	if won.Clock.Running || won.Clock.Played < 1000 {
		t.Fatalf("the won game's clock: %+v; want it stopped after at least a second", won.Clock)
	}
	if got := p.text("#st-time"); got != clockText(won.Clock.Played) {
		t.Fatalf("the page shows %q at the win, the server recorded %s", got, clockText(won.Clock.Played))
	}

	st := statsGroup4(p, srv.URL)
	if st.TimedWins != 1 || st.BestTime != won.Clock.Played || st.AverageTime != won.Clock.Played {
		t.Fatalf("statistics: %d timed wins, best %d ms, average %d ms; want 1 win of %d ms",
			st.TimedWins, st.BestTime, st.AverageTime, won.Clock.Played)
	}
	p.waitJS(`document.querySelector("#dlg-end").open`, "the win screen")
	p.clickSel(`#end-buttons [data-end="stats"]`)
	p.waitJS(`document.querySelector("#dlg-stats").open && document.querySelector("#stats-numbers div")`, "the statistics panel")
	var shown map[string]string
	p.eval(`Object.fromEntries([...document.querySelectorAll("#stats-numbers div")].map((d) => [d.dataset.stat, d.querySelector("dd").textContent]))`, &shown)
	want := clockText(won.Clock.Played)
	if shown["best-time"] != want || shown["average-time"] != want {
		t.Fatalf("the panel shows best time %q, average %q; want %s", shown["best-time"], shown["average-time"], want)
	}
	p.shot("timer-statistics")
}
