package spiderweb

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// analysisPageServer is pageServer with analyze as its analysis.
func analysisPageServer(tb testing.TB, analyze func(context.Context, *spider.Game) (*Analysis, error)) *httptest.Server {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "cardtable.db"))
	if err != nil {
		tb.Fatal(err)
	}
	sp := New(db, Options{Hint: firstMoveHint, Analyze: analyze})
	srv := httptest.NewServer(web.New(web.Options{Games: []web.Routes{sp}, Adopt: sp.AdoptLegacy}))
	tb.Cleanup(func() {
		srv.Close()
		db.Close()
	})
	return srv
}

// TestBrowserAnalysis: a game is analysed, given up from the Game menu
// (1280x800) or as a named save from the saved-games list (a 390x844
// phone); the page shows its timeline with the last winnable move marked,
// goes to that point and steps through the winning line to the win and
// back, then shows the game again, which takes no more moves and counts as
// lost. The save is then listed as given up, and analysing it again from
// the list shows the timeline again on a new game, closed too.
func TestBrowserAnalysis(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel() // a server and a browser context of its own
			srv := analysisPageServer(t, solverAnalyze)
			p := openPage(t, bctx, srv, size.w, size.h, chromedp.WithNewBrowserContext())
			p.loadSaveFile(writeAutoRemoveLayout(t, finishLayout))
			// The hearts from pile 2 into the space on pile 3: still winnable.
			p.drag(p.cardPoint(1, 7), p.bottomPoint(2))
			p.play(spider.Cards(1, 2, 6))
			p.expect("the hearts moved into a space")
			const save = "Before the analysis"
			p.saveAs(save)

			p.giveUpForAnalysis(size.name, save)
			p.stepThroughLine(size.name)
			// Given up: no more moves, and a loss in the statistics.
			p.closeAnalysisGivenUp(srv.URL, "the game again after the analysis", "giving up")
			p.analyseGivenUpSave(size.name, save)
			p.closeAnalysisGivenUp(srv.URL, "the save's game after its analysis", "analysing the save")
		})
	}
}

// giveUpForAnalysis asks for the analysis of the game played, from the
// Game menu on the desktop or as the save named save from the saved-games
// list on the phone, checks what the confirmation says, gives the game up
// and waits for the timeline (TestBrowserAnalysis).
func (p *browserPage) giveUpForAnalysis(size, save string) {
	t := p.t
	t.Helper()
	if size == "desktop" {
		p.menu("#btn-game-menu", `#menu-game [data-act="analyse"]`)
	} else {
		p.saveAction("Analyse", save)
	}
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
	if txt := p.text("#confirm-text"); !strings.Contains(txt, "hidden cards") || !strings.Contains(txt, "counts as lost") {
		t.Errorf("the confirmation says %q: want the hidden cards and the loss said plainly", txt)
	}
	before := p.gameID()
	p.clickSel("#confirm-yes")
	p.analysisShown()
	if size == "phone" {
		if p.gameID() == before || p.text("#dlg-saves[open]") != "" {
			t.Errorf("the save's analysis left the page on game %s (it was on %s), the list open %v",
				p.gameID(), before, p.text("#dlg-saves[open]") != "")
		}
	}
	if size == "phone" {
		p.fitsPhone()
	}
	p.shot("analysis-timeline-" + size)
}

