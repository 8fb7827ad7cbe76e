package arlington

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"cardtable/card"
)

// setup builds a hand in progress: each seat's hand, each seat's table
// (sets separated by "|"), and who has the lead; every other card is in
// the graveyard. Target is 32 and totals are zero.
func setup(tb testing.TB, hands []string, tables []string, lead int) *State {
	tb.Helper()
	s, err := New(Config{Players: len(hands)}, 1)
	if err != nil {
		tb.Fatal(err)
	}
	used := Set(0)
	take := func(x Set) {
		if used.Mask()&x.Mask() != 0 || used.Jokers()+x.Jokers() > 2 {
			tb.Fatalf("setup: %v used twice", x)
		}
		used = used.Union(x)
	}
	for i, h := range hands {
		s.hands[i] = mustSet(tb, h)
		take(s.hands[i])
		s.tables[i] = nil
		if i < len(tables) && tables[i] != "" {
			for _, part := range strings.Split(tables[i], "|") {
				t := mustSet(tb, part)
				take(t)
				s.tables[i] = append(s.tables[i], t)
			}
		}
	}
	s.grave = FullDeck.Minus(used)
	s.lead = lead
	s.trick = nil
	s.startPlay()
	if err := s.CheckCards(); err != nil {
		tb.Fatal(err)
	}
	return s
}

// do applies actions in notation, each as "SEAT ACTION".
func do(tb testing.TB, s *State, moves ...string) {
	tb.Helper()
	for _, m := range moves {
		seatText, act, _ := strings.Cut(m, " ")
		var seat int
		fmt.Sscan(seatText, &seat)
		a, err := ParseAction(act)
		if err != nil {
			tb.Fatal(err)
		}
		if err := s.Apply(seat, a); err != nil {
			tb.Fatalf("%s: %v", m, err)
		}
		if err := s.CheckCards(); err != nil {
			tb.Fatalf("%s: %v", m, err)
		}
	}
}

// refused applies one action and wants it refused under rule, with the
// state unchanged.
func refused(tb testing.TB, s *State, move, rule string) {
	tb.Helper()
	seatText, act, _ := strings.Cut(move, " ")
	var seat int
	fmt.Sscan(seatText, &seat)
	a, err := ParseAction(act)
	if err != nil {
		tb.Fatal(err)
	}
	before := s.Clone()
	err = s.Apply(seat, a)
	var re *RuleError
	if !errors.As(err, &re) || !errors.Is(err, ErrIllegal) {
		tb.Fatalf("%s: got %v, want a refusal", move, err)
	}
	if re.Rule != rule {
		tb.Fatalf("%s: refused under %q, want %q (%v)", move, re.Rule, rule, err)
	}
	if !sameState(before, s) {
		tb.Fatalf("%s: refusal changed the state", move)
	}
}

func hand(s *State, seat int) string { return card.Format(s.Hand(seat).Cards()) }

