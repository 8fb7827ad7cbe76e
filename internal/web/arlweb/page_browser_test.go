package arlweb

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// newSeededEnv is newEnv whose tables all deal from seed (and whose bots
// draw from it too), so a test knows the cards.
func newSeededEnv(tb testing.TB, lim Limits, seed uint64) *env {
	tb.Helper()
	return newSeededEnvWeb(tb, lim, web.Options{}, seed)
}

// choiceSeed finds a deal of a two-seat game in which seat 0 leads first
// and holds a two-card set that fits two spectra (two aces: aces or of a
// kind; a king and queen of one suit: a couple or a run), and returns the
// seed, that set's cards and the spectra in words.
func choiceSeed(tb testing.TB) (seed uint64, cards, spectra []string) {
	tb.Helper()
	for seed := uint64(1); seed < 5000; seed++ {
		s, err := arlington.New(arlington.Config{Players: 2, Target: 3}, seed)
		if err != nil {
			tb.Fatal(err)
		}
		if s.ToMove() != 0 {
			continue
		}
		for _, a := range s.Legal(0) {
			if a.Kind == arlington.PlaySet && a.Set.Jokers() == 0 && a.Set.Len() == 2 && len(arlington.SpectraOf(a.Set)) == 2 {
				for _, c := range a.Set.Cards() {
					cards = append(cards, c.String())
				}
				for _, sp := range arlington.SpectraOf(a.Set) {
					spectra = append(spectra, arlington.SpectrumWords(sp))
				}
				return seed, cards, spectra
			}
		}
	}
	tb.Fatal("no seed below 5000 deals seat 0 a set of two spectra")
	return 0, nil, nil
}

// state is what the test reads off the table page.
type pageState struct {
	Mine, Over bool
	Phase      string
	Sig        string
}

const readState = `(() => ({
  mine: !!document.querySelector("#actions .hint-button"),
  over: !document.getElementById("winners").hidden,
  phase: document.getElementById("status").textContent,
  sig: document.getElementById("status").textContent + "|" + document.querySelectorAll("#log li").length + "|" + document.querySelectorAll("#hand .hand-card").length,
}))()`