// stepThroughLine goes to the last winnable move of the analysis shown and
// steps through the line the server found, replayed on the game here, to
// the win, and one step back (TestBrowserAnalysis).
func (p *browserPage) stepThroughLine(size string) {
	t := p.t
	t.Helper()
	a, err := solverAnalyze(context.Background(), p.shadow)
	if err != nil || a.LastWinnable != 1 || len(a.Line) == 0 {
		t.Fatalf("analysis %+v, %v", a, err)
	}
	c := p.shadow.Clone()
	views := []spider.View{c.View(true)}
	for _, m := range a.Line {
		if err := c.Play(m); err != nil {
			t.Fatal(err)
		}
		views = append(views, c.View(true))
	}
	// The game's last move is its last winnable one: it is already there.
	if got := p.text("#an-goto"); got != "Show the winning line" {
		t.Errorf("the button to the last winnable move, the game's last, reads %q, want Show the winning line", got)
	}
	p.clickSel("#an-goto")
	p.showsStep(0, views[0])
	for i := 1; i < len(views); i++ {
		p.clickSel("#an-fwd")
		p.showsStep(i, views[i])
	}
	if !views[len(views)-1].Won || !strings.Contains(p.text("#an-step"), "The game is won.") {
		t.Errorf("the last step (%q) is not the win", p.text("#an-step"))
	}
	var state struct{ FwdDisabled, EndOpen bool }
	p.eval(`({FwdDisabled: document.querySelector("#an-fwd").disabled, EndOpen: document.querySelector("#dlg-end").open})`, &state)
	if !state.FwdDisabled || state.EndOpen {
		t.Errorf("at the win: forward disabled %v, end screen open %v; want true, false", state.FwdDisabled, state.EndOpen)
	}
	p.shot("analysis-won-" + size)
	p.clickSel("#an-back")
	p.showsStep(len(views)-2, views[len(views)-2])
}

// closeAnalysisGivenUp closes the analysis and checks the game shown
// (expect's name what) is given up: its controls are closed, its undo is
// refused, and the statistics at base count one game played, lost (a
// failure says "statistics after" and after).
func (p *browserPage) closeAnalysisGivenUp(base, what, after string) {
	t := p.t
	t.Helper()
	p.recordMessages()
	p.clickSel("#an-close")
	p.waitJS(`document.querySelector("#analysis").hidden`, "the analysis to close")
	p.expect(what)
	p.closedControls()
	// The page says why (the controls were disabled unexplained until
	// a key was pressed or the page loaded again).
	if msgs := p.messagesShown(); !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, "given up for its analysis") }) {
		t.Errorf("the messages shown once the analysis closed (after %s): %q, want why the game takes no moves", after, msgs)
	}
	// Its clock stands, as a won game's does (it ran on, the time climbing
	// with every control disabled).
	p.waitJS(`document.querySelector("#st-time").dataset.running === "0"`, "the game's clock to stand")
	p.keys("u")
	p.refused("given up")
	if st := statsGroup4(p, base); st.Played != 1 || st.Won != 0 {
		t.Errorf("statistics after %s: %+v", after, st)
	}
}

// analyseGivenUpSave checks that the save named save, whose game was given
// up, is listed so, in a list that fits its dialog, and that its analysis
// opens a new game with the same timeline (TestBrowserAnalysis).
func (p *browserPage) analyseGivenUpSave(size, save string) {
	t := p.t
	t.Helper()
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.waitJS(fmt.Sprintf(`[...document.querySelectorAll("#saves-list td")].some((td) => td.textContent === %q)`,
		save+" (given up)"), "the save listed as given up")
	p.shot("analysis-saves-" + size)
	// The list fits its dialog: no sideways scroll on a phone.
	var wide []int
	p.eval(`(() => { const d = document.querySelector("#dlg-saves"); return [d.scrollWidth, d.clientWidth]; })()`, &wide)
	if len(wide) != 2 {
		t.Fatalf("the saved games dialog's widths: %v", wide)
	}
	if wide[0] > wide[1] {
		t.Errorf("the saved games dialog scrolls sideways: content %d px wide in a dialog of %d px", wide[0], wide[1])
	}
	before := p.gameID()
	p.saveAction("Analyse", save)
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
	if txt := p.text("#confirm-text"); !strings.Contains(txt, "given up already") {
		t.Errorf("the confirmation for a given-up save says %q", txt)
	}
	p.clickSel("#confirm-yes")
	p.analysisShown()
	if p.gameID() == before {
		t.Error("the save's analysis did not open its game")
	}
}

