package web_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
)

// cspRecorder keeps the document's Content-Security-Policy violations;
// added before the page's scripts run.
const cspRecorder = `window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => { window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + e.sample); }, true);`

// TestBrowserFrontPage (the quick one): on a phone the front page offers
// both games, each with its picture and its line, links the Arlington
// lobby from its header, says there is nothing open yet, does not scroll
// sideways and keeps to the Content-Security-Policy; and the court cards
// of the sprite every page shares carry their chest signs upright.
func TestBrowserFrontPage(t *testing.T) {
	t.Parallel()
	srv := siteServer(t)
	p := openSite(t, webtest.StartBrowser(t), srv, 390, 844)
	p.step("recording policy violations", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspRecorder})
		return err
	}))
	p.open("/", frontReady)
	p.frontOffersBoth("the phone")
	// The page breaks no part of the Content-Security-Policy; the control,
	// an inline style planted on purpose, shows the recorder sees one.
	var violations []string
	p.eval(`window.__csp`, &violations)
	if len(violations) != 0 {
		t.Errorf("the front page violates the policy: %q", violations)
	}
	p.eval(`(() => { const d = document.createElement("div"); d.setAttribute("style", "outline: 1px solid red"); document.body.append(d); return 1; })()`, nil)
	p.wait(`window.__csp.length > 0`, "the planted inline style to be reported")
	p.courtChestSigns()
	p.spiderIndexesShown()
	if got := p.text("#spider-games"); !strings.Contains(got, "No game in progress") {
		t.Errorf("a new player's Spider list says %q", got)
	}
	if got := p.text("#arl-tables"); !strings.Contains(got, "No table yet") {
		t.Errorf("a new player's Arlington list says %q", got)
	}
	p.noSideways("the front page")
}

