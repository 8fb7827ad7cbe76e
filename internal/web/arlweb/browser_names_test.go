package arlweb

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// TestBrowserArlingtonSixOnPhone: at 390×844, six seats (a person and
// five bots), one table for two looks: the longest name (LongName), then
// a long row of known cards (KnownWraps).
func TestBrowserArlingtonSixOnPhone(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("W", table.MaxNameRunes)
	p := seatedAt(t, 390, 844, name, longGame, "", "random", "random", "random", "random", "random")
	if !t.Run("LongName", func(t *testing.T) { p.tb = t; longNameOnPhone(t, p, name) }) {
		return
	}
	t.Run("KnownWraps", func(t *testing.T) { p.tb = t; knownWraps(t, p) })
}

// longNameOnPhone: at 390×844 with six seats, a name
// as long as the server accepts (table.MaxNameRunes, of the widest
// letter) lays out cleanly wherever it shows: on one line in the score
// sheet's head and at the seat (cut with an ellipsis, the whole name the
// element's text and title), on two lines at most under its card in the
// trick, and within the log's width; nothing that shows it runs past
// the screen. On the
// sheet "Annabelle" broke within the word ("Annab/elle"), a long name over
// four lines, and the seats broke it too.
func longNameOnPhone(t *testing.T, p *seatTab, name string) {
	// Ann plays her first action each turn until her card is in the trick
	// (measured there and then: the bots play on).
	p.until(`(() => {
	  const cap = [...document.querySelectorAll("#play figcaption")].find((f) => f.textContent === ` + q(name) + `);
	  if (cap) {
	    window.__trick = { height: cap.getBoundingClientRect().height, line: parseFloat(getComputedStyle(cap).lineHeight) };
	    return true;
	  }
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (first) first.click();
	  return false;
	})()`)
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("sheet-box").open = true`))
	type look struct {
		Wide, Other            []string
		SheetLines, SeatLines  []int
		SheetTitle, SeatTitle  string
		SheetText, SeatText    string
		TrickHeight, TrickLine float64
		LogWide                []string
	}
	l := eval[look](p, `(() => {
	  const name = `+q(name)+`;
	  const lines = (e) => { const r = document.createRange(); r.selectNodeContents(e); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
	  const ths = [...document.querySelectorAll("#sheet thead th")].slice(1);
	  const th = ths.find((e) => e.textContent === name) || {};
	  const seats = [...document.querySelectorAll("#players .p-name")];
	  const seat = seats.find((e) => e.textContent.startsWith(name)) || {};
	  const log = document.getElementById("log");
	  return {
	    wide: [...document.querySelectorAll("#status, .label, #players .p-head, #play figcaption, #sheet th, #log li, #actions button, #actions .small, #hand-over h2")]
	      .filter((e) => e.textContent.includes(name) && e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
	      .map((e) => e.tagName + "." + e.className + ": " + e.textContent.slice(0, 80)),
	    other: [...document.querySelectorAll("main *")].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
	      .slice(0, 3).map((e) => e.tagName + "." + e.getAttribute("class") + " in " + e.parentElement.closest("[class]").className + ": " + e.textContent.slice(0, 40)),
	    sheetLines: ths.map(lines), seatLines: seats.map(lines),
	    sheetTitle: th.title || "", sheetText: th.textContent || "", seatTitle: seat.title || "", seatText: seat.textContent || "",
	    trickHeight: window.__trick.height, trickLine: window.__trick.line,
	    logWide: log.scrollWidth > log.clientWidth ? [...log.querySelectorAll("li")].filter((li) => li.scrollWidth > li.clientWidth).map((li) => li.textContent) : [],
	  };
	})()`)
	t.Logf("%+v", l)
	p.shot("long-name-390x844")
	// (Only what shows the name: at six seats a long row of cards known
	// in a hand can also run past a phone's screen.)
	if len(l.Wide) > 0 {
		t.Errorf("at 390 px with a %d-letter name these run past the screen: %q", len(name), l.Wide)
	}
	for i, n := range l.SheetLines {
		if n != 1 {
			t.Errorf("on the score sheet, seat %d's name is on %d lines; want one", i+1, n)
		}
	}
	for i, n := range l.SeatLines {
		if n != 1 {
			t.Errorf("at seat %d the name is on %d lines; want one", i+1, n)
		}
	}
	if l.SheetText != name || l.SheetTitle != name || l.SeatText != name || l.SeatTitle != name {
		t.Errorf("the whole name %q: the sheet's cell reads %q (title %q), the seat's %q (title %q)", name, l.SheetText, l.SheetTitle, l.SeatText, l.SeatTitle)
	}
	if l.TrickHeight > 2*l.TrickLine+1 {
		t.Errorf("under Ann's card in the trick the name is %.0f px high: more than two lines of %.0f px", l.TrickHeight, l.TrickLine)
	}
	if len(l.LogWide) > 0 {
		t.Errorf("log lines wider than the log: %q", l.LogWide)
	}
}