// TestBrowserAnalysisClosed: a stuck game (deal 1) analysed from its end
// screen is closed: the confirmation says no more moves, undo included;
// the toolbar offers no undo, redo, deal or restart; a second tab on the
// game learns it when its stale undo is refused; after a reload the end
// screen offers no undo, and "Play this deal again" starts a new game of
// the deal. Then a save's analysis that fails after opening its game
// leaves the page on that game, which is analysed again from the menu.
// The analyser is a stand-in that finds nothing (the analysis itself is
// TestBrowserAnalysis's).
func TestBrowserAnalysisClosed(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	var failNext atomic.Bool
	srv := analysisPageServer(t, func(ctx context.Context, g *spider.Game) (*Analysis, error) {
		if failNext.CompareAndSwap(true, false) {
			return nil, errors.New("solver fault")
		}
		res := make([]string, g.MovesPlayed()+1)
		for i := range res {
			res[i] = "unknown"
		}
		return &Analysis{Results: res, LastWinnable: -1}, nil
	})
	a := openPage(t, bctx, srv, 1280, 800)
	path := filepath.Join(t.TempDir(), "stuck-deal.txt")
	if err := os.WriteFile(path, []byte(stuckDeal1), 0o644); err != nil {
		t.Fatal(err)
	}
	a.loadSaveFile(path)
	if !a.shadow.Stuck() || a.shadow.Deal() != 1 {
		t.Fatal("stuckDeal1 is not a stuck game of deal 1")
	}
	a.waitJS(stuckEndOpen, "the no-moves-left screen")
	// A second tab on the game, its end screen dismissed.
	b := openPage(t, bctx, srv, 1280, 800)
	b.shadow = a.shadow
	if b.gameID() != a.gameID() {
		t.Fatalf("the tabs show games %s and %s", a.gameID(), b.gameID())
	}
	b.waitJS(stuckEndOpen, "tab B's end screen")
	b.keys(kb.Escape)
	b.waitJS(`!document.querySelector("#dlg-end").open`, "tab B's end screen to close")

	a.analyseStuck()

	// Tab B still shows the game open: its undo is refused and it learns.
	b.keys("u")
	b.waitJS(`document.querySelector("#btn-undo").disabled`, "tab B to learn the game was given up")
	b.idle()
	b.closedControls()
	b.expect("tab B after the refused undo")

	closed := a.gameID()
	a.reloadAndPlayAgain(closed)
	a.failedSaveAnalysis(&failNext, closed)
}

// stuckEndOpen is true while the end screen of a stuck game is open.
const stuckEndOpen = `document.querySelector("#dlg-end").open && document.querySelector("#dlg-end-title").textContent === "No moves left"`

// analyseStuck analyses the stuck game from its end screen, checks what
// the confirmation says, closes the analysis and checks the game is closed
// (TestBrowserAnalysisClosed).
func (p *browserPage) analyseStuck() {
	t := p.t
	t.Helper()
	p.clickSel(`#end-buttons [data-end="analyse"]`)
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
	if txt := p.text("#confirm-text"); !strings.Contains(txt, "no more moves") || !strings.Contains(txt, "undo included") {
		t.Errorf("the confirmation for a stuck game says %q: want no more moves, undo included", txt)
	}
	p.clickSel("#confirm-yes")
	p.waitJS(`!document.querySelector("#analysis").hidden`, "the analysis")
	p.clickSel("#an-close")
	p.waitJS(`document.querySelector("#analysis").hidden`, "the analysis to close")
	p.closedControls()
	p.keys("u")
	p.refused("given up")
}

