package spiderweb

// Browser test helpers for the game the page shows: a shadow spider.Game
// plays every move the test makes through the page, and after each step
// the page's tableau, the server's view and the shadow's view must agree.
// Also the constructed positions the tests load, and the server's answers
// read as the page's player.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// gameID is the id of the game the page shows.
func (p *browserPage) gameID() string {
	p.t.Helper()
	var id string
	p.eval(`sessionStorage.getItem("cardtable.spider.game") || ""`, &id)
	if id == "" {
		p.t.Fatal("the page has no game id")
	}
	return id
}

// serverView asks the server for the page's game.
func (p *browserPage) serverView() spider.View {
	p.t.Helper()
	return getJSON[gameResponse](p, p.srv.URL+"/api/games/"+p.gameID()).View
}

type domPile struct {
	Down int      `json:"down"`
	Up   []string `json:"up"`
}

type domState struct {
	Piles     []domPile `json:"piles"`
	Moves     string    `json:"moves"`
	Score     string    `json:"score"`
	Deal      string    `json:"deal"`
	Stock     string    `json:"stock"`
	Completed int       `json:"completed"`
}

const domJS = `(() => ({
  piles: [...document.querySelectorAll("#tableau .pile")].map((p) => ({
    down: p.querySelectorAll(".card.down").length,
    up: [...p.querySelectorAll(".card.up")].map((c) => c.dataset.card),
  })),
  moves: document.querySelector("#st-moves").textContent,
  // "W" marks the Windows Spider score, when the player chose it
  score: (document.querySelector("#st-score-label").textContent === "Windows score" ? "W" : "") + document.querySelector("#st-score").textContent,
  deal: document.querySelector("#st-deal").textContent,
  stock: document.querySelector("#stock .stock-count").textContent,
  completed: document.querySelectorAll("#completed svg").length,
}))()`

func (p *browserPage) dom() domState {
	p.t.Helper()
	var d domState
	p.eval(domJS, &d)
	return d
}

// domOf is what the page should show for view v.
func domOf(v spider.View) domState {
	d := domState{Moves: fmt.Sprint(v.Moves), Score: fmt.Sprint(v.Score), Stock: fmt.Sprint(v.Stock / 10), Completed: len(v.Completed)}
	d.Deal = "Custom deal"
	if v.Deal != 0 {
		d.Deal = fmt.Sprintf("Deal #%d", v.Deal)
	}
	for _, pl := range v.Piles {
		up := pl.Up
		if up == nil {
			up = []string{}
		}
		d.Piles = append(d.Piles, domPile{Down: pl.Down, Up: up})
	}
	return d
}

// expect waits until the page shows the shadow game's view and checks that
// the server holds the same.
func (p *browserPage) expect(what string) {
	p.t.Helper()
	want := p.shadow.View(false)
	wantDOM := domOf(want)
	deadline := time.Now().Add(webtest.StepTimeout)
	for {
		got := p.dom()
		if strings.HasPrefix(got.Score, "W") {
			wantDOM.Score = fmt.Sprint("W", want.Breakdown.Windows)
		}
		if reflect.DeepEqual(got, wantDOM) {
			break
		}
		if time.Now().After(deadline) {
			p.shot("mismatch-" + strings.ReplaceAll(p.t.Name(), "/", "-"))
			p.t.Fatalf("%s: the page shows\n%+v\nwant\n%+v", what, got, wantDOM)
		}
		time.Sleep(40 * time.Millisecond)
	}
	p.idle()
	// Cards that fly are not where they land yet: let them land before the
	// next gesture aims at them.
	p.waitJS(`document.getAnimations().length === 0`, "the animations to end")
	if got := p.serverView(); !reflect.DeepEqual(got, want) {
		p.t.Fatalf("%s: the server has\n%+v\nwant\n%+v", what, got, want)
	}
}

// play applies m to the shadow game; the page must then show the result.
func (p *browserPage) play(m spider.Move) {
	p.t.Helper()
	if err := p.shadow.Play(m); err != nil {
		p.t.Fatalf("shadow %v: %v", m, err)
	}
}

// refused checks that the last action was refused with a message containing
// want and changed nothing.
func (p *browserPage) refused(want string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`(document.body.dataset.lastError || "").includes(%q)`, want), "the refusal "+want)
	p.eval(`delete document.body.dataset.lastError`, nil)
	p.expect("after a refused move")
}

// newGameByNumber starts deal n through the New game dialog.
func (p *browserPage) newGameByNumber(n uint64) {
	p.t.Helper()
	p.clickSel("#btn-new")
	p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
	// Settings are the player's, shared by the browser's tabs: set each option.
	p.eval(`(() => { const f = document.querySelector("#form-new");
	  for (const k of ["open", "relaxed", "autoRemove", "winnable"]) f[k].checked = false;
	  f.cheat.value = "none"; return 1; })()`, nil)
	p.step("filling in the new game dialog",
		chromedp.SendKeys(chromedp.CSS("#new-deal"), fmt.Sprint(n)),
		chromedp.Click(chromedp.CSS(`#form-new input[name=variant][value=arachnid]`)),
		chromedp.Click(chromedp.CSS(`#form-new input[name=suits][value="4"]`)),
		chromedp.Click(chromedp.CSS("#new-start")),
	)
	p.waitJS(`!document.querySelector("#dlg-new").open`, "the new game dialog to close")
	g, err := spider.NewGame(n, spider.Options{Variant: spider.Arachnid, Suits: 4})
	if err != nil {
		p.t.Fatal(err)
	}
	p.shadow = g
	p.expect(fmt.Sprintf("new game %d", n))
}