// frontOffersBoth: the front page names both games with a drawn picture
// and a line, links each, and has the site's header links.
func (p *sitePage) frontOffersBoth(where string) {
	p.t.Helper()
	var r struct {
		Title  string
		Games  []string
		Pics   []int
		Header []string
	}
	p.eval(`({
	  Title: document.title,
	  Games: [...document.querySelectorAll(".games a.game")].map((a) => a.getAttribute("href") + " " + a.querySelector(".name").textContent + ": " + a.querySelector(".line").textContent),
	  Pics: [...document.querySelectorAll(".games .pic")].map((b) => b.querySelectorAll("svg use").length),
	  Header: [...document.querySelectorAll("header nav.site a")].map((a) => a.getAttribute("href")),
	})`, &r)
	if r.Title != "cardtable" {
		p.t.Errorf("%s: the front page's title is %q", where, r.Title)
	}
	if len(r.Games) != 2 || !strings.HasPrefix(r.Games[0], "/spider/ Spider solitaire: ") || !strings.HasPrefix(r.Games[1], "/arlington/ Arlington: ") {
		p.t.Errorf("%s: the front page offers %q, want Spider then Arlington, each with a line", where, r.Games)
	}
	if len(r.Pics) != 2 || r.Pics[0] < 5 || r.Pics[1] < 5 {
		p.t.Errorf("%s: the pictures have %v cards, want several each", where, r.Pics)
	}
	if !contains(r.Header, "/arlington/") || !contains(r.Header, "/") {
		p.t.Errorf("%s: the header links %q, want the front page and the Arlington lobby", where, r.Header)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestLongBrowserFrontPage: at 1280x800 and 390x844 the front page shows
// both games and the player's open games and tables (the Spider game in
// progress, a named save, the table the player sits at and one with a
// seat open, not another player's full table); its links lead to each
// game and each game's page leads back; the Arlington lobby is one click
// from the Spider page; each page's title names it; the front page's
// links and buttons are reached with the Tab key; opening the save from
// the front page plays it on the Spider page.
func TestLongBrowserFrontPage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := siteServer(t)
	bctx := webtest.StartBrowser(t)
	// Another player's tables: one with a seat open, one full.
	other := otherPlayer(t, srv)
	var open, full struct{ ID string }
	if code := other("POST", "/api/arlington/tables", `{"players": 2, "bots": ["", ""]}`, &open); code != http.StatusCreated {
		t.Fatalf("creating the open table: %d", code)
	}
	other("POST", "/api/arlington/tables/"+open.ID+"/join", `{"name": "Bob"}`, nil)
	if code := other("POST", "/api/arlington/tables", `{"players": 2, "bots": ["", "random"]}`, &full); code != http.StatusCreated {
		t.Fatalf("creating the full table: %d", code)
	}
	other("POST", "/api/arlington/tables/"+full.ID+"/join", `{"name": "Bob"}`, nil)

	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			p := openSite(t, bctx, srv, size.w, size.h)
			p.open("/", frontReady)
			p.frontOffersBoth(size.name)

			// To the Spider page and back: it starts a game.
			p.follow("#go-spider", spiderReady)
			var title string
			p.eval(`document.title`, &title)
			if !strings.HasPrefix(title, "Spider solitaire · ") || !strings.HasSuffix(title, " · cardtable") {
				t.Errorf("the Spider page's title is %q", title)
			}
			var id string
			p.eval(`sessionStorage.getItem("cardtable.spider.game")`, &id)
			if code := p.fetch("PUT", "/api/saves/monday", `{"game": "`+id+`"}`, nil); code != http.StatusOK {
				t.Fatalf("saving the game: %d", code)
			}
			// A table of the player's own, against a bot.
			var mine struct{ ID string }
			if code := p.fetch("POST", "/api/arlington/tables", `{"players": 2, "bots": ["", "random"]}`, &mine); code != http.StatusCreated {
				t.Fatalf("creating a table: %d", code)
			}
			if code := p.fetch("POST", "/api/arlington/tables/"+mine.ID+"/join", `{"name": "Ann"}`, nil); code != http.StatusOK {
				t.Fatalf("taking the seat: %d", code)
			}
			p.noSideways("the Spider page")
			p.follow(`#bar nav.site a[href="/"]`, frontReady)

			// The player's open games and tables.
			var lists struct{ Spider, Tables []string }
			p.eval(`({
			  Spider: [...document.querySelectorAll("#spider-games .go")].map((e) => e.tagName + " " + e.textContent),
			  Tables: [...document.querySelectorAll("#arl-tables a.go")].map((a) => a.getAttribute("href") + " " + a.textContent),
			})`, &lists)
			if len(lists.Spider) != 2 || !strings.HasPrefix(lists.Spider[0], "A Continue Arachnid · 4 suits · #") || lists.Spider[1] != "BUTTON Open “monday”" {
				t.Errorf("the Spider list shows %q, want the game in progress, then the save", lists.Spider)
			}
			if !contains(lists.Tables, "/arlington/t/"+mine.ID+" Your table: 2 seats") || !contains(lists.Tables, "/arlington/t/"+open.ID+" Open table: 2 seats") {
				t.Errorf("the Arlington list shows %q, want the player's table %s and the open one %s", lists.Tables, mine.ID, open.ID)
			}
			for _, l := range lists.Tables {
				if strings.Contains(l, full.ID) {
					t.Errorf("the Arlington list shows another player's full table: %q", l)
				}
			}
			p.noSideways("the front page with its lists")
			if err := os.MkdirAll(filepath.Join("testdata", "artifacts"), 0o755); err == nil {
				p.screenshot(filepath.Join("testdata", "artifacts", "front-"+size.name+".png"))
			}
			p.keyboardReaches("#go-spider", "#go-arlington", `#spider-games a.go`, `#spider-games button.go`, `#arl-tables a.go`)

			// The player's table, and from it the lobby and the front page.
			p.follow(`#arl-tables a[href="/arlington/t/`+mine.ID+`"]`, tableReady)
			p.follow(`header nav.site a[href="/arlington/"]`, lobbyReady)
			p.eval(`document.title`, &title)
			if title != "Arlington · cardtable" {
				t.Errorf("the lobby's title is %q", title)
			}
			p.follow(`header nav.site a[href="/"]`, frontReady)
			p.follow("#go-arlington", lobbyReady)
			p.follow(`header nav.site a[href="/spider/"]`, spiderReady)
			// The lobby is one click from the Spider page, and one key:
			// Enter on the focused link follows it (the page's own keys
			// take Enter to pick up and drop cards).
			p.follow(`#bar nav.site a[href="/arlington/"]`, lobbyReady)
			p.noSideways("the lobby")
			p.follow(`header nav.site a[href="/spider/"]`, spiderReady)
			p.eval(`document.querySelector('#bar nav.site a[href="/arlington/"]').focus(), 1`, nil)
			p.step("pressing Enter on the Arlington link", chromedp.KeyEvent("\r"))
			p.wait(lobbyReady, "the lobby after Enter on the Spider page's Arlington link")

			// Opening the save from the front page plays it on the Spider page.
			p.follow(`header nav.site a[href="/"]`, frontReady)
			p.click(`#spider-games button.go`)
			p.wait(spiderReady, "the Spider page with the save's game")
			var now string
			p.eval(`sessionStorage.getItem("cardtable.spider.game")`, &now)
			if now == "" || now == id {
				t.Errorf("after opening the save the Spider page shows game %q, want a new game (not %s)", now, id)
			}
		})
	}
}

