package spiderweb

// Browser tests for how playing the Spider page feels: input
// that straddles a redraw, long piles, auto-complete, the win, the phone
// layout and the card faces. They reuse browser_test.go's page helpers.

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/spider"
	"cardtable/spider/solver"
)

// otherTab plays cmd on the page's game as another tab of the same player
// would (the same cookie), without the page knowing.
func (p *browserPage) otherTab(cmd string) {
	p.t.Helper()
	var status int
	p.eval(fmt.Sprintf(`fetch("/api/games/" + encodeURIComponent(sessionStorage.getItem("cardtable.spider.game")) + "/commands",
	  { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ cmd: %q }) }).then((r) => r.status)`, cmd), &status)
	if status != 200 {
		p.t.Fatalf("another tab's %q: status %d", cmd, status)
	}
}

// catchUp makes the page fetch its game and redraw, as it does when the
// player comes back to its tab.
func (p *browserPage) catchUp() {
	p.t.Helper()
	p.eval(`document.dispatchEvent(new Event("visibilitychange")), 1`, nil)
}

func (p *browserPage) mouse(typ input.DispatchMouseEventType, pt point) {
	p.t.Helper()
	p.do(chromedp.MouseEvent(typ, pt.X, pt.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
}

// writeLayout writes a save file of a constructed position and returns its path.
func writeLayout(tb testing.TB, layout string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "layout.txt")
	if err := os.WriteFile(path, []byte(layoutSave(tb, layout)), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// longPileLayout has a 25-card pile of 5 face-down and 20 face-up cards and
// one of 25 face-up cards, with queens and jacks all along them.
const longPileLayout = `
pile1: |5D |6D |7D |8D |9D KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H AS KD QC JD TC 9C 8C 7C
pile2: KH QS JH TS 9H 8S 7H 6S 5H 4S 3H 2S AH KC QD JC TD 9D 8D 7D 6C 5C 4C 3C 2C
pile3: AC
pile4: KD QD JD TD
pile5: 6D 5D 4D 3D 2D AD
pile6: 4D 3D 2D AD
pile7:
pile8:
pile9:
pile10:
completed: S H C
`

// indexJS measures, for every face-up card covered by the next card of its
// pile, the strip of it that shows and how far down its index reaches: the
// rank's ink (the glyphs as drawn, the tail of a Q included, measured by a
// canvas in the card's font) and the suit sign beside it.
const indexJS = `(() => {
  const g = document.createElement("canvas").getContext("2d");
  const out = [];
  for (const pile of document.querySelectorAll("#tableau .pile")) {
    const cards = [...pile.querySelectorAll(".card")];
    for (let i = 0; i + 1 < cards.length; i++) {
      const c = cards[i];
      if (!c.dataset.card) continue;
      const sym = document.querySelector(c.querySelector("use").getAttribute("href"));
      const text = sym.querySelector("text");
      const r = c.getBoundingClientRect();
      const scale = r.width / 200;
      // the tall faces stretch the index upwards: scale(1 sy)
      const sy = +((text.getAttribute("transform") || "").match(/scale\(1[ ,]+([0-9.]+)\)/) || [0, 1])[1];
      g.font = text.getAttribute("font-weight") + " " + (+text.getAttribute("font-size") * scale) + "px " + text.getAttribute("font-family");
      const m = g.measureText(text.textContent);
      const pip = sym.querySelector("use");
      out.push({
        Card: c.dataset.card,
        Ink: (+text.getAttribute("y") * scale + m.actualBoundingBoxDescent) * sy,
        Pip: (+pip.getAttribute("y") + +pip.getAttribute("height")) * scale,
        Visible: cards[i + 1].getBoundingClientRect().top - r.top,
      });
    }
  }
  return out;
})()`

type indexStrip struct {
	Card              string
	Ink, Pip, Visible float64
}

// indexShows checks that every covered face-up card shows its whole index.
func (p *browserPage) indexShows(what string) {
	p.t.Helper()
	var strips []indexStrip
	p.eval(indexJS, &strips)
	if len(strips) < 40 {
		p.t.Fatalf("%s: measured %d covered cards, want the long piles' 40 or more", what, len(strips))
	}
	for _, s := range strips {
		if s.Ink > s.Visible || s.Pip > s.Visible {
			p.t.Errorf("%s: %s shows %.1f px of itself, but its index reaches %.1f px (rank) and %.1f px (suit)", what, s.Card, s.Visible, s.Ink, s.Pip)
		}
	}
}

// noVerticalScroll checks that the page is no taller than the window.
func (p *browserPage) noVerticalScroll(what string) {
	p.t.Helper()
	var over float64
	p.eval(`document.documentElement.scrollHeight - window.innerHeight`, &over)
	if over > 0 {
		p.t.Errorf("%s: the page scrolls by %v px", what, over)
	}
}

func TestBrowserSpiderPage(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	// The parts run side by side, each on a server of its own and, but
	// for the first, in a browser context of its own: a player's game is
	// theirs alone, and no part waits on another's.
	t.Run("input during a redraw", func(t *testing.T) {
		t.Parallel()
		srv := pageServer(t)
		p := openPage(t, bctx, srv, 1280, 800)
		p.newGameByNumber(617)
		// Deal 617 opens 9C 2C 2D TH JC QD 5S 3S 3D 4D. The button goes down
		// on the nine of clubs; another tab's move redraws the table; the
		// release still picks the nine up.
		nine := p.bottomPoint(0)
		p.mouse(input.DispatchMouseEventTypeMousePressed, nine)
		p.otherTab("move 5 6")
		p.play(spider.Cards(4, 5, 1))
		p.catchUp()
		p.expect("another tab's move, drawn while the button is down")
		p.mouse(input.DispatchMouseEventTypeMouseReleased, nine)
		p.waitJS(`document.querySelectorAll("#pile-0 .card.selected").length === 1`, "the nine picked up by a click that straddled a redraw")
		p.click(p.bottomPoint(3))
		p.play(spider.Cards(0, 3, 1))
		p.expect("9C onto TH")

		// The stock: pressed, redrawn, released: it deals.
		stock := p.elementPoint("#stock")
		p.mouse(input.DispatchMouseEventTypeMousePressed, stock)
		p.otherTab("move 8 10")
		p.play(spider.Cards(7, 9, 1))
		p.catchUp()
		p.expect("another tab's move, drawn while the stock is pressed")
		p.mouse(input.DispatchMouseEventTypeMouseReleased, stock)
		p.play(spider.DealMove)
		p.expect("a deal by a click on the stock that straddled a redraw")
	})

	t.Run("phone stock tap during a redraw", func(t *testing.T) {
		t.Parallel()
		srv := pageServer(t)
		p := openPage(t, bctx, srv, 390, 844, chromedp.WithNewBrowserContext())
		p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
		p.load()
		p.newGameByNumber(617)
		stock := p.elementPoint("#stock")
		p.touch(input.DispatchTouchEventTypeTouchStart, stock)
		p.otherTab("move 5 6")
		p.play(spider.Cards(4, 5, 1))
		p.catchUp()
		p.expect("another tab's move, drawn while a finger is on the stock")
		p.touch(input.DispatchTouchEventTypeTouchEnd)
		p.play(spider.DealMove)
		p.expect("a deal by a tap on the stock that straddled a redraw")
	})

	t.Run("long piles", func(t *testing.T) {
		t.Parallel()
		srv := pageServer(t)
		for _, size := range []struct {
			name  string
			w, h  int64
			phone bool
		}{{"desktop-1280x800", 1280, 800, false}, {"phone-390x844", 390, 844, true}} {
			t.Run(size.name, func(t *testing.T) {
				p := openPage(t, bctx, srv, size.w, size.h, chromedp.WithNewBrowserContext())
				if size.phone {
					p.do(chromedp.EmulateViewport(size.w, size.h, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
					p.load()
				}
				p.loadLayout(longPileLayout)
				p.noVerticalScroll("two 25-card piles")
				p.indexShows("two 25-card piles")
				p.shot("long-piles-" + size.name)
			})
		}
	})

	t.Run("finish", func(t *testing.T) {
		t.Parallel()
		testFinish(t, bctx)
	})
	t.Run("phone", func(t *testing.T) {
		t.Parallel()
		testPhone(t, bctx, pageServer(t))
	})
	t.Run("card faces", func(t *testing.T) {
		t.Parallel()
		testCardFaces(t, bctx, pageServer(t))
	})
}

// solverHint is the server's real hint (the solver), as cardtable serve has it.
func solverHint(ctx context.Context, g *spider.Game) (spider.Move, error) {
	m, err := solver.Hint(ctx, g)
	if errors.Is(err, solver.ErrNoMove) {
		return m, fmt.Errorf("%w: %v", ErrNoMove, err)
	}
	return m, err
}

// solverPageServer is pageServer with the solver's hints.
func solverPageServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "cardtable.db"))
	if err != nil {
		tb.Fatal(err)
	}
	sp := New(db, Options{Hint: solverHint})
	srv := httptest.NewServer(web.New(web.Options{Games: []web.Routes{sp}, Adopt: sp.AdoptLegacy}))
	tb.Cleanup(func() {
		srv.Close()
		db.Close()
	})
	return srv
}

// finishLayout has every card face up and the stock dealt: three moves win
// (the heart run into a space, the spades home, the hearts home), each
// completed suit removed at once.
const finishLayout = `
pile1: KH QH JH TH 9H 8H 7H 6S 5S 4S 3S 2S AS
pile2: KS QS JS TS 9S 8S 7S 6H 5H 4H 3H 2H AH
pile3:
pile4:
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
completed: C C D D S H
`

// writeAutoRemoveLayout writes a save file of layout with completed suits
// removed automatically.
func writeAutoRemoveLayout(tb testing.TB, layout string) string {
	tb.Helper()
	pos, err := spider.ParseLayout(layout, spider.Rules{Suits: 4})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := spider.NewGameAt(pos, spider.Options{Variant: spider.Arachnid, Suits: 4, AutoRemove: true})
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "finish.txt")
	if err := os.WriteFile(path, []byte(g.Save()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// testFinish: Finish, the win celebration, sounds, reduced motion.
func testFinish(t *testing.T, bctx context.Context) {
	srv := solverPageServer(t)

	t.Run("finish, celebration and sounds", func(t *testing.T) {
		p := openPage(t, bctx, srv, 1280, 800, chromedp.WithNewBrowserContext())
		// A new player's games remove completed suits automatically.
		p.clickSel("#btn-new")
		p.waitJS(`document.querySelector("#dlg-new").open`, "the new game dialog")
		var autoRemove bool
		p.eval(`document.querySelector("#form-new").autoRemove.checked`, &autoRemove)
		if !autoRemove {
			t.Error("the New game dialog does not remove completed suits automatically by default")
		}
		p.clickSel(`#form-new [data-close]`)
		p.menu("#btn-cards-menu", `#menu-cards [data-set="sound"]`)
		p.waitJS(`document.querySelector('[data-set="sound"]').getAttribute("aria-checked") === "true"`, "sound effects on")

		p.loadSaveFile(writeAutoRemoveLayout(t, finishLayout))
		p.waitJS(`!document.querySelector("#btn-finish").hidden`, "the Finish button, every card being face up")
		p.clickSel("#btn-finish")
		p.waitJS(`document.body.dataset.over === "1"`, "the game won by Finish")
		p.waitJS(`document.querySelectorAll("#celebration .fly").length > 0`, "the win cascade")
		// The cards fly: some are well away from the completed area.
		p.waitJS(`(() => { const c = document.querySelector("#completed").getBoundingClientRect();
		  return [...document.querySelectorAll("#celebration .fly")].filter((e) => {
		    const r = e.getBoundingClientRect(); return Math.abs(r.left - c.left) > 300 || r.top - c.top > 300; }).length >= 5; })()`, "cards of the cascade in flight")
		p.shot("finish-celebration-1280x800")
		p.waitJS(`document.querySelector("#dlg-end").open && document.querySelector("#dlg-end-title").textContent === "You won!"`, "the win screen after the cascade")
		if v := p.serverView(); !v.Won || len(v.Completed) != 8 {
			t.Errorf("after Finish the server has won %v with %d suits completed", v.Won, len(v.Completed))
		}
		var sounds []string
		p.eval(`window.cardtableSounds`, &sounds)
		for _, want := range []string{"move", "complete", "win"} {
			if !slices.Contains(sounds, want) {
				t.Errorf("sounds played %v: no %q", sounds, want)
			}
		}
		var left int
		p.eval(`document.querySelectorAll("#celebration .fly").length`, &left)
		if left != 0 {
			t.Errorf("%d cascade cards stay on the screen after the win screen opened", left)
		}
	})

	t.Run("reduced motion", func(t *testing.T) {
		p := openPage(t, bctx, srv, 1280, 800, chromedp.WithNewBrowserContext())
		if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
		}); err != nil {
			t.Fatal(err)
		}
		p.load()
		p.loadSaveFile(writeAutoRemoveLayout(t, finishLayout))
		p.waitJS(`!document.querySelector("#btn-finish").hidden`, "the Finish button")
		p.keys("f")
		p.waitJS(`document.querySelector("#dlg-end").open && document.querySelector("#dlg-end-title").textContent === "You won!"`, "the win screen")
		var celebrated string
		p.eval(`document.body.dataset.celebrating || ""`, &celebrated)
		if celebrated != "" {
			t.Errorf("with reduced motion asked for, the cascade played (data-celebrating=%q)", celebrated)
		}
	})
}

// small lists the elements matching sel (the visible ones) smaller than
// 44 by 44 px, the least touch target.
func (p *browserPage) small(sel string) []string {
	p.t.Helper()
	var out []string
	p.eval(fmt.Sprintf(`[...document.querySelectorAll(%q)].filter((e) => e.getClientRects().length > 0).map((e) => {
	  const r = e.getBoundingClientRect();
	  return r.width < 44 || r.height < 44 ? (e.id || e.textContent.trim()) + " " + Math.round(r.width) + "x" + Math.round(r.height) : "";
	}).filter(Boolean)`, sel), &out)
	return out
}

// testPhone: the page on a 390x844 phone.
func testPhone(t *testing.T, bctx context.Context, srv *httptest.Server) {
	p := openPage(t, bctx, srv, 390, 844, chromedp.WithNewBrowserContext())
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	p.load()
	p.newGameByNumber(617)
	p.noHorizontalScroll()

	// Restart is in the bar, and every control is a 44 px target.
	var restart bool
	p.eval(`document.querySelector("#btn-restart").getClientRects().length > 0`, &restart)
	if !restart {
		t.Error("phone: no Restart button in the bar")
	}
	if s := p.small(".toolbar > button, .menu > button, #stock"); len(s) > 0 {
		t.Errorf("phone: controls smaller than 44x44 px: %v", s)
	}
	p.tap(p.elementPoint("#btn-game-menu"))
	p.waitJS(`!document.querySelector("#menu-game").hidden`, "the Game menu")
	if s := p.small(`#menu-game [role="menuitem"]`); len(s) > 0 {
		t.Errorf("phone: menu items smaller than 44x44 px: %v", s)
	}
	// The help opens at its top, not scrolled to its Close button.
	p.tap(p.elementPoint(`#menu-game [data-act="keys"]`))
	p.waitJS(`document.querySelector("#dlg-keys").open`, "the help")
	var help struct{ ScrollTop, Overflow, HeadTop, DlgTop float64 }
	p.eval(`(() => { const d = document.querySelector("#dlg-keys");
	  return { ScrollTop: d.scrollTop, Overflow: d.scrollHeight - d.clientHeight,
	    HeadTop: d.querySelector("h2").getBoundingClientRect().top, DlgTop: d.getBoundingClientRect().top }; })()`, &help)
	if help.Overflow <= 0 {
		t.Fatalf("phone: the help fits the screen (overflow %v): the test shows nothing", help.Overflow)
	}
	if help.ScrollTop != 0 || help.HeadTop < help.DlgTop {
		t.Errorf("phone: the help opens scrolled by %v px (heading at %v, dialog at %v)", help.ScrollTop, help.HeadTop, help.DlgTop)
	}
	p.shot("phone-390x844-help")
	if s := p.small(`#dlg-keys .buttons button`); len(s) > 0 {
		t.Errorf("phone: dialog buttons smaller than 44x44 px: %v", s)
	}
	p.clickSel(`#dlg-keys [data-close]`)
	p.waitJS(`!document.querySelector("#dlg-keys").open`, "the help to close")

	// The piles spread down into the room below them: after a deal, a
	// face-up card shows at least 60% of itself.
	p.tap(p.elementPoint("#stock"))
	p.play(spider.DealMove)
	p.expect("phone: a deal")
	var step struct{ Step, Height float64 }
	p.eval(`(() => { const cs = document.querySelectorAll("#pile-0 .card.up");
	  const a = cs[cs.length - 2].getBoundingClientRect(), b = cs[cs.length - 1].getBoundingClientRect();
	  return { Step: b.top - a.top, Height: a.height }; })()`, &step)
	if step.Step < 0.6*step.Height {
		t.Errorf("phone: a face-up card shows %v of its %v px while the screen has room", step.Step, step.Height)
	}
	p.noHorizontalScroll()
	p.shot("phone-390x844-dealt")
}

// testCardFaces: court cards and pips.
func testCardFaces(t *testing.T, bctx context.Context, srv *httptest.Server) {
	p := openPage(t, bctx, srv, 1280, 800, chromedp.WithNewBrowserContext())

	// No suit sign is drawn upside down: reversed, a spade reads as a heart.
	var reversed int
	p.eval(`[...document.querySelectorAll('#card-sprite use[href^="#suit-"]')].filter((u) => /rotate/.test(u.getAttribute("transform") || "") || /rotate/.test(u.parentElement.getAttribute("transform") || "") && !u.closest("g[clip-path]")).length`, &reversed)
	if reversed != 0 {
		t.Errorf("%d suit signs are drawn upside down", reversed)
	}
	// Court cards are pictures: a face and the rank's headwear, not a
	// letter; king, queen and jack differ; on the small faces too.
	var courts []struct {
		ID    string
		Texts int
		Faces int
		HTML  string
	}
	p.eval(`["K", "Q", "J"].flatMap((r) => ["card", "cardsm"].map((kind) => {
	  const s = document.querySelector("#" + kind + "-" + r + "S");
	  return { ID: s.id, Texts: s.querySelectorAll("text").length, Faces: s.querySelectorAll(".c-skin").length, HTML: s.innerHTML.replace(/[KQJ]S/g, "") };
	}))`, &courts)
	seen := map[string]string{}
	for _, c := range courts {
		if c.Texts != 1 || c.Faces == 0 {
			t.Errorf("%s: %d texts (want the index only) and %d drawn faces", c.ID, c.Texts, c.Faces)
		}
		if other, ok := seen[c.HTML]; ok {
			t.Errorf("%s is drawn the same as %s", c.ID, other)
		}
		seen[c.HTML] = c.ID
	}
	// A showcase of faces, big and small, for the artifacts.
	p.eval(`(() => {
	  const box = document.createElement("div");
	  box.id = "showcase";
	  const codes = ["KS", "QH", "JD", "KC", "QS", "JH", "KH", "QD", "JC", "TS", "9S", "8C", "7H", "AS", "6S"];
	  box.innerHTML = ["card", "cardsm"].map((kind) => codes.map((c) =>
	    '<svg viewBox="0 0 200 280" width="' + (kind === "card" ? 120 : 60) + '" height="' + (kind === "card" ? 168 : 84) + '"><use href="#' + kind + "-" + c + '"/></svg>').join("")).join("<br>");
	  document.querySelector("#tableau").replaceWith(box);
	  return 1;
	})()`, nil)
	p.shot("card-faces")
}
