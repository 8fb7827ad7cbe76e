package spider

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cardtable/card"
)

func mustGame(tb testing.TB, n uint64, o Options) *Game {
	tb.Helper()
	g, err := NewGame(n, o)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func mustLayout(tb testing.TB, text string, suits int) *Position {
	tb.Helper()
	p, err := ParseLayout(text, Rules{Suits: suits})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// allMoves is every move that could be written down: each source, target
// and count, every deal and every removal.
func allMoves() []Move {
	out := []Move{DealMove}
	for s := range Piles {
		out = append(out, RemoveFrom(s))
		for t := range Piles {
			for n := 1; n <= 13; n++ {
				out = append(out, Cards(s, t, n))
			}
		}
	}
	return out
}

func TestGoldenLayouts(t *testing.T) {
	// The spider variant lays out exactly as the golden layouts of
	// docs/deals.md (checked card by card in package card); here the engine's own layout
	// must agree on a few whole deals, and arachnid must move the extra
	// face-down cards to piles 1-4.
	p, err := NewDeal(1, Spider, Rules{Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := "pile1: |3D |AS |KD |7D |3S 8H\n"
	if got := p.FormatLayout(); !strings.HasPrefix(got, want) || !strings.Contains(got, "pile10: |JD |4H |8S |2S |4S 3S\n") ||
		!strings.Contains(got, "row5: 3D 2C KH 5D 3H 2D 4C 5S 6S AC\n") {
		t.Errorf("deal 1 layout:\n%s", got)
	}
	a, _ := NewDeal(1, Arachnid, Rules{Suits: 4})
	for k := range Piles {
		wantDown := 4
		if k < 4 {
			wantDown = 5
		}
		if a.Down(k) != wantDown || a.Len(k) != wantDown+1 {
			t.Errorf("arachnid pile %d: %d down of %d", k+1, a.Down(k), a.Len(k))
		}
	}
	// Both variants deal the same cards in the same order.
	var seqA, seqS []card.Card
	for k := range Piles {
		seqA = a.Cards(seqA, k)
		seqS = p.Cards(seqS, k)
	}
	slices.Sort(seqA)
	slices.Sort(seqS)
	if !slices.Equal(seqA, seqS) || !slices.Equal(a.Stock(nil), p.Stock(nil)) {
		t.Error("arachnid and spider deal different cards")
	}
	if _, err := NewDeal(0, Spider, Rules{Suits: 4}); err == nil {
		t.Error("deal 0 accepted")
	}
}

func TestPerftDeal1(t *testing.T) {
	// Deal 1, spider layout: the face-up row is 8H TH AH JC 4H 7H QS QC 7C 3S.
	// By hand: TH on JC (2->4), JC on QS or QC (4->7, 4->8), 7H and 7C on 8H
	// (6->1, 9->1), 3S on 4H (10->5), and the deal.
	p, _ := NewDeal(1, Spider, Rules{Suits: 4})
	got := fmt.Sprint(p.Legal(nil))
	want := "[move 2 4 1 move 4 7 1 move 4 8 1 move 6 1 1 move 9 1 1 move 10 5 1 deal]"
	if got != want {
		t.Fatalf("legal moves = %s\nwant %s", got, want)
	}
	// Perft: leaf counts of the move tree, pinned to catch any change in
	// move generation. Depth 1 is checked by hand above.
	counts := []int{7}
	var perft func(p *Position, d int) int
	perft = func(p *Position, d int) int {
		var buf [256]Move
		ms := p.Legal(buf[:0])
		if d == 1 {
			return len(ms)
		}
		n := 0
		for _, m := range ms {
			u := p.Do(m)
			n += perft(p, d-1)
			p.Undo(m, u)
		}
		return n
	}
	for d, want := range counts {
		if got := perft(p, d+1); got != want {
			t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
		}
	}
	if a, b := perft(p, 2), perft(p, 3); a <= 7 || b <= a {
		t.Errorf("perft 2, 3 = %d, %d: the tree must grow", a, b)
	}
}

// TestRandomPlay is the property test over random play: cards conserved,
// Legal agrees exactly with CheckMove, Do/Undo restores, save/load
// round-trips, undo-all then redo-all returns to the same state.
func TestRandomPlay(t *testing.T) { randomPlay(t, 6) }

// TestLongRandomPlay is TestRandomPlay at full size (30 instead of 6).
func TestLongRandomPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	randomPlay(t, 30)
}

func randomPlay(t *testing.T, deals int) {
	every := allMoves()
	for i := range deals {
		o := Options{Variant: Variant(i % 2), Suits: []int{1, 2, 4}[i%3], Relaxed: i%5 == 0,
			AutoRemove: i%4 == 1, Open: i%7 == 0, Cheat: CheatLevel(i % 3)}
		n := uint64(i*7919 + 1)
		if i%6 == 5 {
			n = card.MaxDeal - uint64(i)
		}
		t.Run(fmt.Sprintf("deal%d-%s-%d", n, o.Variant, o.Suits), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(n, 7))
			g := mustGame(t, n, o)
			var buf [256]Move
			for step := 0; step < 200; step++ {
				p := g.Pos()
				if err := p.Check(); err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				legal := p.Legal(buf[:0])
				for _, m := range every {
					err := p.CheckMove(m)
					in := slices.Contains(legal, m)
					if in != (err == nil) {
						t.Fatalf("step %d: %v: in Legal %v, CheckMove %v", step, m, in, err)
					}
					if err != nil && !errors.Is(err, ErrIllegal) {
						t.Fatalf("%v: error %v does not wrap ErrIllegal", m, err)
					}
				}
				if len(legal) == 0 {
					break
				}
				before := *p
				m := legal[rng.IntN(len(legal))]
				u := p.Do(m)
				p.Undo(m, u)
				if !p.Equal(&before) {
					t.Fatalf("step %d: undo of %v did not restore", step, m)
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
				if rng.IntN(10) == 0 {
					if err := g.Undo(); err != nil {
						t.Fatal(err)
					}
					if rng.IntN(2) == 0 {
						if err := g.Redo(); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			for g.CanRedo() {
				if err := g.Redo(); err != nil {
					t.Fatal(err)
				}
			}
			end := g.Position()
			played := g.MovesPlayed()
			saved := g.Save()
			h, err := Load(saved)
			if err != nil {
				t.Fatalf("load: %v\n%s", err, saved)
			}
			if !h.pos.Equal(&end) || h.Save() != saved || h.Score() != g.Score() {
				t.Fatalf("save/load changed the game")
			}
			for g.CanUndo() {
				if err := g.Undo(); err != nil {
					t.Fatal(err)
				}
			}
			start := g.Start()
			if !g.pos.Equal(&start) {
				t.Fatal("undo all did not reach the start")
			}
			for g.CanRedo() {
				if err := g.Redo(); err != nil {
					t.Fatal(err)
				}
			}
			if !g.pos.Equal(&end) || g.MovesPlayed() != played {
				t.Fatal("redo all did not return to the end")
			}
		})
	}
}

// wonLayout is a custom position one move from a win: seven complete runs
// standing and the spade run split between piles 8 and 9.
const nearWin = `pile1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
pile2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
pile3: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
pile4: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
pile5: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
pile6: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
pile7: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
pile8: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
pile9: AS
pile10:
`

func TestScoreMaxima(t *testing.T) {
	p := mustLayout(t, nearWin, 4)
	g, err := NewGameAt(p, Options{Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	if g.Won() {
		t.Fatal("won before the last move")
	}
	if err := g.Play(Cards(8, 7, 1)); err != nil {
		t.Fatal(err)
	}
	if !g.Won() || g.Stuck() {
		t.Fatal("not won with eight runs standing")
	}
	s := g.Score()
	if s.Total != 1000 || s.Counted != 1000 || s.StandingWin != 10 {
		t.Errorf("all eight standing: %+v, want 1000", s)
	}
	for k := range 8 {
		if err := g.Play(RemoveFrom(k)); err != nil {
			t.Fatal(err)
		}
	}
	if s := g.Score(); s.Total != 990 || !g.Won() {
		t.Errorf("all removed: %+v, want 990", s)
	}
	// Four standing, four removed: 990 + 2 for the fourth.
	for range 4 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if s := g.Score(); s.Total != 992 {
		t.Errorf("four standing: %+v, want 992", s)
	}
	// Three standing: no bonus.
	if err := g.Redo(); err != nil {
		t.Fatal(err)
	}
	if s := g.Score(); s.Total != 990 {
		t.Errorf("three standing: %+v, want 990", s)
	}
}

func TestScoreParts(t *testing.T) {
	g := mustGame(t, 1, Options{Variant: Spider})
	if s := g.Score(); s.Total != 0 || s.Turned != 0 {
		t.Fatalf("opening score %+v", s)
	}
	// 7H onto 8H: a same-suit build (2) and pile 6 turns up its 2D (10).
	if err := g.Play(Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	s := g.Score()
	if s.Builds != 2 || s.Turned != 10 || s.Total != 12 {
		t.Errorf("after 7H on 8H: %+v, want builds 2 turned 10", s)
	}
	// 7H on a face-down 8H scores no build, in the open tableau too
	// (docs/rules-spider.md #22): the score must not tell a covered card.
	layout := complete(t, []string{"|3D |8H 7H", "9C", "8S", "|4D 6C", "7D", "KS", "KH", "KD", "KC", "QS"}, "", 5, 9)
	for _, open := range []bool{false, true} {
		g, err := NewGameAt(mustLayout(t, layout, 4), Options{Open: open})
		if err != nil {
			t.Fatal(err)
		}
		if s := g.Score(); s.Builds != 0 {
			t.Errorf("open %v: 7H on a face-down 8H: %+v, want no build", open, s)
		}
	}
}

func TestCheatDetection(t *testing.T) {
	// Pile 1 keeps 8H face up when 7H leaves it for 8S (a plain move);
	// 6C leaving pile 4 for 7D turns 4D up (a revealing move); dealing shows
	// a new row.
	layout := complete(t, []string{"|3D 8H 7H", "9C", "8S", "|4D 6C", "7D", "KS", "KH", "KD", "KC", "QS"}, "", 5, 9)
	plain, reveal := Cards(0, 2, 1), Cards(3, 4, 1)
	// A restart before any move marks nothing, even under full detection
	// (docs/rules-spider.md #27); one after a move is an undo of it.
	g, err := NewGameAt(mustLayout(t, layout, 4), Options{Variant: Arachnid, Cheat: CheatFull})
	if err != nil {
		t.Fatal(err)
	}
	if g.Restart(); g.Cheated() {
		t.Error("a restart before any move was taken for cheating")
	}
	if err := g.Play(plain); err != nil {
		t.Fatal(err)
	}
	if g.Restart(); !g.Cheated() {
		t.Error("a restart after a move under full detection was not taken for cheating")
	}
	for _, tc := range []struct {
		level       CheatLevel
		move        Move
		wantCheated bool
	}{
		{CheatNone, reveal, false},
		{CheatNone, DealMove, false},
		{CheatNewCards, plain, false},
		{CheatNewCards, reveal, true},
		{CheatNewCards, DealMove, true},
		{CheatFull, plain, true},
	} {
		t.Run(fmt.Sprintf("%s-%s", tc.level, tc.move), func(t *testing.T) {
			g, err := NewGameAt(mustLayout(t, layout, 4), Options{Variant: Arachnid, Cheat: tc.level})
			if err != nil {
				t.Fatal(err)
			}
			m := &tc.move
			if err := g.Play(*m); err != nil {
				t.Fatal(err)
			}
			before := g.Score().Total
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			if g.Cheated() != tc.wantCheated {
				t.Fatalf("cheated = %v, want %v", g.Cheated(), tc.wantCheated)
			}
			if err := g.Redo(); err != nil {
				t.Fatal(err)
			}
			s := g.Score()
			want := before
			if tc.wantCheated {
				want = before / 2
			}
			if s.Counted != want {
				t.Errorf("counted %d, want %d (raw %d)", s.Counted, want, s.Total)
			}
		})
	}
}

func TestSpiderScoringStops(t *testing.T) {
	g := mustGame(t, 1, Options{Variant: Spider})
	if err := g.Play(Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if err := g.Play(Cards(8, 5, 1)); err == nil {
		// 7C onto 2D is illegal; nothing must change.
		t.Fatal("7C on 2D accepted")
	}
	at := g.Score().Counted
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := g.Redo(); err != nil {
		t.Fatal(err)
	}
	if err := g.Play(Cards(9, 4, 1)); err != nil {
		t.Fatal(err)
	}
	s := g.Score()
	if !s.Stopped || s.Counted != at || s.Total == at {
		t.Errorf("spider scoring after undo: %+v, want frozen at %d", s, at)
	}
	h := mustGame(t, 1, Options{Variant: Spider})
	// A restart before any move takes nothing back: scoring goes on
	// (docs/rules-spider.md #27).
	h.Restart()
	if h.ScoringStopped() || h.Actions() != 0 {
		t.Errorf("a restart before any move stopped scoring (%v) or counted an action (%d)", h.ScoringStopped(), h.Actions())
	}
	if err := h.Play(Cards(5, 0, 1)); err != nil {
		t.Fatal(err)
	}
	h.Restart()
	if !h.ScoringStopped() {
		t.Error("restart did not stop spider scoring")
	}
	l, err := Load(mustGame(t, 2, Options{Variant: Spider}).Save())
	if err != nil {
		t.Fatal(err)
	}
	l.MarkLoaded()
	if !l.ScoringStopped() {
		t.Error("load did not stop spider scoring")
	}
}

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

// complete fills a partial 4-suit layout to 104 cards: piles as given (pile
// 1 first, '|' marks face down), the suits in completed removed, the next
// rows*10 missing cards as the stock, and any cards still missing face down
// under pile spare (0-based; -1 for none).
func complete(tb testing.TB, piles []string, completed string, rows, spare int) string {
	tb.Helper()
	count := map[card.Card]int{}
	for _, s := range card.Suits {
		for r := card.Ace; r <= card.King; r++ {
			count[card.New(r, s)] = 2
		}
	}
	take := func(c card.Card) {
		if count[c] == 0 {
			tb.Fatalf("layout uses %s too often", c)
		}
		count[c]--
	}
	for _, pl := range piles {
		cs, err := card.ParseList(strings.ReplaceAll(pl, "|", ""))
		if err != nil {
			tb.Fatal(err)
		}
		for _, c := range cs {
			take(c)
		}
	}
	for _, f := range strings.Fields(completed) {
		for r := card.Ace; r <= card.King; r++ {
			take(card.New(r, card.MustParse("A"+f).Suit()))
		}
	}
	var rest []card.Card
	for _, s := range card.Suits {
		for r := card.Ace; r <= card.King; r++ {
			for range count[card.New(r, s)] {
				rest = append(rest, card.New(r, s))
			}
		}
	}
	if len(rest) < rows*10 || (len(rest) > rows*10 && spare < 0) {
		tb.Fatalf("%d cards left for %d rows", len(rest), rows)
	}
	var b strings.Builder
	for k, pl := range piles {
		fmt.Fprintf(&b, "pile%d:", k+1)
		if k == spare {
			for _, c := range rest[rows*10:] {
				b.WriteString(" |" + c.String())
			}
		}
		b.WriteString(" " + pl + "\n")
	}
	for r := range rows {
		fmt.Fprintf(&b, "row%d: %s\n", r+1, card.Format(rest[r*10:r*10+10]))
	}
	if completed != "" {
		b.WriteString("completed: " + completed + "\n")
	}
	return b.String()
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
