package spiderweb

// Browser test for the phone's tall cards (docs/page.md: larger cards
// using the empty half of the screen below the tableau).

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// phoneMidPiles are the piles of a position from the middle of a game:
// piles of up to 4 face-down and 10 face-up cards (completeLayout adds the
// stock and the completed suits).
const phoneMidPiles = `
pile1: |5D |6D |7D |8D KS QH JS TH 9S 8H 7S 6H 5S 4H
pile2: |KH |QS |JH 9D 8D 7D 6C 5C
pile3: |AC |2C |3C KD QD JD TD
pile4: |4C |5C 6D 5D 4D 3D 2D
pile5: |9C |TC 4D 3D 2D AD
pile6: |JC |QC |KC 7C
pile7: |8C |9H JC TC 9C
pile8: |TH |JH QC JD
pile9: |KH |2H |3H 6H 5H
pile10: |4H |5H |6S 7H
`

// completeLayout completes a layout of piles with the cards they leave out
// of the two packs: whole suits among them as completed suits, the rest as
// rows in the stock (it must come to whole rows of ten).
func completeLayout(tb testing.TB, piles string) string {
	tb.Helper()
	left := map[string]int{}
	for _, s := range "SHDC" {
		for _, r := range "A23456789TJQK" {
			left[string(r)+string(s)] = 2
		}
	}
	for _, line := range strings.Split(piles, "\n") {
		_, cards, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		for _, f := range strings.Fields(cards) {
			c := strings.TrimPrefix(f, "|")
			if left[c] == 0 {
				tb.Fatalf("completeLayout: %s three times", c)
			}
			left[c]--
		}
	}
	// Whole suits among them go to the completed area, as many as leave
	// whole rows of ten for the stock.
	n := 0
	for _, k := range left {
		n += k
	}
	var whole []string
	for _, s := range "SHDC" {
		for copy := 0; copy < 2; copy++ {
			all := true
			for _, r := range "A23456789TJQK" {
				all = all && left[string(r)+string(s)] > copy
			}
			if all {
				whole = append(whole, string(s))
			}
		}
	}
	c := len(whole)
	for c >= 0 && ((n-13*c)%10 != 0 || n-13*c > 50) {
		c--
	}
	if c < 0 {
		tb.Fatalf("completeLayout: %d cards left, no whole suits and rows of ten make them", n)
	}
	completed := whole[:c]
	for _, s := range completed {
		for _, r := range "A23456789TJQK" {
			left[string(r)+s]--
		}
	}
	var rest []string
	for _, s := range "SHDC" {
		for _, r := range "A23456789TJQK" {
			for range left[string(r)+string(s)] {
				rest = append(rest, string(r)+string(s))
			}
		}
	}
	out := piles
	for i := 0; i*10 < len(rest); i++ {
		out += fmt.Sprintf("row%d: %s\n", i+1, strings.Join(rest[i*10:i*10+10], " "))
	}
	return out + "completed: " + strings.Join(completed, " ") + "\n"
}

// phoneLongPiles has a 25-card pile (5 face down, 20 face up) and a
// 20-card one, the longest a game usually makes, queens and jacks all along.
const phoneLongPiles = `
pile1: |5D |6D |7D |8D |9D KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H AS KD QC JD TC 9C 8C 7C
pile2: KH QS JH TS 9H 8S 7H 6S 5H 4S 3H 2S AH KC QD JC TD 9D 8D 7D
pile3: AC
pile4: KD QD JD TD
pile5: 6D 5D 4D 3D 2D AD
pile6: 4D 3D 2D AD
pile7: 6C 5C 4C 3C 2C
pile8:
pile9:
pile10:
`

// phoneTable is the tableau as measured (on a phone, mostly): a card's size, the steps
// of pile 1 (face down, face up) and how far down the piles reach.
type phoneTable struct {
	CardW, CardH     float64
	DownStep, UpStep float64
	Bottom, Viewport float64
	Tall             bool
}

func (p *browserPage) phoneTable() phoneTable {
	p.t.Helper()
	var m phoneTable
	p.eval(`(() => {
	  const cs = [...document.querySelectorAll("#pile-0 .card")];
	  const down = cs.filter((c) => c.classList.contains("down")), up = cs.filter((c) => c.classList.contains("up"));
	  const r = (c) => c.getBoundingClientRect();
	  return {
	    CardW: r(cs[0]).width, CardH: r(cs[0]).height,
	    DownStep: down.length > 1 ? r(down[1]).top - r(down[0]).top : 0,
	    UpStep: up.length > 1 ? r(up[1]).top - r(up[0]).top : 0,
	    Bottom: Math.max(...[...document.querySelectorAll("#tableau .card")].map((c) => r(c).bottom)),
	    Viewport: innerHeight,
	    Tall: /cardtl-/.test(cs[0].querySelector("use").getAttribute("href")),
	  };
	})()`, &m)
	p.t.Logf("phone tableau: card %.0fx%.0f px, steps %.1f down / %.1f up, bottom %.0f of %.0f px (%.0f%%)",
		m.CardW, m.CardH, m.DownStep, m.UpStep, m.Bottom, m.Viewport, 100*m.Bottom/m.Viewport)
	return m
}