func TestTrick(t *testing.T) {
	t.Run("highest of the led suit takes; the rest go to the taker", func(t *testing.T) {
		s := setup(t, []string{"7H 2C", "9H 3C", "AS 4C", "KH 5C"}, nil, 0)
		g := s.Graveyard().Len()
		do(t, s, "0 lead 7H", "1 play 9H", "2 play AS", "3 play KH")
		if s.Graveyard().Len() != g+1 || !s.Graveyard().Has(card.MustParse("KH")) {
			t.Fatal("the taking card KH should go to the graveyard")
		}
		if got := hand(s, 3); got != "AS 9H 7H 5C" {
			t.Fatalf("taker's hand %s, want AS 9H 7H 5C", got)
		}
		if s.ToMove() != 3 || s.Phase() != PhaseLead {
			t.Fatalf("seat %d to move in %v, want the taker 3 to lead", s.ToMove(), s.Phase())
		}
	})
	t.Run("a led joker takes", func(t *testing.T) {
		s := setup(t, []string{"JK 2C", "AH 3C", "JK 4C"}, nil, 0)
		do(t, s, "0 lead JK", "1 play AH", "2 play JK")
		if s.ToMove() != 0 || hand(s, 0) != "AH 2C JK" {
			t.Fatalf("to move %d, hand %s", s.ToMove(), hand(s, 0))
		}
	})
	t.Run("a joker played later does not take", func(t *testing.T) {
		s := setup(t, []string{"3C 2D", "JK 4D", "2C 5D"}, nil, 0)
		do(t, s, "0 lead 3C", "1 play JK", "2 play 2C")
		if s.ToMove() != 0 || !s.Graveyard().Has(card.MustParse("3C")) {
			t.Fatal("3C should take")
		}
	})
	t.Run("players without cards take no part", func(t *testing.T) {
		s := setup(t, []string{"3C 2D", "", "2C 5D"}, nil, 0)
		do(t, s, "0 lead 3C")
		if s.ToMove() != 2 {
			t.Fatalf("seat %d to play, want 2 (seat 1 has no cards)", s.ToMove())
		}
		refused(t, s, "2 pass", "Leading a Card")
		refused(t, s, "2 play 3D", "Leading a Card")
	})
	t.Run("no one else has cards: the led card takes and its leader leads", func(t *testing.T) {
		s := setup(t, []string{"3C 2D", "", ""}, nil, 0)
		do(t, s, "0 lead 3C")
		if s.ToMove() != 0 || s.Phase() != PhaseLead || hand(s, 0) != "2D" {
			t.Fatalf("to move %d phase %v hand %s", s.ToMove(), s.Phase(), hand(s, 0))
		}
	})
}

func TestSetRound(t *testing.T) {
	t.Run("responses clockwise, ending at the leader's right", func(t *testing.T) {
		s := setup(t, []string{"5S 5H 2C", "6S 6H 3C", "7S 7H 4C", "8S 8H 4D"}, nil, 1)
		do(t, s, "1 set multiples 6S 6H", "2 set multiples 7S 7H", "3 pass", "0 pass")
		if s.ToMove() != 2 || s.Phase() != PhaseLead {
			t.Fatalf("to move %d (%v), want seat 2, owner of the active set, to lead", s.ToMove(), s.Phase())
		}
		if len(s.Table(1)) != 0 || !s.Graveyard().Has(card.MustParse("6S")) {
			t.Fatal("the replaced set should be in the graveyard")
		}
		if fmt.Sprint(s.Table(2)) != "[{7S, 7H}]" {
			t.Fatalf("seat 2's table %v", s.Table(2))
		}
	})
	t.Run("the round ends at the leader's right even after a new active set", func(t *testing.T) {
		s := setup(t, []string{"5S 5H 2C", "6S 6H 3C", "7S 7H 4C"}, nil, 0)
		do(t, s, "0 set multiples 5S 5H", "1 set 6S 6H", "2 set 7S 7H")
		if s.ToMove() != 2 || s.Phase() != PhaseLead {
			t.Fatalf("to move %d (%v): the leader 0 may not respond; seat 2 leads", s.ToMove(), s.Phase())
		}
	})
	t.Run("kill with the S2 ends the round", func(t *testing.T) {
		s := setup(t, []string{"AS AH 2C", "S2 3C", "7S 7H 4C"}, nil, 0)
		do(t, s, "0 set aces AS AH", "1 kill")
		if s.ToMove() != 1 || s.Phase() != PhaseLead || len(s.Table(0)) != 0 {
			t.Fatalf("to move %d (%v), table %v", s.ToMove(), s.Phase(), s.Table(0))
		}
		for _, c := range []string{"AS", "AH", "S2"} {
			if !s.Graveyard().Has(card.MustParse(c)) {
				t.Fatalf("%s not in the graveyard", c)
			}
		}
	})
	t.Run("kill needs the S2", func(t *testing.T) {
		s := setup(t, []string{"AS AH 2C", "3C", "7S 7H 4C"}, nil, 0)
		do(t, s, "0 set aces AS AH")
		refused(t, s, "1 kill", "Leading a Set")
	})
	t.Run("7S JK does not beat 7H JK", func(t *testing.T) {
		s := setup(t, []string{"7H JK 2C", "7S JK 3C"}, nil, 0)
		do(t, s, "0 set multiples 7H JK")
		refused(t, s, "1 set multiples 7S JK", "Leading a Set")
		for _, a := range s.Legal(1) {
			if a.Kind == PlaySet {
				t.Fatalf("Legal offers %v", a)
			}
		}
	})
	t.Run("responses stay in the spectrum originally led", func(t *testing.T) {
		// The text: {SQ, HJ}, {DK, DQ}, {C6, C7, C8} is not allowed.
		s := setup(t, []string{"SQ HJ 2C", "DK DQ 3C", "C6 C7 C8 4D"}, nil, 0)
		do(t, s, "0 set couples SQ HJ", "1 set couples DK DQ")
		refused(t, s, "2 set runs C8 C7 C6", "Leading a Set")
		refused(t, s, "2 set C8 C7 C6", "Sets") // unnamed: the round's spectrum, couples
		do(t, s, "2 pass")
	})
	t.Run("a set must be legal in the spectrum named", func(t *testing.T) {
		s := setup(t, []string{"SQ HJ 2C", "DK DQ 3C"}, nil, 0)
		refused(t, s, "0 set multiples SQ HJ", "Sets")
		refused(t, s, "0 set couples SQ 2C", "Sets")
		refused(t, s, "0 set couples SQ DK", "Leading a Set")
	})
	t.Run("a responder without cards is skipped; an empty owner ends the hand", func(t *testing.T) {
		s := setup(t, []string{"AS AH", "", "3C"}, []string{"", "KS KH"}, 0)
		do(t, s, "0 set aces AS AH", "2 pass")
		// Seat 0 owns the set and has the lead with no cards: scoring.
		if s.HandNumber() != 2 {
			t.Fatalf("hand %d, want the hand scored and a new one dealt", s.HandNumber())
		}
		if got := fmt.Sprint(s.Totals()); got != "[2 2 0]" {
			t.Fatalf("totals %s, want [2 2 0]", got)
		}
	})
}

