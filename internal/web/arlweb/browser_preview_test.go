package arlweb

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// TestBrowserArlingtonTrickPreview: on a turn in a trick, a card selected
// that is no set (a 7♣, say) is told by what it does to the trick, never
// as a set to lead: the preview said "The 7♣ alone is not a set … (lead
// it as a card instead)" to a player who could only play to the trick.
// Quick: two seats, dealt so that the bot leads first and has only cards
// to lead (trickSeed), so Ann's first turn is in a trick;
// TestLongBrowserArlingtonTrickPreviewFourSeats checks the same at four
// seats, where players still come after Ann.
func TestBrowserArlingtonTrickPreview(t *testing.T) {
	t.Parallel()
	e := newSeededEnv(t, Limits{Burst: 10000}, trickSeed(t))
	_, _, p := openTable(t, e, "Ann", longGame, "", "random") // 390×844
	p.join("Ann")
	trickPreview(t, p)
}

// TestLongBrowserArlingtonTrickPreviewFourSeats (long: a browser, four
// seats and a random deal, Ann playing until a trick comes to her: 2 s or
// more under -race): as TestBrowserArlingtonTrickPreview, where a card
// played to the trick may still be beaten by a player after Ann.
func TestLongBrowserArlingtonTrickPreviewFourSeats(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	trickPreview(t, seatedAt(t, 390, 844, "Ann", longGame, "", "random", "random", "random"))
}

// trickSeed finds a deal of a two-seat game in which seat 1 (the bot)
// moves first with nothing but single cards to lead: whatever it picks,
// seat 0's first turn is in a trick.
func trickSeed(tb testing.TB) uint64 {
	tb.Helper()
	for seed := uint64(1); seed < 20000; seed++ {
		s, err := arlington.New(arlington.Config{Players: 2, Target: longGame}, seed)
		if err != nil {
			tb.Fatal(err)
		}
		if s.ToMove() != 1 {
			continue
		}
		if !slices.ContainsFunc(s.Legal(1), func(a arlington.Action) bool { return a.Kind != arlington.LeadCard }) {
			return seed
		}
	}
	tb.Fatal("no seed below 20000 has seat 1 lead with only cards to lead")
	return 0
}

// trickPreview plays Ann's (p's) first action each turn until a trick is
// hers to play to, and checks the preview of a lone card then.
func trickPreview(t *testing.T, p *seatTab) {
	t.Helper()
	p.until(`(() => {
	  if (document.querySelector('#actions [data-group="play"] button[data-action]:not(:disabled)')) return true;
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (first) first.click();
	  return false;
	})()`)
	// A card that is no set alone: not an ace, the 2♥ or a joker.
	c := eval[string](p, `[...document.querySelectorAll("#hand .hand-card")].map((b) => b.dataset.card).find((c) => c[0] !== "A" && c !== "2H" && c !== "JK") || ""`)
	if c == "" {
		t.Fatalf("no card in Ann's hand other than aces, the 2♥ and jokers: %v", p.hand())
	}
	eval[bool](p, `(() => { document.querySelector('#hand .hand-card[data-card=`+q(c)+`]').click(); return true; })()`)
	p.until(`document.getElementById("preview").textContent !== ""`)
	got := previewShown(p)
	t.Logf("the %s in a trick (event %d): %s", c, p.events(), got)
	if !strings.Contains(got, "trick") || strings.Contains(got, "not a set") || strings.Contains(got, "lead it") || strings.Contains(got, "bad") {
		t.Errorf("preview of the %s selected to play to a trick: %q; want what it does to the trick, unmarked", c, got)
	}
}