// keyboardReaches: pressing Tab from the top of the page focuses each of
// sels in turn (in some order) before coming back round.
func (p *sitePage) keyboardReaches(sels ...string) {
	p.t.Helper()
	p.eval(`document.activeElement && document.activeElement.blur(), 1`, nil)
	left := map[string]bool{}
	for _, s := range sels {
		left[s] = true
	}
	for i := 0; i < 40 && len(left) > 0; i++ {
		p.step("pressing Tab", chromedp.KeyEvent("\t"))
		for s := range left {
			var ok bool
			p.eval(`!!document.activeElement && document.activeElement.matches(`+jsString(s)+`)`, &ok)
			if ok {
				delete(left, s)
			}
		}
	}
	for s := range left {
		p.t.Errorf("the Tab key never reaches %s", s)
	}
}

// courtChestSigns: the court cards' pictures (shared/cards.js, drawn on
// every page) show the figure twice, the lower one mirrored, and each
// figure's chest carries the suit sign upright: a spade turned over reads
// as a heart with a stalk. Each face of the sprite that has a court
// picture in two halves has two chest signs, neither under the mirror's
// rotation.
func (p *sitePage) courtChestSigns() {
	p.t.Helper()
	var bad []string
	p.eval(`(() => {
	  const bad = [];
	  for (const r of "JQK") for (const s of "CDHS") {
	    const sym = document.getElementById("card-" + r + s);
	    const chest = [...sym.querySelectorAll("use.c-chest")];
	    if (chest.length !== 2) bad.push(r + s + ": " + chest.length + " chest signs");
	    for (const u of chest) {
	      for (let e = u.parentElement; e && e !== sym; e = e.parentElement) {
	        if ((e.getAttribute("transform") || "").includes("rotate")) { bad.push(r + s + ": a chest sign turned over"); break; }
	      }
	    }
	  }
	  return bad;
	})()`, &bad)
	for _, b := range bad {
		p.t.Error(b)
	}
}

// spiderIndexesShown: in the front page's Spider picture, a face-up card
// under another shows its whole index, a Q's tail included: the top 37%
// of a big-index face (cards.js smallFaceSVG). Covered lower, from 28%,
// the queen's Q read as an O.
func (p *sitePage) spiderIndexesShown() {
	p.t.Helper()
	var bad []string
	p.eval(`(() => {
	  const bad = [], cols = {};
	  for (const c of document.querySelectorAll("#pic-spider .pcard")) (cols[c.style.left] ||= []).push(c);
	  for (const col of Object.values(cols)) {
	    const cards = col.map((c) => ({ face: c.firstChild.getAttribute("href"), r: c.getBoundingClientRect() }))
	      .sort((a, b) => a.r.top - b.r.top);
	    for (let i = 0; i + 1 < cards.length; i++) {
	      const { face, r } = cards[i], shown = (cards[i + 1].r.top - r.top) / r.height;
	      if (face !== "#card-back" && shown < 0.37) bad.push(face + " shows " + Math.round(shown * 100) + "% of its height");
	    }
	  }
	  return bad;
	})()`, &bad)
	for _, b := range bad {
		p.t.Errorf("the front page's Spider picture: %s, want 37%% (its whole index)", b)
	}
}

// TestLongBrowserFrontDamagedSave: a save damaged on the server (its deal
// no longer parses) does not hide the player's other saves on the front
// page; it is named with where to delete it, and offers no Open button.
func TestLongBrowserFrontDamagedSave(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	path := filepath.Join(t.TempDir(), "cardtable.db")
	p := openSite(t, webtest.StartBrowser(t), siteServerAt(t, path), 1280, 800)
	p.open("/spider/", spiderReady)
	id := p.spiderGame()
	for _, name := range []string{"sound", "broken"} {
		if code := p.fetch("PUT", "/api/saves/"+name, `{"game": "`+id+`"}`, nil); code != http.StatusOK {
			t.Fatalf("saving %s: %d", name, code)
		}
	}
	webtest.Damage(t, path, `UPDATE saves SET deal = 'x1' WHERE name = 'broken'`)
	p.open("/", frontReady)
	p.wait(`document.querySelectorAll("#spider-games li.save").length === 2`, "both saves listed")
	var rows []string
	p.eval(`[...document.querySelectorAll("#spider-games li.save")].map((li) => (li.querySelector("button") ? "button " : "") + li.textContent)`, &rows)
	broken := "“broken”damaged on the server: delete it in the Spider page's Saved games list"
	if !slices.Contains(rows, broken) || !slices.ContainsFunc(rows, func(r string) bool { return strings.HasPrefix(r, "button Open “sound”") }) {
		t.Errorf("the front page's saves are %q, want the sound one with Open and %q", rows, broken)
	}
}
