package arlweb

import (
	"slices"
	"strings"
	"testing"

	"cardtable/arlington"
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
	got := eval[string](p, `document.getElementById("preview").textContent + " [" + document.getElementById("preview").className + "]"`)
	t.Logf("the %s in a trick (event %d): %s", c, p.events(), got)
	if !strings.Contains(got, "trick") || strings.Contains(got, "not a set") || strings.Contains(got, "lead it") || strings.Contains(got, "bad") {
		t.Errorf("preview of the %s selected to play to a trick: %q; want what it does to the trick, unmarked", c, got)
	}
}
