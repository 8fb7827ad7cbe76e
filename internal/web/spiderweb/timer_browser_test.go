package spiderweb

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

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
	t.Parallel()
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

// timesSeen records, from the start of each document, every text the
// timer shows (before the page's scripts run, so nothing is missed).
const timesSeen = `window.__times = [];
document.addEventListener("DOMContentLoaded", () => {
  const el = document.getElementById("st-time");
  window.__times.push(el.textContent);
  new MutationObserver(() => window.__times.push(el.textContent)).observe(el, {childList: true, characterData: true, subtree: true});
});`

// TestLongBrowserTimerAfterReload: after a reload the timer shows nothing
// until the game comes, then the game's time: it showed 0:00 for the
// moment the game took to come, then jumped.
func TestLongBrowserTimerAfterReload(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	// Two seconds of play, then a command: the game's time is 0:02.
	p.waitJS(`document.querySelector("#st-time").textContent === "0:02"`, "two seconds on the timer")
	p.keys("d")
	p.waitJS(`document.querySelector("#st-moves").textContent === "1"`, "the deal")
	p.idle()
	p.step("recording the timer", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: timesSeen})
		return err
	}))
	p.load()
	p.waitJS(`window.__times.length > 1`, "the timer to show the game's time")
	var seen []string
	p.eval(`window.__times`, &seen)
	for _, s := range seen {
		if s == "0:00" || s == "0:01" {
			t.Fatalf("after the reload the timer showed %q (all it showed: %q); want nothing, then 0:02 or more", s, seen)
		}
	}
}

// TestLongBrowserHintSpokenInWords: the hint's text is written with suit
// signs ("the 7♥") and spoken with names ("the seven of hearts"), as every
// other announcement; the screen reader was given the signs.
func TestLongBrowserHintSpokenInWords(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.newGameByNumber(617)
	p.clickSel("#btn-hint")
	p.waitJS(`!document.querySelector("#toast").hidden && document.querySelector("#toast .msg").textContent.startsWith("Move the ")`, "the hint's text")
	p.waitJS(`document.querySelector("#live").textContent.startsWith("Move the ")`, "the hint spoken")
	written, said := p.text("#toast .msg"), p.text("#live")
	if !strings.ContainsAny(written, "♣♦♥♠") {
		t.Errorf("the hint reads %q: want the cards with their suit signs", written)
	}
	if strings.ContainsAny(said, "♣♦♥♠") || !strings.Contains(said, " of ") {
		t.Errorf("the hint is spoken as %q: want the cards named in words", said)
	}
}