// Decision: after adding to a set or picking up a joker the same player
// keeps the lead (the text moves the lead only for tricks, set rounds and
// the S2, which says "has the lead again").
func TestLeadStaysAfterAddS2AndPickUp(t *testing.T) {
	s := setup(t, []string{"7D S2 9S 5C", "3C"}, []string{"7S 7H", "8S JK"}, 0)
	do(t, s, "0 add 7D 0/0")
	if s.ToMove() != 0 || s.Phase() != PhaseLead {
		t.Fatalf("after add: to move %d (%v)", s.ToMove(), s.Phase())
	}
	if fmt.Sprint(s.Table(0)) != "[{7S, 7H, 7D}]" {
		t.Fatalf("table %v", s.Table(0))
	}
	do(t, s, "0 pickup 9S 1/0")
	if s.ToMove() != 0 || s.Phase() != PhaseLead {
		t.Fatalf("after pickup: to move %d (%v)", s.ToMove(), s.Phase())
	}
	if got := hand(s, 0); got != "5C 2S JK" {
		t.Fatalf("after pickup the hand is %s, want 5C 2S JK", got)
	}
	if fmt.Sprint(s.Table(1)) != "[{9S, 8S}]" {
		t.Fatalf("table 1 %v", s.Table(1))
	}
	do(t, s, "0 s2 0/0")
	if s.ToMove() != 0 || len(s.Table(0)) != 0 {
		t.Fatalf("after s2: to move %d, table %v", s.ToMove(), s.Table(0))
	}
}