// TestBrowserPhoneCards: on a 390x844 phone held upright the cards are
// taller than the usual 1.4 (ten piles across limit their width, the
// height has room), face-up cards show 44 px of themselves while the
// piles fit, and a 25-card pile still fits without scrolling.
func TestBrowserPhoneCards(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	srv := pageServer(t)
	p := phonePage(t, bctx, srv)

	// The opening deal: tall cards, face-down steps larger than before.
	p.newGameByNumber(617)
	m := p.phoneTable()
	if !m.Tall || m.CardH < 60 || m.CardH < 1.7*m.CardW {
		t.Errorf("opening deal: cards of %.0fx%.0f px (tall faces %v), want tall faces at least 60 px high (1.4 times the width was 49 px)", m.CardW, m.CardH, m.Tall)
	}
	if m.DownStep < 9.5 {
		t.Errorf("opening deal: face-down step %.1f px, want at least 9.5 (16%% of a tall card)", m.DownStep)
	}
	p.noHorizontalScroll()
	p.noVerticalScroll("the opening deal")

	// The middle of a game: the piles reach down into the lower half, each
	// face-up card a 44 px target.
	p.loadLayout(completeLayout(t, phoneMidPiles))
	m = p.phoneTable()
	if m.UpStep < 44 {
		t.Errorf("mid-game: a face-up card shows %.1f px of itself, want 44 px (a fingertip) while the piles fit", m.UpStep)
	}
	if m.Bottom < 0.7*m.Viewport {
		t.Errorf("mid-game: the piles reach %.0f px of the %.0f px screen, want 70%% or more", m.Bottom, m.Viewport)
	}
	p.noHorizontalScroll()
	p.noVerticalScroll("the middle of a game")
	p.shot("phone-390x844-mid-game")

	// A 25-card pile and a 20-card one fit, still tall, every index shown.
	p.loadLayout(completeLayout(t, phoneLongPiles))
	m = p.phoneTable()
	if !m.Tall || m.CardH < 60 {
		t.Errorf("a 25-card pile: cards of %.0fx%.0f px (tall faces %v), want the tall faces still", m.CardW, m.CardH, m.Tall)
	}
	p.noHorizontalScroll()
	p.noVerticalScroll("a 25-card pile")
	p.indexShows("a 25-card pile")
	p.shot("phone-390x844-long-pile")

	// A random deal's long number beside seven completed suits: the area
	// shrinks to leave the number room, and its kings close up to stay
	// inside it (they covered "Deal #" and the first digits).
	path, err := filepath.Abs(filepath.Join("testdata", "phone-completed.txt"))
	if err != nil {
		t.Fatal(err)
	}
	p.loadSaveFile(path)
	var c struct {
		Kings            int
		Right, Box, Deal float64
	}
	p.eval(`(() => { const ks = [...document.querySelectorAll("#completed svg")];
	  return { kings: ks.length, right: Math.max(...ks.map((k) => k.getBoundingClientRect().right)),
	    box: document.querySelector("#completed").getBoundingClientRect().right,
	    deal: document.querySelector("#st-deal").getBoundingClientRect().left }; })()`, &c)
	if c.Kings != 7 || c.Right > c.Box+0.5 || c.Right > c.Deal {
		t.Errorf("7 completed suits beside a long deal number: %d kings reach %.0f px, their area ends at %.0f px and the deal number starts at %.0f px; want the kings inside the area, left of the number",
			c.Kings, c.Right, c.Box, c.Deal)
	}
	p.shot("phone-390x844-completed")

	// The desktop keeps its cards: 100x140 px at 1280x800, the usual faces.
	d := openPage(t, bctx, srv, 1280, 800, chromedp.WithNewBrowserContext())
	d.newGameByNumber(617)
	m = d.phoneTable()
	if m.Tall || m.CardW != 100 || m.CardH != 140 {
		t.Errorf("desktop 1280x800: cards of %.0fx%.0f px (tall faces %v), want 100x140 and the usual faces", m.CardW, m.CardH, m.Tall)
	}
}

// phonePage opens the page as a 390x844 phone (touch, scale 2).
func phonePage(t *testing.T, bctx context.Context, srv *httptest.Server) *browserPage {
	t.Helper()
	p := openPage(t, bctx, srv, 390, 844, chromedp.WithNewBrowserContext())
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	p.load()
	return p
}
