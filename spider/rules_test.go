package spider

import (
	"errors"
	"strings"
	"testing"

	"cardtable/card"
)

// The rules of play: dealing, moving, auto-moves, locating cards and
// telling a game stuck.

func TestDealRules(t *testing.T) {
	// Pile 10 empty: dealing is refused unless relaxed.
	text := strings.Replace(nearWin, "pile9: AS", "pile9:", 1)
	text = strings.Replace(text, "pile8: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "pile8: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS", 1)
	// Move two runs into the stock to have something to deal.
	text = strings.Replace(text, "pile7: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC\n", "pile7: KC QC JC\n", 1)
	text += "row1: TC 9C 8C 7C 6C 5C 4C 3C 2C AC\n"
	for _, relaxed := range []bool{false, true} {
		p, err := ParseLayout(text, Rules{Suits: 4, Relaxed: relaxed})
		if err != nil {
			t.Fatal(err)
		}
		err = p.CheckMove(DealMove)
		if relaxed != (err == nil) {
			t.Errorf("relaxed %v: deal onto a space: %v", relaxed, err)
		}
		if !relaxed && (err == nil || !strings.Contains(err.Error(), "space")) {
			t.Errorf("refusal does not name the rule: %v", err)
		}
	}
}

func TestMoveRules(t *testing.T) {
	p := mustLayout(t, complete(t, []string{"|3D 8H 7H 6H 5H", "9C", "6S", "KD", "", "7S 6D", "7D", "|AS 2C", "3S", "4C"}, "", 5, 9), 4)
	for _, tc := range []struct {
		m    Move
		rule string // "" = legal
	}{
		{Cards(0, 1, 4), ""},                  // 8H..5H onto 9C
		{Cards(0, 5, 3), "one rank higher"},   // 7H..5H onto 6D
		{Cards(0, 6, 2), ""},                  // 6H 5H onto 7D
		{Cards(0, 4, 2), ""},                  // into a space
		{Cards(0, 1, 5), "run"},               // 3D is face down
		{Cards(3, 1, 1), "king"},              // a king only into a space
		{Cards(3, 4, 1), ""},                  // king into a space
		{Cards(5, 0, 2), "run"},               // 7S 6D is not one suit
		{Cards(5, 2, 1), "one rank higher"},   // 6D onto 6S
		{Cards(8, 9, 1), ""},                  // 3S onto 4C
		{Cards(7, 8, 1), ""},                  // 2C onto 3S, turns up AS
		{Cards(4, 0, 1), "no face-up"},        // from a space
		{Cards(2, 2, 1), "onto itself"},       // same pile
		{RemoveFrom(0), "complete"},           // nothing to remove
		{DealMove, "space"},                   // a space exists
		{Move{Kind: MoveCards, From: 11}, ""}, // bad pile
	} {
		t.Run(tc.m.String(), func(t *testing.T) {
			before := *p
			_, err := p.Play(tc.m)
			if tc.m.From == 11 {
				if err == nil {
					t.Fatal("pile 12 accepted")
				}
				return
			}
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				*p = before
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.rule) {
				t.Fatalf("got %v, want a refusal naming %q", err, tc.rule)
			}
			if *p != before {
				t.Fatal("refused move changed the position")
			}
		})
	}
	// Moving 2C off AS turns the ace up.
	u, err := p.Play(Cards(7, 8, 1))
	if err != nil || !u.Flipped() || p.Down(7) != 0 || p.Bottom(7) != card.MustParse("AS") {
		t.Errorf("flip: %v %v down=%d", u, err, p.Down(7))
	}
}

func TestAutoMoveOrder(t *testing.T) {
	p := mustLayout(t, complete(t, []string{"|9D 6H 5H", "7C", "7H", "|9C KS", "6S", "6D",
		"KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD", "|8D 2C", "JS", ""}, "", 5, 8), 4)
	cases := []struct {
		pile, n int
		want    string
	}{
		{0, 0, "move 1 3 2"},  // 6H 5H: 7C (pile 2) and 7H (pile 3): same suit first
		{0, 1, "move 1 5 1"},  // 5H alone: 6S (pile 5) and 6D (pile 6): lowest pile
		{3, 0, "move 4 10 1"}, // KS: only a space
		{6, 0, "remove 7"},    // a complete suit
	}
	for _, tc := range cases {
		m, err := p.Auto(tc.pile, tc.n)
		if err != nil || m.String() != tc.want {
			t.Errorf("Auto(%d,%d) = %v, %v; want %s", tc.pile+1, tc.n, m, err, tc.want)
		}
	}
	if m, err := p.Auto(7, 0); err != nil || m.String() != "move 8 10 1" {
		t.Errorf("auto 2C: no 3 anywhere, so the space: got %v, %v", m, err)
	}
	// 7C is pile 2 entire: no 8 to go on, and moving it into the space would
	// change nothing, so auto-move refuses.
	if m, err := p.Auto(1, 0); err == nil || !errors.Is(err, ErrIllegal) {
		t.Errorf("auto 7C = %v, %v; want a refusal", m, err)
	}
}

func TestLocateAndColumn(t *testing.T) {
	g := mustGame(t, 1, Options{Variant: Spider})
	locs := g.Locate(card.MustParse("8H"))
	if len(locs) != 1 || locs[0].Pile != 0 || locs[0].Index != 5 {
		t.Errorf("locate 8H = %v", locs)
	}
	if got := g.Locate(card.MustParse("3D")); len(got) != 0 {
		t.Errorf("face-down 3D located: %v", got)
	}
	open := mustGame(t, 1, Options{Variant: Spider, Open: true})
	if got := open.Locate(card.MustParse("3D")); len(got) != 1 {
		t.Errorf("open: 3D at %v", got)
	}
	if got := card.Format(g.Column(0)); got != "8H" {
		t.Errorf("column 1 = %s", got)
	}
	if got := card.Format(open.Column(0)); got != "3D AS KD 7D 3S 8H" {
		t.Errorf("open column 1 = %s", got)
	}
}

func TestStuck(t *testing.T) {
	// Two lone kings and eight spaces, the stock still full: the only legal
	// moves carry a whole pile from one space to another, and dealing onto
	// spaces is forbidden. Stuck, unless dealing is relaxed.
	text := complete(t, []string{"KS", "KH", "", "", "", "", "", "", "", ""}, "S H D C", 5, -1)
	p := mustLayout(t, text, 4)
	var buf [256]Move
	ms := p.Legal(buf[:0])
	if len(ms) == 0 {
		t.Fatal("expected the null moves to be legal")
	}
	for _, m := range ms {
		if !p.Null(m) {
			t.Fatalf("%v is not null", m)
		}
	}
	if !p.Stuck() {
		t.Error("only null moves left, but not stuck")
	}
	r, err := ParseLayout(text, Rules{Suits: 4, Relaxed: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stuck() {
		t.Error("relaxed: dealing is a real move, yet stuck")
	}
	// A king with a face-down card above it moving into a space is real.
	q := mustLayout(t, complete(t, []string{"KS", "|QH KH", "", "", "", "", "", "", "", ""}, "S D C", 5, 1), 4)
	if q.Stuck() {
		t.Error("a move that turns a card up left, yet stuck")
	}
}