func TestAddAndPickUpRules(t *testing.T) {
	s := setup(t, []string{"7D 5C JK KS", "3C"}, []string{"7S 7H", "QS JK|8S 9S"}, 0)
	refused(t, s, "0 add 5C 0/0", "Adding to a Set")       // {7S, 7H, 5C}
	refused(t, s, "0 add 7D 0/1", "Adding to a Set")       // no such set
	refused(t, s, "0 pickup 7D 0/0", "Picking up a Joker") // no joker there
	refused(t, s, "0 pickup JK 1/0", "Picking up a Joker") // a joker for a joker
	refused(t, s, "0 pickup 5C 1/0", "Picking up a Joker") // {QS, 5C}
	refused(t, s, "0 s2 1/0", "Playing the Two of Spades") // no S2 held
	refused(t, s, "0 pass", "The Hand")
	refused(t, s, "1 lead 3C", "The Hand") // not seat 1's turn
	// A joker may be added ({7S, 7H, JK} represents three 7s).
	do(t, s, "0 add JK 0/0", "0 pickup KS 1/0")
	if fmt.Sprint(s.Table(0), s.Table(1)) != "[{7S, 7H, JK}] [{KS, QS} {9S, 8S}]" {
		t.Fatalf("tables %v %v", s.Table(0), s.Table(1))
	}
	if got := hand(s, 0); got != "7D 5C JK" {
		t.Fatalf("hand %s", got)
	}
	// The result may be in another spectrum than the set was played in.
	s = setup(t, []string{"TS 8H 2C", "3C"}, []string{"8S JK"}, 0)
	refused(t, s, "0 pickup TS 0/0", "Picking up a Joker") // {TS, 8S}
	do(t, s, "0 pickup 8H 0/0")
	if fmt.Sprint(s.Table(0)) != "[{8S, 8H}]" {
		t.Fatalf("table %v", s.Table(0))
	}
}

// The text: if the player with the lead has no cards the hand is scored,
// whoever else still holds cards.
func TestHandEndsWhenLeaderHasNoCards(t *testing.T) {
	t.Run("after adding her last card", func(t *testing.T) {
		s := setup(t, []string{"7D", "3C 4C"}, []string{"7S 7H", "DQ JK"}, 0)
		do(t, s, "0 add 7D 0/0")
		if s.HandNumber() != 2 {
			t.Fatal("the hand should have been scored")
		}
		r := s.Results()[0]
		if fmt.Sprint(r.Scores) != "[4 8]" {
			t.Fatalf("scores %v, want [4 8] ({DQ, JK} as {DK, DQ})", r.Scores)
		}
	})
	t.Run("after killing with her last card", func(t *testing.T) {
		s := setup(t, []string{"AS AH 4D", "S2", "3C 4C"}, []string{"", "", "KH QH"}, 0)
		do(t, s, "0 set aces AS AH", "1 kill")
		if s.HandNumber() != 2 || fmt.Sprint(s.Results()[0].Scores) != "[0 0 8]" {
			t.Fatalf("hand %d results %v", s.HandNumber(), s.Results())
		}
	})
}

func TestNewHandAndGameEnd(t *testing.T) {
	s := setup(t, []string{"7D", ""}, []string{"SA HA DA CA", ""}, 0)
	s.totals = []int{30, 31}
	do(t, s, "0 lead 7D")
	// Seat 0 took the trick with its last card and has the lead with no
	// cards: scored 8, total 38, game over.
	if !s.Terminal() || fmt.Sprint(s.Totals()) != "[38 31]" || fmt.Sprint(s.Winners()) != "[0]" {
		t.Fatalf("terminal %v totals %v winners %v", s.Terminal(), s.Totals(), s.Winners())
	}
	if err := s.CheckCards(); err != nil {
		t.Fatal(err)
	}
	if s.ToMove() != -1 || s.Legal(0) != nil {
		t.Fatal("no one moves after the game")
	}
	refused(t, s, "0 lead 7D", "The Game")

	t.Run("ties share the win", func(t *testing.T) {
		s := setup(t, []string{"7D", "", ""}, []string{"SA HA", "SK SQ", "HK HQ"}, 0)
		s.totals = []int{20, 30, 30}
		do(t, s, "0 lead 7D")
		if fmt.Sprint(s.Winners()) != "[1 2]" {
			t.Fatalf("winners %v totals %v", s.Winners(), s.Totals())
		}
	})
	t.Run("below the target a new hand is dealt by the next dealer", func(t *testing.T) {
		s := setup(t, []string{"7D", "", ""}, nil, 0)
		d := s.Dealer()
		do(t, s, "0 lead 7D")
		if s.Terminal() || s.HandNumber() != 2 || s.Dealer() != (d+1)%3 {
			t.Fatalf("hand %d dealer %d (was %d)", s.HandNumber(), s.Dealer(), d)
		}
		if s.ToMove() != (s.Dealer()+1)%3 {
			t.Fatal("the player to the dealer's left leads")
		}
		for i := range 3 {
			if s.Hand(i).Len() != 8 || len(s.Table(i)) != 0 {
				t.Fatalf("seat %d: %d cards, %d sets", i, s.Hand(i).Len(), len(s.Table(i)))
			}
		}
	})
}