// layoutSave builds a save file for a custom position.
func layoutSave(tb testing.TB, layout string) string {
	tb.Helper()
	pos, err := spider.ParseLayout(layout, spider.Rules{Suits: 4})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := spider.NewGameAt(pos, spider.Options{Variant: spider.Arachnid, Suits: 4})
	if err != nil {
		tb.Fatal(err)
	}
	return g.Save()
}

// spaceLayout has six spaces, so dealing is refused; a complete diamond run
// stands on pile 1 and a club run to split on pile 2.
const spaceLayout = `
pile1: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
pile2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
pile3: AC
pile4: 3D 2D AD
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
row1: KD QD JD TD 9D 8D 7D 6D 5D 4D
completed: S S H H C
`

// nearWonLayout is two moves from a win: remove the clubs on pile 1, then put
// the ace of clubs on the two.
const nearWonLayout = `
pile1: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
pile2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
pile3: AC
pile4:
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
completed: S S H H D D
`

// stuckLayout has no move left: no spaces, an empty stock, and no bottom
// card one rank below another.
const stuckLayout = `
pile1: |QC |QD KC
pile2: |TC |TD KD
pile3: |8C |8D JC
pile4: |6C |6D JD
pile5: |4C |4D 9C
pile6: |3C |3D 9D
pile7: |2C |2D 7C
pile8: |AC |AD 7D
pile9: 5C
pile10: 5D
completed: S S H H D C
`

// noEndScreen checks that no end screen is showing: "no moves left" only
// when true. The page marks each view it draws with data-over (1 when the
// view ends the game, which schedules the end screen); with "0" on the view
// the test expects, no end screen is coming, so nothing needs waiting out.
func (p *browserPage) noEndScreen() {
	p.t.Helper()
	p.idle()
	var over string
	p.eval(`document.body.dataset.over || ""`, &over)
	if over != "0" {
		p.t.Errorf("the page marks the game over (data-over=%q) while moves are left", over)
	}
	var open bool
	p.eval(`document.querySelector("#dlg-end").open`, &open)
	if open {
		p.t.Errorf("an end screen (%q) shows while moves are left", p.text("#dlg-end-title"))
	}
}

// loadLayout loads a save file of a constructed position (a layout, see
// layoutSave) through the page's file input, as loadSaveFile does.
func (p *browserPage) loadLayout(layout string) {
	p.t.Helper()
	p.loadSaveFile(writeLayout(p.t, layout))
}

// loadSaveFile loads a save file through the page's file input (what the
// Game menu's "Load from a file" opens) and sets the shadow to it.
func (p *browserPage) loadSaveFile(path string) {
	p.t.Helper()
	before := p.gameID()
	p.step("choosing the save file", chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{path}))
	p.waitJS(fmt.Sprintf(`sessionStorage.getItem("cardtable.spider.game") !== %q`, before), "the loaded game")
	text, err := os.ReadFile(path)
	if err != nil {
		p.t.Fatal(err)
	}
	g, err := spider.Load(string(text))
	if err != nil {
		p.t.Fatal(err)
	}
	g.MarkLoaded()
	p.shadow = g
	p.expect("after loading " + filepath.Base(path))
}

func waitDownload(tb testing.TB, dir string) string {
	tb.Helper()
	deadline := time.Now().Add(webtest.StepTimeout)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".txt") {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err == nil && len(b) > 0 {
					os.Remove(filepath.Join(dir, e.Name()))
					return string(b)
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.Fatal("no save file was downloaded")
	return ""
}

// getJSON reads url as the page's player: with the browser's identity
// cookie, which the page itself cannot read (HttpOnly).
func getJSON[T any](p *browserPage, url string) T {
	tb := p.t
	tb.Helper()
	var v T
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	sctx, cancel := context.WithTimeout(p.ctx, webtest.StepTimeout)
	defer cancel()
	res, err := chromedp.Run(sctx, func(ctx context.Context, tg *chromedp.Target) (network.GetCookiesResult, error) {
		return cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{url}})
	})
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range res.Cookies {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	resp, err := (&http.Client{Timeout: webtest.StepTimeout}).Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %s %s", url, resp.Status, b)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		tb.Fatal(err)
	}
	return v
}

// statsGroup4 is the server's statistics for Arachnid with four suits.
func statsGroup4(p *browserPage, base string) statsGroup {
	tb := p.t
	tb.Helper()
	r := getJSON[struct {
		Groups []statsGroup `json:"groups"`
	}](p, base+"/api/stats")
	for _, g := range r.Groups {
		if g.Variant == "arachnid" && g.Suits == 4 {
			return g
		}
	}
	tb.Fatal(errors.New("no arachnid 4-suit statistics group"))
	return statsGroup{}
}