// playOn plays the person's turns with the first offered action until
// the game is over (bounded), and says how many times the score sheet
// opened at the top of the page after a hand (closing it each time).
func (p *tab) playOn() (handOvers int) {
	p.t.Helper()
	for range 600 {
		p.wait(`!!document.querySelector("#actions .hint-button") || !document.getElementById("winners").hidden`, "the person's turn or the end")
		var s pageState
		p.eval(readState, &s)
		if s.Over {
			return handOvers
		}
		var shown bool
		p.eval(`(() => { const b = document.getElementById("hand-over"); if (b.hidden) return false;
		  if (!/^Hand \d+ is scored: /.test(document.getElementById("ho-title").textContent) || !document.querySelector("#ho-sheet tbody tr")) return false;
		  document.getElementById("ho-close").click(); return document.getElementById("hand-over").hidden; })()`, &shown)
		if shown {
			handOvers++
		}
		p.eval(readState, &s)
		p.eval(`(() => { const b = document.querySelector("#actions button[data-action]"); b.click(); return 1; })()`, nil)
		p.wait(`(`+readState+`).sig !== `+jsString(s.Sig), "the action to be played")
	}
	p.t.Fatal("no game over after 600 of the person's actions")
	return 0
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBrowserArlingtonPage plays a game to its end on a phone-sized
// screen, against a bot, to a target of 3: the legal cards are
// highlighted; a set of two spectra is offered once per spectrum and the
// player chooses; a selection that is not a set is explained by the
// preview, and playing it anyway is refused by the server naming the
// rule; the log tells the plays in words; after each hand the score
// sheet opens; at the end the winners are announced and the replay steps
// through the game with every hand shown. The page breaks no part of the
// Content-Security-Policy on the way. It takes 20 s or so under -race,
// so -short skips it outside CI. Screenshots:
// internal/web/testdata/artifacts/arlington-*.png.
func TestBrowserArlingtonPage(t *testing.T) {
	t.Parallel()
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("long browser test: skipped with -short outside CI, as the web package's TestBrowserCSP")
	}
	seed, both, spectra := choiceSeed(t)
	e := newSeededEnv(t, Limits{Burst: 10000}, seed)
	a := e.client()
	var tb created
	if code := a.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 3}, &tb); code != 201 {
		t.Fatalf("create: %d", code)
	}
	bctx := startBrowser(t)
	p := newTab(t, bctx, 390, 844)
	csp := watchCSP(p)
	p.do(chromedp.Navigate(e.srv.URL + tb.Link))
	p.wait(`!document.getElementById("join").hidden`, "the join form")
	p.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann"), chromedp.Click(chromedp.CSS("#join-form button")))
	p.wait(`document.querySelector("#actions .hint-button") && document.querySelectorAll("#hand .hand-card").length === 8`, "Ann's first turn")

	// Legal cards are highlighted: with the lead, every card can be led.
	var legal int
	p.eval(`document.querySelectorAll("#hand .hand-card.legal").length`, &legal)
	if legal != 8 {
		t.Errorf("%d of 8 cards highlighted as playable with the lead", legal)
	}
	p.phoneCheck("the table")

	// A set of two spectra: one button each, and the preview says so.
	sel := func(cards ...string) {
		t.Helper()
		p.eval(`(() => { for (const b of document.querySelectorAll("#hand .hand-card[aria-pressed=true]")) b.click(); return 1; })()`, nil)
		for _, c := range cards {
			p.eval(`document.querySelector('#hand .hand-card[data-card="`+c+`"]').click()`, nil)
		}
	}
	sel(both...)
	p.wait(`document.getElementById("preview").textContent.includes("Choose the spectrum when you lead it")`, "the preview of a set of two spectra")
	var choices []string
	p.eval(`[...document.querySelectorAll("#actions button.match")].map((b) => b.textContent)`, &choices)
	if len(choices) != 2 || !strings.HasSuffix(choices[0], "("+spectra[0]+")") || !strings.HasSuffix(choices[1], "("+spectra[1]+")") {
		t.Errorf("the choices for %v: %q, want one lead for each of %q", both, choices, spectra)
	}
	p.shot("arlington-choice-390")

	// Not a set: the preview says why; playing it anyway, the server
	// refuses and names the rule.
	var pair []string
	p.eval(`(() => {
	  const cs = [...document.querySelectorAll("#hand .hand-card")].map((b) => b.dataset.card).filter((c) => c !== "JK");
	  const court = (a, b) => { const r = a[0] + b[0]; return ["KQ", "QK", "QJ", "JQ"].includes(r); };
	  for (const a of cs) for (const b of cs) if (a[0] !== b[0] && a[1] !== b[1] && !court(a, b)) return [a, b];
	  return [];
	})()`, &pair)
	if len(pair) != 2 {
		t.Fatalf("no two cards of different ranks and suits in the hand")
	}
	sel(pair...)
	p.wait(`document.getElementById("preview").textContent.includes("rule")`, "the preview's reason")
	var preview, refusal string
	p.eval(`document.getElementById("preview").textContent`, &preview)
	p.do(chromedp.Click(chromedp.CSS("#btn-try")))
	p.wait(`document.getElementById("error").textContent.includes("rule")`, "the server's refusal naming the rule")
	p.eval(`document.getElementById("error").textContent`, &refusal)
	if !strings.HasPrefix(preview, "Not a set") || !strings.HasPrefix(refusal, "Not allowed: ") {
		t.Errorf("preview %q, refusal %q", preview, refusal)
	}

	// The player chooses the spectrum: leads the set in its second one.
	sel(both...)
	p.wait(`[...document.querySelectorAll("#actions button.match")].length === 2`, "the two choices")
	p.eval(`document.querySelectorAll("#actions button.match")[1].click(); 1`, nil)
	p.wait(`[...document.querySelectorAll("#log li")].some((li) => li.textContent.startsWith("Ann leads the set") && li.textContent.endsWith("(`+spectra[1]+`)."))`, "the log to tell Ann's lead")

	handOvers := p.playOn()

	// The end: the winners, the score sheet, the log in words.
	var end struct {
		Winners, Status string
		SheetRows       int
		SheetOpen       bool
		Log             []string
	}
	p.eval(`({winners: document.getElementById("winners").textContent, status: document.getElementById("status").textContent,
	  sheetRows: document.querySelectorAll("#sheet tbody tr").length, sheetOpen: document.getElementById("sheet-box").open,
	  log: [...document.querySelectorAll("#log li")].map((li) => li.textContent)})`, &end)
	if !strings.HasPrefix(end.Winners, "Game over: ") || !(strings.Contains(end.Winners, " wins with ") || strings.Contains(end.Winners, " share the win with ")) {
		t.Errorf("winners: %q", end.Winners)
	}
	if end.SheetRows < 1 || !end.SheetOpen {
		t.Errorf("score sheet: %d hands, open %v", end.SheetRows, end.SheetOpen)
	}
	// After every hand but the last (the end shows the winners) the sheet
	// opened at the top; Ann's two-card set makes a first hand to 3
	// points likely but not certain, so the count is what the game had.
	if handOvers != end.SheetRows-1 {
		t.Errorf("the score sheet opened after %d hands; the game had %d before its last", handOvers, end.SheetRows-1)
	}
	t.Logf("%d hands", end.SheetRows)
	// Brought onto the screen (the game ending while the player is down at
	// the page's foot), the result comes with the status line above it
	// ("Game over after 2 hands."): scrolled to the result alone, that line
	// sat under the translucent bar, its words blurred through it.
	var at struct{ Y, Status, Result, Bar, Foot float64 }
	p.eval(`(async () => {
	  scrollTo(0, document.documentElement.scrollHeight);
	  (await import("/arlington/onscreen.js")).bringEndIntoView();
	  return { y: scrollY, status: document.getElementById("status").getBoundingClientRect().top,
	    result: document.getElementById("winners").getBoundingClientRect().bottom, bar: document.querySelector(".bar").getBoundingClientRect().bottom,
	    foot: innerHeight };
	})()`, &at)
	if at.Status < at.Bar-0.5 || at.Result > at.Foot+0.5 {
		t.Errorf("the result brought onto the screen from the page's foot: scrolled to %.0f px, the status line's top at %.0f px (the bar's foot at %.0f px) and the result's foot at %.0f px (the window's at %.0f px); want the status line below the bar and the result on the screen",
			at.Y, at.Status, at.Bar, at.Result, at.Foot)
	}
	notation := []string{"lead ", "play ", "set runs", "set multiples", "s2 ", "/"}
	for _, l := range end.Log {
		for _, n := range notation {
			if strings.HasPrefix(l, n) || strings.Contains(l, "/") {
				t.Errorf("the log speaks notation (%q): %q", n, l)
			}
		}
	}
	if len(end.Log) < 3 || !strings.HasPrefix(end.Log[0], "Hand ") || !strings.Contains(end.Log[len(end.Log)-1], "is scored") {
		t.Errorf("the last hand's log: %q", end.Log)
	}
	p.phoneCheck("the end")
	p.shot("arlington-end-390")

	// The replay: from the deal, forward and back, every hand shown.
	p.do(chromedp.Click(chromedp.CSS("#btn-replay")))
	p.wait(`document.getElementById("rp-pos").textContent.startsWith("Step 1 of ")`, "the replay's first step")
	var hands int
	p.eval(`document.querySelectorAll("#rp-seats .rp-hand").length`, &hands)
	if hands != 2 {
		t.Errorf("the replay's deal shows %d hands, want both", hands)
	}
	p.do(chromedp.Click(chromedp.CSS("#rp-next")))
	p.wait(`document.getElementById("rp-pos").textContent.startsWith("Step 2 of ") && document.querySelector("#rp-words li")`, "step 2")
	var step2 string
	p.eval(`document.getElementById("rp-words").textContent`, &step2)
	if !strings.HasPrefix(step2, "Ann leads the set") {
		t.Errorf("step 2 says %q, want Ann's lead", step2)
	}
	p.do(chromedp.Click(chromedp.CSS("#rp-last")))
	p.wait(`document.getElementById("rp-next").disabled && document.getElementById("rp-words").textContent.includes("is scored")`, "the last step")
	p.do(chromedp.Click(chromedp.CSS("#rp-back")))
	p.wait(`!document.getElementById("rp-next").disabled`, "a step back")
	p.phoneCheck("the replay")
	p.shot("arlington-replay-390")
	csp.check(p, "the table page")
}