// The text: a set led without a named spectrum is in the first of Aces,
// Multiples, Couples, Runs it belongs to; a single card is led as a card.
func TestUnnamedSpectrum(t *testing.T) {
	s := setup(t, []string{"DK DQ SA", "3C"}, nil, 0)
	do(t, s, "0 set DK DQ")
	if s.History()[0].Action.Spectrum != Couples {
		t.Fatalf("recorded %v", s.History()[0].Action)
	}
	s = setup(t, []string{"DK DQ SA", "3C"}, nil, 0)
	do(t, s, "0 set SA")
	if got := s.History()[0].Action; got.Kind != LeadCard || s.Phase() != PhaseTrick {
		t.Fatalf("recorded %v in phase %v, want the SA led as a card", got, s.Phase())
	}
	s = setup(t, []string{"DK DQ SA", "3C"}, nil, 0)
	do(t, s, "0 set aces SA")
	if s.Phase() != PhaseRound {
		t.Fatal("a named single-card set is a set")
	}
}

func TestDealFromSeed(t *testing.T) {
	for players := 2; players <= 6; players++ {
		a, _ := New(Config{Players: players}, 42)
		b, _ := New(Config{Players: players}, 42)
		c, _ := New(Config{Players: players}, 43)
		if !sameState(a, b) {
			t.Fatal("same seed, different deal")
		}
		if sameState(a, c) && a.Hand(0) == c.Hand(0) {
			t.Fatal("different seeds, same deal")
		}
		for i := range players {
			if a.Hand(i).Len() != 8 {
				t.Fatalf("seat %d has %d cards", i, a.Hand(i).Len())
			}
		}
		if a.Graveyard().Len() != 54-8*players {
			t.Fatalf("graveyard %d", a.Graveyard().Len())
		}
		if a.ToMove() != (a.Dealer()+1)%players || a.Config().Target != 32 {
			t.Fatal("the dealer's left leads; target defaults to 32")
		}
	}
	if _, err := New(Config{Players: 7}, 1); !errors.Is(err, ErrConfig) {
		t.Fatal("7 players accepted")
	}
	if _, err := New(Config{Players: 1}, 1); !errors.Is(err, ErrConfig) {
		t.Fatal("1 player accepted")
	}
	// The target: 1 to MaxTarget, the range Load reads back, so every
	// game New starts has a record that loads.
	for _, target := range []int{-1, MaxTarget + 1, 5000} {
		if _, err := New(Config{Players: 2, Target: target}, 1); !errors.Is(err, ErrConfig) {
			t.Fatalf("target %d: err %v, want ErrConfig", target, err)
		}
	}
	for _, target := range []int{1, MaxTarget} {
		s, err := New(Config{Players: 2, Target: target}, 1)
		if err != nil {
			t.Fatalf("target %d refused: %v", target, err)
		}
		if _, _, err := Load(strings.NewReader(s.Record().String())); err != nil {
			t.Fatalf("target %d: the record does not load: %v", target, err)
		}
	}
}