// reloadAndPlayAgain reloads the page on the closed game (id closed):
// the end screen offers no undo, and the deal is played again as a new
// game, open to moves (TestBrowserAnalysisClosed).
func (p *browserPage) reloadAndPlayAgain(closed string) {
	t := p.t
	t.Helper()
	p.load()
	p.waitJS(stuckEndOpen, "the end screen after a reload")
	var end struct {
		Undo, Again bool
		Text, Label string
	}
	p.eval(`(() => { const q = (s) => document.querySelector(s);
	  return {Undo: !q('#end-buttons [data-end="undo"]').hidden, Again: !q('#end-buttons [data-end="restart"]').hidden,
	    Text: q("#end-text").textContent, Label: q('#end-buttons [data-end="restart"]').textContent}; })()`, &end)
	if end.Undo || strings.Contains(end.Text, "Undo") || !end.Again || end.Label != "Play this deal again" {
		t.Errorf("the end screen of the closed game: %+v", end)
	}
	p.shot("analysis-closed-end")
	p.clickSel(`#end-buttons [data-end="restart"]`)
	p.waitJS(fmt.Sprintf(`sessionStorage.getItem("cardtable.spider.game") !== %q`, closed), "a new game of the deal")
	g, err := spider.NewGame(1, spider.Options{Variant: spider.Spider, Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	p.shadow = g
	p.expect("deal 1 again")
	var open bool
	p.eval(`!document.querySelector("#btn-deal").disabled && !document.querySelector("#btn-restart").disabled`, &open)
	if !open {
		t.Error("the new game of the deal is not open to moves")
	}
}

// failedSaveAnalysis saves the game shown and analyses the save with the
// analyser failing (failNext) after the save's game is opened: the page
// shows that game (given up, neither the one saved nor closed), which the
// Game menu analyses again (TestBrowserAnalysisClosed).
func (p *browserPage) failedSaveAnalysis(failNext *atomic.Bool, closed string) {
	t := p.t
	t.Helper()
	const save = "Fresh deal"
	p.saveAs(save)
	fresh := p.gameID()
	failNext.Store(true)
	p.saveAction("Analyse", save)
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
	p.clickSel("#confirm-yes")
	p.waitJS(`(document.body.dataset.lastError || "") !== ""`, "the failure said")
	p.idle()
	if id := p.gameID(); id == fresh || id == closed {
		t.Fatalf("after the failed analysis the page shows game %s, not the save's new game", id)
	}
	p.closedControls()
	p.menu("#btn-game-menu", `#menu-game [data-act="analyse"]`)
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
	if txt := p.text("#confirm-text"); !strings.Contains(txt, "given up already") {
		t.Errorf("the confirmation for the opened game says %q", txt)
	}
	p.clickSel("#confirm-yes")
	p.waitJS(`!document.querySelector("#analysis").hidden`, "the analysis, again")
}

// closedControls checks that the toolbar offers no command a game given
// up takes no more: undo, redo, deal, restart (and the menu's restart),
// nor a hint at a move it would refuse.
func (p *browserPage) closedControls() {
	p.t.Helper()
	var enabled []string
	p.eval(`["#btn-undo", "#btn-redo", "#btn-deal", "#btn-restart", "#btn-hint", '#menu-game [data-act="restart"]']
	  .filter((s) => !document.querySelector(s).disabled)`, &enabled)
	if len(enabled) > 0 {
		p.t.Errorf("a given-up game offers %v", enabled)
	}
}

// stuckDeal1 is deal 1 of Spider (4 suits) played until no move is left
// (found by random play; 28 moves, the stock dealt).
const stuckDeal1 = `cardtable spider 1
variant: spider
suits: 4
open: no
relaxed: no
autoremove: no
cheat: none
deal: 1
cheated: no
stopped: no
position: 28
moves: 28
move 10 5 1
move 4 8 1
move 2 8 1
move 5 10 1
move 10 5 1
deal
deal
move 5 9 1
move 4 9 1
deal
move 6 2 1
move 6 8 1
deal
move 4 1 1
move 6 5 1
deal
move 7 4 1
move 6 5 1
move 6 2 1
move 9 6 1
move 4 8 1
move 9 3 1
move 4 6 1
move 1 8 1
move 5 8 1
move 2 8 1
move 10 2 1
move 2 5 2
`

// analysisShown waits for the analysis panel of the game played in
// TestBrowserAnalysis and checks its timeline: moves 0 and 1 winnable, 1
// the last.
func (p *browserPage) analysisShown() {
	p.t.Helper()
	p.waitJS(`!document.querySelector("#analysis").hidden`, "the analysis")
	p.idle()
	var marks []string
	p.eval(`[...document.querySelectorAll("#an-timeline .pt")].map((e) => e.className + "|" + e.getAttribute("aria-label"))`, &marks)
	want := []string{"pt winnable|After move 0: winnable", "pt winnable last|After move 1: winnable"}
	if !reflect.DeepEqual(marks, want) {
		p.t.Errorf("timeline %q, want %q", marks, want)
	}
	if txt := p.text("#an-ranges"); !strings.Contains(txt, "winnable: moves 0 to 1") {
		p.t.Errorf("the timeline in words: %q", txt)
	}
}

// saveAs saves the page's game under name from the saved-games dialog,
// and closes it.
func (p *browserPage) saveAs(name string) {
	p.t.Helper()
	p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	p.waitJS(`document.querySelector("#dlg-saves").open`, "the saved games dialog")
	p.eval(`document.querySelector("#save-name").value = ""`, nil)
	p.do(chromedp.SendKeys(chromedp.CSS("#save-name"), name))
	p.clickSel(`#form-save button[type=submit]`)
	p.savesListed(name)
	p.clickSel(`#dlg-saves [data-close]`)
	p.waitJS(`!document.querySelector("#dlg-saves").open`, "the saved games dialog to close")
}

// saveAction clicks the button act ("Open", "Analyse", "Delete") of save
// name in the saved-games list, opening the list if it is closed.
func (p *browserPage) saveAction(act, name string) {
	p.t.Helper()
	var open bool
	p.eval(`document.querySelector("#dlg-saves").open`, &open)
	if !open {
		p.menu("#btn-game-menu", `#menu-game [data-act="saves"]`)
	}
	p.savesListed(name)
	p.clickSel(fmt.Sprintf(`#saves-list button[aria-label=%q]`, act+" "+name))
}

// savesListed waits until the saved-games list has finished refreshing
// (no request of it under way) and lists the save name: a button found
// before the refresh ends may be replaced under the click.
func (p *browserPage) savesListed(name string) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`document.querySelector("#saves-list").getAttribute("aria-busy") === "false" &&
	  !!document.querySelector(%q)`, fmt.Sprintf(`#saves-list button[aria-label=%q]`, "Open "+name)), "the refreshed list with "+name)
}