// TestBrowserArlingtonCSP: the lobby and the table page under the
// server's Content-Security-Policy, on a desktop and a phone screen:
// creating a table through the lobby's form, sitting down and playing a
// few actions breaks no part of it, and a planted violation is seen.
func TestBrowserArlingtonCSP(t *testing.T) {
	t.Parallel()
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("long browser test: skipped with -short outside CI, as the web package's TestBrowserCSP")
	}
	e := newEnv(t, Limits{Burst: 10000})
	bctx := startBrowser(t)
	for _, size := range screens {
		t.Run(size.name, func(t *testing.T) {
			p := newTab(t, bctx, size.w, size.h)
			csp := watchCSP(p)
			p.do(chromedp.Navigate(e.srv.URL + "/arlington/"))
			p.wait(`document.querySelectorAll("#seats select").length === 4 && document.querySelector("#open-tables li")`, "the lobby")
			if size.name == "phone" {
				p.phoneCheck("the lobby")
				p.shot("arlington-lobby-390")
			}
			p.eval(`(() => { const n = document.getElementById("players"); n.value = "2"; n.dispatchEvent(new Event("change")); document.querySelectorAll("#seats select")[1].value = "random"; return 1; })()`, nil)
			p.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann "+size.name), chromedp.Click(chromedp.CSS("#btn-create")))
			p.waitAcross(`location.pathname.startsWith("/arlington/t/") && document.querySelector("#actions .hint-button")`, "the table page with Ann's turn")
			for i := range 3 {
				var s pageState
				p.wait(`!!document.querySelector("#actions .hint-button")`, fmt.Sprintf("turn %d", i))
				p.eval(readState, &s)
				p.eval(`(() => { const b = document.querySelector("#actions button.more"); if (b) b.click(); document.querySelector("#actions button[data-action]").click(); return 1; })()`, nil)
				p.wait(`(`+readState+`).sig !== `+jsString(s.Sig), "the action")
			}
			p.eval(`document.querySelector("#hand .hand-card").click(); 1`, nil)
			p.wait(`document.getElementById("preview").textContent !== ""`, "a preview")
			csp.check(p, "the lobby and table pages")
		})
	}
}