// Decision: the cut. Each seat cuts a different card of one shuffle; the
// highest suit card deals (in the card order: of two of one rank, the
// higher suit); a joker cannot win; all jokers cut again.
func TestCutForDealer(t *testing.T) {
	jokerCut, tie := 0, 0
	for seed := range uint64(300) {
		s, _ := New(Config{Players: 2 + int(seed%5)}, seed)
		cut := s.Cut()
		best := -1
		for i, c := range cut {
			if c != card.Joker && (best < 0 || Higher(c, cut[best])) {
				best = i
			}
		}
		if best != s.Dealer() {
			t.Fatalf("seed %d: cut %v, dealer %d", seed, card.Format(cut), s.Dealer())
		}
		if cut[0] == card.Joker || cut[1] == card.Joker {
			jokerCut++
		}
		// A tie on the winning rank: only the suit decides who deals.
		for i, c := range cut {
			if i != best && c != card.Joker && c.Rank() == cut[best].Rank() {
				tie++
				break
			}
		}
	}
	if jokerCut == 0 {
		t.Fatal("no cut with a joker in 300 seeds: the joker case is not exercised")
	}
	if tie == 0 {
		t.Fatal("no cut tied on the winning card's rank in 300 seeds: the suit deciding between them is not exercised")
	}
	t.Logf("%d of 300 cuts tied on the winning rank, %d with a joker", tie, jokerCut)
}

// Decision: when both players of a two-player game cut jokers they cut
// again, and the first deal's event carries the cut that chose the
// dealer, not the jokers. Seed 3517 is the first whose first shuffle
// puts the two jokers on top.
func TestRecutShowsTheLastCut(t *testing.T) {
	const seed = 3517
	first := (&State{rng: Rand{s: seed}, cfg: Config{Players: 2}}).shuffled()
	if first[0] != card.Joker || first[1] != card.Joker {
		t.Fatalf("seed %d: the first cut is %v, not two jokers", seed, card.Format(first[:2]))
	}
	s, err := New(Config{Players: 2}, seed)
	if err != nil {
		t.Fatal(err)
	}
	cut := s.Cut()
	if slices.Contains(cut, card.Joker) {
		t.Fatalf("the cut that chose the dealer is %v", card.Format(cut))
	}
	deal := s.Events(0)[0]
	if deal.Kind != EventDeal || deal.Hand != 1 || !slices.Equal(deal.Cut, cut) {
		t.Fatalf("the first event is %v, hand %d, cut %v; the cut was %v", deal.Kind, deal.Hand, card.Format(deal.Cut), card.Format(cut))
	}
	want := 0
	if Higher(cut[1], cut[0]) {
		want = 1
	}
	if s.Dealer() != want {
		t.Fatalf("cut %v, dealer %d", card.Format(cut), s.Dealer())
	}
	t.Logf("seed %d: jokers, then %v", seed, card.Format(cut))
}

// Decision: the S2 is an ordinary card inside a set; only "kill" (in a
// round) and "s2" (with the lead) use it to kill.
func TestS2InsideASet(t *testing.T) {
	s := setup(t, []string{"C2 D2 5H", "S2 H2 6H", "7C"}, nil, 0)
	do(t, s, "0 set multiples C2 D2", "1 set multiples S2 H2", "2 pass")
	if s.ToMove() != 1 || fmt.Sprint(s.Table(1)) != "[{2S, 2H}]" {
		t.Fatalf("to move %d, table %v", s.ToMove(), s.Table(1))
	}
	refused(t, s, "1 s2 1/0", "Playing the Two of Spades") // the S2 is on the table now
}

// Decision: a joker may represent any suit card not in its own set,
// wherever that card is (another table, a hand, the graveyard).
func TestJokerRepresentsCardsElsewhere(t *testing.T) {
	s := setup(t, []string{"7H JK 2C", "3C"}, []string{"", "7S 7D 7C"}, 0)
	do(t, s, "0 set multiples 7H JK", "1 pass")
	if fmt.Sprint(s.Table(0)) != "[{7H, JK}]" {
		t.Fatalf("table %v", s.Table(0))
	}
	if k, _ := KeyIn(mustSet(t, "7H JK"), Multiples); k != mustKey(t, "7S 7H", Multiples) {
		t.Fatal("{7H, JK} should still represent {7S, 7H} with the 7S on a table")
	}
}

func mustKey(tb testing.TB, text string, sp Spectrum) Key {
	tb.Helper()
	k, ok := KeyIn(mustSet(tb, text), sp)
	if !ok {
		tb.Fatalf("%s not in %v", text, sp)
	}
	return k
}