// TestBrowserArlingtonPreviewNames: Ann leads, with a set on the table of
// a player named "JK"; the preview of a card that fits it names "JK's
// set" as the server wrote it: the page rewrote card codes in the
// server's words and showed "joker's set". Then a preview refused for
// coming too often (429) is shown as a refusal, not in the colour of
// the "ok" preview before it.
func TestBrowserArlingtonPreviewNames(t *testing.T) {
	t.Parallel()
	rl := web.RateLimit{Player: web.Bucket{Burst: 1000, Every: time.Second}, Address: web.Bucket{Burst: 1000, Every: time.Second},
		OftenPlayer: web.Bucket{Burst: 100, Every: time.Hour}, OftenAddress: web.Bucket{Burst: 1000, Every: time.Second}}
	d := findBesideSet(t, true, false)
	e := newSeededEnvWeb(t, Limits{Burst: 10000}, web.Options{RateLimit: &rl}, d.seed)
	tb, ann, _ := leadBesideSet(t, e, d, "JK")
	c, set := d.c, d.set
	id := tb.Summary().ID
	p := annAtTurn(t, e, ann, id, c)
	click := func(c card.Card) {
		t.Helper()
		eval[bool](p, `(() => { document.querySelector('#hand .hand-card[data-card=`+q(c.String())+`]').click(); return true; })()`)
	}
	preview := func() string {
		t.Helper()
		return previewShown(p)
	}

	click(c)
	p.until(`document.getElementById("preview").textContent !== ""`)
	got := preview()
	t.Logf("the %s: %s", c, got)
	if !strings.Contains(got, "JK's set ") || strings.Contains(got, "joker's") {
		t.Errorf("preview of the %s, which fits a set on JK's table: %q; want it to name JK's set", c, got)
	}

	// A set Ann can lead: the preview says what it is, in the "ok" look.
	click(c)
	p.until(`document.getElementById("preview").textContent === ""`)
	for _, x := range set.Cards() {
		click(x)
	}
	p.until(`document.getElementById("preview").className === "preview ok"`)
	t.Logf("the set %s: %s", arlington.SetWords(set), preview())
	// Ann's previews spent from her other tab (the same cookie) until
	// refused; the page's next preview is refused too.
	path := "/api/arlington/tables/" + id + "/preview"
	for i := 0; ; i++ {
		if i > rl.OftenPlayer.Burst {
			t.Fatalf("no refusal after %d previews past a burst of %d", i, rl.OftenPlayer.Burst)
		}
		if code, _, _ := c429(t, ann, "POST", path, `{"cards": ["7H"]}`); code == http.StatusTooManyRequests {
			break
		}
	}
	// One more card selected, or, with the set all Ann holds, one of its
	// several cards unselected (the hand holds c, no set alone, besides
	// the set's cards or among them): deselecting the last card asks for
	// no preview.
	in := map[string]bool{}
	for _, x := range set.Cards() {
		in[x.String()] = true
	}
	more := ""
	for _, h := range p.hand() {
		if !in[h] {
			more = h
			break
		}
	}
	if more == "" {
		more = set.Cards()[0].String()
	}
	eval[bool](p, `(() => { document.querySelector('#hand .hand-card[data-card=`+q(more)+`]').click(); return true; })()`)
	p.until(`document.getElementById("preview").textContent.startsWith("too many requests")`)
	got = preview()
	t.Logf("refused: %s", got)
	if !strings.HasSuffix(got, "[preview bad]") {
		t.Errorf("a refused preview reads %q; want it marked as a refusal (preview bad), not kept in the previous preview's look", got)
	}
}

// TestBrowserArlingtonPreviewSetAlone: Ann leads holding a card that is a
// set alone (an ace, the 2♥ or a joker) and that fits a set on Bob's
// table; selected, it is told as the engine tells it from Ann's seat
// (a set, with its spectra and points, and the sets on the tables it can
// go on, Bob's named), in the look of a set the player can lead. Before,
// its preview was only the set's analysis and named no set on the tables.
func TestBrowserArlingtonPreviewSetAlone(t *testing.T) {
	t.Parallel()
	d := findBesideSet(t, false, true)
	e := newSeededEnvWeb(t, Limits{Burst: 10000}, web.Options{}, d.seed)
	tb, ann, _ := leadBesideSet(t, e, d, "Bob")
	c := d.c
	p := annAtTurn(t, e, ann, tb.Summary().ID, c)
	one, _ := arlington.Set(0).With(c)
	want := arlington.SelectionWords(ownView(t, tb, ann, e), one, table.SeatNames(tb.Summary().Seats)) + " [preview ok]"
	eval[bool](p, `(() => { document.querySelector('#hand .hand-card[data-card=`+q(c.String())+`]').click(); return true; })()`)
	p.until(`document.getElementById("preview").textContent !== ""`)
	got := previewShown(p)
	t.Logf("the %s: %s", c, got)
	if got != want || !strings.Contains(got, " alone is a set (") || !strings.Contains(got, "Bob's set ") {
		t.Errorf("preview of the %s, a set alone that fits a set on Bob's table:\n got %q\nwant %q", c, got, want)
	}
}

// annAtTurn opens the table id in a browser tab as Ann (the identity
// cookie of the client ann) and waits until the page shows her turn with
// the card c in her hand.
func annAtTurn(t *testing.T, e *env, ann *client, id string, c card.Card) *seatTab {
	t.Helper()
	p := seatTabIn(t, startBrowser(t), "Ann") // the browser's own tab: no second context to open
	u, _ := url.Parse(e.srv.URL)
	cookies := ann.hc.Jar.Cookies(u)
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, ck := range cookies {
			if _, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: ck.Name, Value: ck.Value, URL: e.srv.URL, HTTPOnly: new(true)}); err != nil {
				return err
			}
		}
		return nil
	}))
	p.open(e.srv.URL, id)
	// The turn as the page shows it, not as the socket has it: the page
	// asks the table for the preview only once its paced display has
	// reached the turn, and a card selected before that is told in the
	// words of a card alone.
	p.until(`window.__ws.seat >= 0 && window.__ws.toMove === window.__ws.seat && document.getElementById("status").textContent.includes("your turn") && document.querySelector('#hand .hand-card[data-card=` + q(c.String()) + `]')`)
	return p
}

// previewShown is the preview's text as the page shows it, with its look
// ("… [preview ok]").
func previewShown(p *seatTab) string {
	p.tb.Helper()
	return eval[string](p, `document.getElementById("preview").textContent + " [" + document.getElementById("preview").className + "]"`)
}
