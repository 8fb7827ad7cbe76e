package web_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

// TestLongScreenshots makes the README's pictures from the real server in
// Chromium at 1280x800: the front page (docs/img/front.png), a Spider game
// in play (spider.png) and an Arlington table in the middle of a hand
// against bots (arlington.png), each under 300 KB. CARDTABLE_SCREENSHOTS
// names the folder to write them to (relative to the module's root):
//
//	CARDTABLE_SCREENSHOTS=docs/img go test -run TestLongScreenshots ./internal/web/
//
// Without it they go to a temporary folder: the long suite checks that
// they can be made and stay small.
//
// The Spider game is deal 617 (Spider, two suits) played by a fixed rule,
// so the picture is the same each time; the Arlington hand depends on the
// bots' play and the table's random deal.
func TestLongScreenshots(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	dir := os.Getenv("CARDTABLE_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(webtest.ModuleRoot(t), dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := siteServer(t)
	bctx := webtest.StartBrowser(t)
	// Another player's table with a seat open, for the front page's list.
	other := otherPlayer(t, srv)
	var open struct{ ID string }
	other("POST", "/api/arlington/tables", `{"players": 3, "bots": ["", "", "medium"]}`, &open)
	other("POST", "/api/arlington/tables/"+open.ID+"/join", `{"name": "Bob"}`, nil)

	p := openSite(t, bctx, srv, 1280, 800)
	p.open("/spider/?deal=617&variant=spider&suits=2", spiderReady)
	p.playSpider(24)
	p.fetch("PUT", "/api/saves/Tuesday%20evening", `{"game": "`+p.spiderGame()+`"}`, nil)
	p.open("/spider/", spiderReady)
	p.wait(`document.getAnimations().length === 0`, "the cards to land")
	readme(t, p.screenshot(filepath.Join(dir, "spider.png")))

	p.arlingtonMidHand()
	readme(t, p.screenshot(filepath.Join(dir, "arlington.png")))

	p.open("/", frontReady)
	readme(t, p.screenshot(filepath.Join(dir, "front.png")))
}

// readme checks a README picture: 1280x800, under 300 KB.
func readme(tb testing.TB, s shot) {
	tb.Helper()
	if s.w != 1280 || s.h != 800 {
		tb.Errorf("%s is %dx%d, want 1280x800", s.path, s.w, s.h)
	}
	if s.bytes >= 300<<10 {
		tb.Errorf("%s is %d KB, want under 300 KB", s.path, s.bytes>>10)
	}
}

// shot is a screenshot written: where, its size in pixels and in bytes.
type shot struct {
	path        string
	w, h, bytes int
}

func (p *sitePage) spiderGame() string {
	p.t.Helper()
	var id string
	p.eval(`sessionStorage.getItem("cardtable.spider.game") || ""`, &id)
	if id == "" {
		p.t.Fatal("the Spider page has no game")
	}
	return id
}

// playSpider plays up to n commands on the page's game through the API,
// each chosen by a fixed rule from the game as the server saves it.
func (p *sitePage) playSpider(n int) {
	p.t.Helper()
	id := p.spiderGame()
	var seen []spider.Position
	for range n {
		var text string
		p.eval(fmt.Sprintf(`fetch("/api/games/%s/save").then((r) => r.text())`, id), &text)
		g, err := spider.Load(text)
		if err != nil {
			p.t.Fatalf("the game's save: %v", err)
		}
		pos := g.Position()
		seen = append(seen, pos)
		m, ok := pickMove(pos, seen)
		if !ok {
			return
		}
		var r struct {
			Version int `json:"version"`
		}
		p.fetch("GET", "/api/games/"+id, "", &r)
		body := fmt.Sprintf(`{"cmd": %q, "version": %d}`, m.String(), r.Version)
		if code := p.fetch("POST", "/api/games/"+id+"/commands", body, nil); code != http.StatusOK {
			p.t.Fatalf("%s: status %d", m, code)
		}
	}
}

// pickMove is a simple player: turn a card up if it can, else make the
// longest run, never going back to a position seen; else deal.
func pickMove(pos spider.Position, seen []spider.Position) (spider.Move, bool) {
	var buf [256]spider.Move
	best, bestScore, canDeal := spider.Move{}, 0, false
	for _, m := range pos.Legal(buf[:0]) {
		if m.Kind == spider.Deal {
			canDeal = true
			continue
		}
		if pos.Null(m) {
			continue
		}
		q := pos
		q.Do(m)
		if been(q, seen) {
			continue
		}
		score := 10*(pos.FaceDown()-q.FaceDown()) + q.Run(int(m.To)) - pos.Run(int(m.From))
		if m.Kind == spider.Remove {
			score = 100
		}
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	if bestScore > 0 {
		return best, true
	}
	if canDeal {
		return spider.Move{Kind: spider.Deal}, true
	}
	return spider.Move{}, false
}

func been(q spider.Position, seen []spider.Position) bool {
	for i := range seen {
		if seen[i].Equal(&q) {
			return true
		}
	}
	return false
}

// arlingtonMidHand sits the player at a four-seat table with three bots
// and plays the first offered action on each of the player's turns, a few
// times, then waits for the player's turn again: the middle of the first
// hand, cards in play.
func (p *sitePage) arlingtonMidHand() {
	p.t.Helper()
	var tb struct {
		ID   string
		Link string
	}
	if code := p.fetch("POST", "/api/arlington/tables", `{"players": 4, "bots": ["", "medium", "medium", "medium"], "turnSeconds": -1}`, &tb); code != http.StatusCreated {
		p.t.Fatalf("creating the table: %d", code)
	}
	if code := p.fetch("POST", "/api/arlington/tables/"+tb.ID+"/join", `{"name": "Ann"}`, nil); code != http.StatusOK {
		p.t.Fatalf("taking the seat: %d", code)
	}
	myTurn := `document.querySelector("#actions button[data-action]") && document.querySelectorAll("#hand [data-card]").length > 0`
	p.open(tb.Link, myTurn)
	for range 3 {
		var before int
		p.eval(`document.querySelectorAll("#log li").length`, &before)
		p.eval(`document.querySelector("#actions button[data-action]").click(), 1`, nil)
		// The player's action is in the log and it is their turn again:
		// after the bots' plays, or at once when the action keeps the lead
		// (a kill with the S2 does).
		p.wait(fmt.Sprintf(`document.querySelectorAll("#log li").length > %d && %s`, before, myTurn), "the player's next turn")
	}
}

// screenshot writes what the tab shows to path as a PNG of 256 colours at
// the best compression: the felt's gradient makes Chromium's full-colour
// PNGs three times larger, and the README wants them small.
func (p *sitePage) screenshot(path string) shot {
	p.t.Helper()
	sctx, cancel := context.WithTimeout(p.ctx, webtest.StepTimeout)
	defer cancel()
	b, err := chromedp.Run(sctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", path, err)
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		p.t.Fatal(err)
	}
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, paletted(img)); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("%s: %d KB", path, out.Len()/1024)
	return shot{path, img.Bounds().Dx(), img.Bounds().Dy(), out.Len()}
}

// paletted is img in the 256 colours it uses most (each the mean of the
// pixels in a 15-bit colour bin), every pixel mapped to the nearest; no
// dithering, which would only add noise to the flat felt and card faces.
func paletted(img image.Image) *image.Paletted {
	b := img.Bounds()
	type bin struct{ n, r, g, b int }
	bins := map[int]*bin{}
	key := func(r, g, bl uint32) int { return int(r>>11)<<10 | int(g>>11)<<5 | int(bl>>11) }
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			k := key(r, g, bl)
			e := bins[k]
			if e == nil {
				e = &bin{}
				bins[k] = e
			}
			e.n++
			e.r += int(r >> 8)
			e.g += int(g >> 8)
			e.b += int(bl >> 8)
		}
	}
	keys := make([]int, 0, len(bins))
	for k := range bins {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b int) int { return cmp.Or(bins[b].n-bins[a].n, a-b) })
	keys = keys[:min(len(keys), 256)]
	pal := make(color.Palette, len(keys))
	for i, k := range keys {
		e := bins[k]
		pal[i] = color.RGBA{uint8(e.r / e.n), uint8(e.g / e.n), uint8(e.b / e.n), 255}
	}
	out := image.NewPaletted(b, pal)
	nearest := map[int]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			r, g, bl, _ := c.RGBA()
			k := key(r, g, bl)
			i, ok := nearest[k]
			if !ok {
				i = uint8(pal.Index(c))
				nearest[k] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	return out
}