// showsStep waits until the page shows step i of the analysis's line, v.
func (p *browserPage) showsStep(i int, v spider.View) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`document.body.dataset.review === "%d"`, i), fmt.Sprintf("step %d", i))
	want := domOf(v)
	deadline := time.Now().Add(webtest.StepTimeout)
	for {
		got := p.dom()
		if reflect.DeepEqual(got, want) {
			return
		}
		if time.Now().After(deadline) {
			p.shot("mismatch-" + strings.ReplaceAll(p.t.Name(), "/", "-"))
			p.t.Fatalf("step %d: the page shows\n%+v\nwant\n%+v", i, got, want)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// fitsPhone checks that the analysis panel fits a phone's screen and its
// buttons are touch targets of at least 44 px.
func (p *browserPage) fitsPhone() {
	p.t.Helper()
	p.noHorizontalScroll()
	var r struct {
		Right, Width, Bottom, Height float64
		Small                        []string
	}
	p.eval(`(() => {
	  const a = document.querySelector("#analysis").getBoundingClientRect();
	  const small = [...document.querySelectorAll("#analysis button:not([hidden])")]
	    .filter((b) => { const r = b.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
	    .map((b) => b.id);
	  return {Right: a.right, Width: innerWidth, Bottom: a.bottom, Height: innerHeight, Small: small};
	})()`, &r)
	if r.Right > r.Width || r.Bottom > r.Height {
		p.t.Errorf("the analysis panel (right %v, bottom %v) leaves the %vx%v screen", r.Right, r.Bottom, r.Width, r.Height)
	}
	if len(r.Small) > 0 {
		p.t.Errorf("analysis buttons under 44 px: %v", r.Small)
	}
}

// TestLongBrowserAnalysisStepKept: a tab shown again (visibilitychange) while
// it shows a step of the analysis keeps that step on the table; the
// game's own position comes back with "Back to the game". Before, the tab
// put the game's position under the panel, which still named the step.
func TestLongBrowserAnalysisStepKept(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := analysisPageServer(t, solverAnalyze)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.loadSaveFile(writeAutoRemoveLayout(t, finishLayout))
	p.drag(p.cardPoint(1, 7), p.bottomPoint(2))
	p.play(spider.Cards(1, 2, 6))
	p.expect("the hearts moved into a space")
	p.menu("#btn-game-menu", `#menu-game [data-act="analyse"]`)
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
	p.clickSel("#confirm-yes")
	p.analysisShown()

	a, err := solverAnalyze(context.Background(), p.shadow)
	if err != nil || len(a.Line) == 0 {
		t.Fatalf("analysis %+v, %v", a, err)
	}
	c := p.shadow.Clone()
	if err := c.Play(a.Line[0]); err != nil {
		t.Fatal(err)
	}
	p.clickSel("#an-goto")
	p.clickSel("#an-fwd")
	p.showsStep(1, c.View(true))
	// The tab is shown again, as when the player comes back to it.
	p.eval(`document.dispatchEvent(new Event("visibilitychange")), 1`, nil)
	p.idle()
	p.showsStep(1, c.View(true))

	p.clickSel("#an-close")
	p.waitJS(`document.querySelector("#analysis").hidden`, "the analysis to close")
	p.expect("the game again after the analysis")
}

// TestLongBrowserGivenUpResumed: a game given up for its analysis, shown again
// by a reload, says why its controls are disabled; before, the toolbar
// came back greyed out without a word until a gesture was refused.
func TestLongBrowserGivenUpResumed(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := analysisPageServer(t, unknownAnalysis)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	var code int
	p.eval(`fetch("/api/games/" + sessionStorage.getItem("cardtable.spider.game") + "/analysis",
	  {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"giveUp": true}'}).then((r) => r.status)`, &code)
	if code != 200 {
		t.Fatalf("giving the game up: %d", code)
	}
	p.load()
	p.waitJS(`!document.querySelector("#toast").hidden`, "a message on the given-up game")
	if msg := p.text("#toast .msg"); !strings.Contains(msg, "given up") || !strings.Contains(msg, "no more moves") {
		t.Errorf("the page says %q; want that the game was given up and takes no more moves", msg)
	}
	p.closedControls()
}

// TestBrowserAnalysisSureness: the panel says how sure the answer is, in
// words: the band of moves left unknown and the time limit that left it
// open, or the exact move that lost the game.
func TestBrowserAnalysisSureness(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	var calls atomic.Int32
	srv := analysisPageServer(t, func(ctx context.Context, g *spider.Game) (*Analysis, error) {
		exact := calls.Add(1) == 2
		n := g.MovesPlayed()
		a := &Analysis{LastWinnable: 1, Results: make([]string, n+1), StoppedBy: "time", TimeLimit: 20 * time.Second}
		for i := range a.Results {
			switch {
			case i <= 1:
				a.Results[i] = "winnable"
			case exact || i >= n-1:
				a.Results[i] = "lost"
			default:
				a.Results[i] = "unknown"
			}
		}
		return a, nil
	})
	p := openPage(t, bctx, srv, 1280, 800)
	dir := t.TempDir()
	n := 0
	for i, want := range []func(n int) string{
		func(n int) string {
			return fmt.Sprintf("Lost somewhere between moves 1 and %d: the analysis could not decide within 20 s (moves 2 to %d are unknown).", n-1, n-2)
		},
		func(int) string { return "Lost at move 2 (exact): the game could still be won after move 1" },
	} {
		// A file of another name each time: choosing the same file again
		// is no change for the file input.
		path := filepath.Join(dir, fmt.Sprintf("stuck-deal-%d.txt", i))
		if err := os.WriteFile(path, []byte(stuckDeal1), 0o644); err != nil {
			t.Fatal(err)
		}
		p.loadSaveFile(path)
		n = p.shadow.MovesPlayed()
		p.waitJS(stuckEndOpen, "the no-moves-left screen")
		p.clickSel(`#end-buttons [data-end="analyse"]`)
		p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
		p.clickSel("#confirm-yes")
		p.waitJS(`!document.querySelector("#analysis").hidden`, "the analysis")
		got := p.text("#an-summary")
		if w := want(n); !strings.Contains(got, w) {
			t.Errorf("the panel says %q, want %q", got, w)
		}
		if strings.Contains(got, "exact") != (calls.Load() == 2) {
			t.Errorf("the panel says %q: exact only for the exact answer", got)
		}
		p.clickSel("#an-close")
		p.waitJS(`document.querySelector("#analysis").hidden`, "the analysis to close")
	}
	if calls.Load() != 2 {
		t.Fatalf("%d analyses, want 2", calls.Load())
	}
}
