package spiderweb

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"cardtable/internal/web/webtest"
)

// shownStats is the statistics panel's numbers, by their data-stat.
func (p *browserPage) shownStats() map[string]string {
	p.t.Helper()
	p.menu("#btn-game-menu", `#menu-game [data-act="stats"]`)
	p.waitJS(`document.querySelector("#dlg-stats").open && document.querySelector("#stats-numbers").getAttribute("aria-busy") === "false"`, "the statistics")
	var shown map[string]string
	p.eval(`Object.fromEntries([...document.querySelectorAll("#stats-numbers div")].map((d) => [d.dataset.stat, d.querySelector("dd").textContent]))`, &shown)
	return shown
}

// TestBrowserStatsNoGames: the statistics panel shows no figures while
// the server's come (it showed the last ones, from before the game just
// left, until then), and the statistics of a kind of game never played
// say no win rate and no best score ("–"), and the empty charts name no
// "game 1"; they read "0%" and "0", as if games had been lost. One lost
// game then shows its figures, and the win rate chart's one dot is a
// loss's (it was drawn as a win's).
func TestBrowserStatsNoGames(t *testing.T) {
	t.Parallel()
	ss := newSettingsServer(t)
	p := openPage(t, startBrowser(t), ss.srv, 1280, 800)
	s := p.shownStats()
	if s["played"] != "0" || s["win-rate"] != "–" || s["best-score"] != "–" {
		t.Errorf("statistics with no game played: %v, want played 0, win rate and best score –", s)
	}
	if charts := p.text("#stats-charts"); strings.Contains(charts, "game 1") {
		t.Errorf("the empty charts read %q: they name a game 1", charts)
	}
	p.clickSel(`#dlg-stats [data-close]`)
	p.loseOneGame()
	// Opened again, the panel shows nothing of the last opening while
	// the server's figures come.
	ss.holdGet("/api/stats")
	p.menu("#btn-game-menu", `#menu-game [data-act="stats"]`)
	waitSignal(t, ss.getHeld, "the statistics read")
	var loading struct {
		Stats  int
		Busy   string
		Charts string
	}
	p.eval(`({Stats: document.querySelectorAll("#stats-numbers div").length,
		Busy: document.querySelector("#stats-numbers").getAttribute("aria-busy"),
		Charts: document.querySelector("#stats-charts").textContent})`, &loading)
	if loading.Stats != 0 || loading.Busy != "true" || loading.Charts != "Loading the statistics…" {
		t.Errorf("the panel while the statistics come: %d figures, aria-busy %q, charts %q; want none, true, Loading the statistics…",
			loading.Stats, loading.Busy, loading.Charts)
	}
	ss.openGet()
	p.clickSel(`#dlg-stats [data-close]`)
	p.idle()
	s = p.shownStats()
	if s["played"] != "1" || s["win-rate"] != "0%" || s["best-score"] == "–" {
		t.Errorf("statistics after one lost game: %v, want played 1, win rate 0%% and a best score", s)
	}
	var dot string
	p.eval(`document.querySelectorAll("#stats-charts svg")[1].querySelector("circle").getAttribute("class")`, &dot)
	if dot != "dot lost" {
		t.Errorf("the win rate chart's dot for one lost game has class %q, want dot lost", dot)
	}
}

// loseOneGame deals, then starts a new game: the first game counts as
// lost, the statistics' one game played.
func (p *browserPage) loseOneGame() { p.loseOneGameLooking(nil) }

// loseOneGameLooking is loseOneGame calling look (if not nil) while the
// New game dialog is open.
func (p *browserPage) loseOneGameLooking(look func()) {
	p.clickSel("#btn-deal")
	p.idle()
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	if look != nil {
		look()
	}
	p.clickSel("#new-start")
	p.waitJS(`!document.querySelector("#dlg-new").open`, "the new game")
	p.idle()
}

// TestBrowserStatsChartsPhone: on a phone (360x780) the charts' labels
// are 10 px or more on the screen, and none is cut at the chart's left
// edge; the charts, scaled to the phone's width, drew them at 7 px. The
// lists of the New game dialog and of the statistics show each choice
// whole once chosen: the cheat detection's, squeezed beside its label,
// put "none" under its arrow.
func TestBrowserStatsChartsPhone(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), phoneWidth(360), 780)
	choicesWhole := func(dialog string) {
		cut, err := webtest.CutChoices(p.ctx, dialog)
		if err != nil {
			t.Fatal(err)
		}
		if len(cut) > 0 {
			t.Errorf("%s: its lists cut these choices short: %q", dialog, cut)
		}
	}
	p.loseOneGameLooking(func() {
		p.shot(fmt.Sprintf("phone-%dx780-new-game", phoneWidth(360)))
		choicesWhole("#dlg-new")
		// Its boxes to tick keep their size beside two lines of words
		// ("Relaxed dealing"'s was 15 px of 22).
		var squeezed []string
		p.eval(`(() => { const boxes = [...document.querySelectorAll("#dlg-new input[type=checkbox], #dlg-new input[type=radio]")];
		  const w = (i) => i.getBoundingClientRect().width, most = Math.max(...boxes.map(w));
		  return boxes.filter((i) => w(i) < most - 0.5).map((i) => i.name + ": " + w(i).toFixed(1) + " px of " + most); })()`, &squeezed)
		if len(squeezed) > 0 {
			t.Errorf("#dlg-new: these boxes to tick are squeezed: %q", squeezed)
		}
	})
	p.shownStats()
	choicesWhole("#dlg-stats")
	var labels []struct {
		Text   string
		Px     float64
		Inside bool
	}
	p.eval(`[...document.querySelectorAll("#stats-charts svg")].flatMap((svg) => {
	  const box = svg.getBoundingClientRect();
	  return [...svg.querySelectorAll("text.axis")].map((el) => {
	    const r = el.getBoundingClientRect();
	    return { Text: el.textContent, Px: parseFloat(getComputedStyle(el).fontSize) * svg.getScreenCTM().a,
	      Inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 };
	  });
	})`, &labels)
	if len(labels) == 0 {
		t.Fatal("the charts have no labels")
	}
	for _, l := range labels {
		if l.Px < 10 || !l.Inside {
			t.Errorf("chart label %q: %.1f px on the screen, inside the chart %v; want 10 px or more, inside", l.Text, l.Px, l.Inside)
		}
	}
	p.shot(fmt.Sprintf("phone-%dx780-statistics", phoneWidth(360)))
}

// phoneWidth is the width the phone test runs at: def, or
// CARDTABLE_STATS_WIDTH to try another (320 to 390 px are checked).
func phoneWidth(def int64) int64 {
	if n, err := strconv.ParseInt(os.Getenv("CARDTABLE_STATS_WIDTH"), 10, 64); err == nil {
		return n
	}
	return def
}
