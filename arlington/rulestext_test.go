package arlington

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"cardtable/card"
)

// TestRulesTextSections pins rules of "The Official Rules of Arlington"
// that no other test pins by name, one case per rule, named by the text's
// section ("The Hand", "Leading a Card", ...). docs/rules-arlington.md,
// "Rule by rule", lists every rule of the text with the test that pins
// it, these cases among them.
func TestRulesTextSections(t *testing.T) {
	for _, c := range rulesTextCases {
		t.Run(c.name, c.run)
	}
}

// rulesTextCases is TestRulesTextSections' cases: "section/rule" and the
// check of that rule.
var rulesTextCases = []struct {
	name string
	run  func(t *testing.T)
}{
	{"The Hand/the deal passes to the left and wraps round, for 2 to 6 players", ruleDealPassesLeft},
	{"The Hand/with cards in hand the player with the lead must act", ruleLeaderMustAct},
	{"Leading a Card/no one must follow suit, and an off-suit card cannot take", ruleNoFollowingSuit},
	{"Leading a Set/a lower set cannot answer", ruleLowerSetCannotAnswer},
	{"Leading a Set/more cards beat higher cards in Aces, Multiples and Runs", ruleMoreCardsBeatHigher},
	{"Leading a Set/with two players the other's one answer ends the round", ruleTwoPlayersOneAnswer},
	{"Playing the Two of Spades/only when some table holds a set", ruleS2NeedsASet},
	{"Playing the Two of Spades/on another player's set; the player keeps the lead", ruleS2OnAnotherTable},
	{"Adding to a Set/to another player's set, which may change spectrum", ruleAddToAnotherSet},
	{"Picking up a Joker/the card put in need not be the one the joker stood for", rulePickUpAnyCard},
	{"Jokered Sets/two jokers stand for two different cards that exist", ruleTwoJokersDiffer},
	{"Jokered Sets/a jokered set ranks in the spectrum it is played in", ruleJokeredSpectrum},
	{"Scoring/every set on the table scores; cards in hand score nothing", ruleEveryTableSetScores},
	{"The Game/a total of exactly the target ends the game", ruleExactTargetEnds},
	{"The Game/the highest total wins, not the first to reach the target", ruleHighestTotalWins},
}

func ruleDealPassesLeft(t *testing.T) {
	for players := 2; players <= 6; players++ {
		hands := make([]string, players)
		hands[0] = "7D"
		s := setup(t, hands, nil, 0)
		s.dealer = players - 1
		do(t, s, "0 lead 7D")
		if s.HandNumber() != 2 || s.Dealer() != 0 || s.ToMove() != 1 || s.Phase() != PhaseLead {
			t.Fatalf("%d players: hand %d dealt by %d, seat %d to move (%v); want hand 2 dealt by seat 0, seat 1 leading",
				players, s.HandNumber(), s.Dealer(), s.ToMove(), s.Phase())
		}
		for i := range players {
			if s.Hand(i).Len() != HandSize {
				t.Fatalf("%d players: seat %d holds %d cards", players, i, s.Hand(i).Len())
			}
		}
		if s.Graveyard().Len() != 54-HandSize*players {
			t.Fatalf("%d players: graveyard %d, want %d", players, s.Graveyard().Len(), 54-HandSize*players)
		}
	}
}

func ruleLeaderMustAct(t *testing.T) {
	s := setup(t, []string{"7D", "3C"}, nil, 0)
	refused(t, s, "0 pass", "The Hand")
	refused(t, s, "0 kill", "The Hand")
	if got := fmt.Sprint(s.Legal(0)); got != "[lead 7D]" {
		t.Fatalf("legal %s, want only leading the 7D", got)
	}
}

func ruleNoFollowingSuit(t *testing.T) {
	// Seat 1 holds a heart but plays the higher KC; seat 2 follows lower.
	s := setup(t, []string{"7H 2C", "9H KC", "5H 4C"}, nil, 0)
	do(t, s, "0 lead 7H", "1 play KC", "2 play 5H")
	if s.ToMove() != 0 || !s.Graveyard().Has(card.MustParse("7H")) || hand(s, 0) != "KC 5H 2C" {
		t.Fatalf("seat %d leads, hand 0 %s: want the 7H to take and the KC and 5H to go to seat 0", s.ToMove(), hand(s, 0))
	}
}

func ruleLowerSetCannotAnswer(t *testing.T) {
	s := setup(t, []string{"8S 8H 2C", "7S 7H 8D 8C 3C"}, nil, 0)
	do(t, s, "0 set multiples 8S 8H")
	refused(t, s, "1 set multiples 7S 7H", "Leading a Set")
	refused(t, s, "1 set multiples 8D 8C", "Leading a Set")
	for _, a := range s.Legal(1) {
		if a.Kind == PlaySet {
			t.Fatalf("Legal offers %v against {8S, 8H}", a)
		}
	}
}

func ruleMoreCardsBeatHigher(t *testing.T) {
	for _, x := range []struct{ led, answer string }{
		{"aces SA HA", "aces DA CA JK"},
		{"multiples SA HA", "multiples 2C 2D 2H"},
		{"runs SA SK", "runs C2 C3 C4"},
	} {
		s := setup(t, []string{cardsOf(x.led) + " 5D", cardsOf(x.answer) + " 6D"}, nil, 0)
		do(t, s, "0 set "+x.led, "1 set "+x.answer)
		if s.ToMove() != 1 || s.Phase() != PhaseLead {
			t.Fatalf("%s answered by %s: seat %d to move (%v)", x.led, x.answer, s.ToMove(), s.Phase())
		}
	}
}

func ruleTwoPlayersOneAnswer(t *testing.T) {
	s := setup(t, []string{"5S 5H 2C", "6S 6H 3C"}, nil, 0)
	do(t, s, "0 set multiples 5S 5H", "1 set multiples 6S 6H")
	if s.ToMove() != 1 || s.Phase() != PhaseLead || len(s.Table(0)) != 0 {
		t.Fatalf("seat %d to move (%v), table 0 %v: the leader may not answer; seat 1 leads", s.ToMove(), s.Phase(), s.Table(0))
	}
	s = setup(t, []string{"5S 5H 2C", "6S 6H 3C"}, nil, 0)
	do(t, s, "0 set multiples 5S 5H", "1 pass")
	if s.ToMove() != 0 || s.Phase() != PhaseLead || len(s.Table(0)) != 1 {
		t.Fatalf("seat %d to move (%v): after a pass the leader's set stands and she leads", s.ToMove(), s.Phase())
	}
}

func ruleS2NeedsASet(t *testing.T) {
	s := setup(t, []string{"S2 5C", "3C"}, nil, 0)
	for _, a := range s.Legal(0) {
		if a.Kind == PlayS2 {
			t.Fatalf("Legal offers %v with no set on any table", a)
		}
	}
	refused(t, s, "0 s2 0/0", "Playing the Two of Spades")
}

func ruleS2OnAnotherTable(t *testing.T) {
	s := setup(t, []string{"S2 5C", "3C"}, []string{"", "KS KH KD"}, 0)
	offered(t, s, 0, "s2 1/0")
	do(t, s, "0 s2 1/0")
	if len(s.Table(1)) != 0 || !s.Graveyard().Contains(mustSet(t, "S2 KS KH KD")) || s.ToMove() != 0 {
		t.Fatalf("table 1 %v, seat %d to move: want the set and the S2 in the graveyard and seat 0 to lead again", s.Table(1), s.ToMove())
	}
}

func ruleAddToAnotherSet(t *testing.T) {
	s := setup(t, []string{"TS 5C", "3C"}, []string{"", "QS JS"}, 0)
	offered(t, s, 0, "add TS 1/0")
	do(t, s, "0 add TS 1/0")
	if got := s.Table(1); len(got) != 1 || got[0] != mustSet(t, "QS JS TS") || Points(got[0]) != 4 {
		t.Fatalf("table 1 %v: want {QS, JS, TS}, a run of 4 points", got)
	}
	if s.ToMove() != 0 || s.Phase() != PhaseLead {
		t.Fatalf("seat %d to move (%v): seat 0 keeps the lead", s.ToMove(), s.Phase())
	}
}

func rulePickUpAnyCard(t *testing.T) {
	// {7S, 7H, JK} stands for three sevens with the 7D; the 7C does as well.
	s := setup(t, []string{"7C 5D", "3C"}, []string{"", "7S 7H JK"}, 0)
	offered(t, s, 0, "pickup 7C 1/0")
	do(t, s, "0 pickup 7C 1/0")
	if got := s.Table(1); len(got) != 1 || got[0] != mustSet(t, "7S 7H 7C") || hand(s, 0) != "5D JK" {
		t.Fatalf("table 1 %v, hand %s", got, hand(s, 0))
	}
}

func ruleTwoJokersDiffer(t *testing.T) {
	for text, want := range map[string]bool{
		"7S 7H 7D JK JK": false, // only the 7C is left for them
		"SA HA DA JK JK": false, // only the CA is left
		"7S 7H JK JK":    true,  // the 7D and the 7C
		"S2 S3 JK JK":    true,  // a run of four
	} {
		if got := Legal(mustSet(t, text)); got != want {
			t.Fatalf("{%s} legal %v, want %v", text, got, want)
		}
	}
}

func ruleJokeredSpectrum(t *testing.T) {
	// As pairs both stand at best for {7S, 7H}; as runs {8S, 7S} is above {8H, 7H}.
	a, b := mustSet(t, "7S JK"), mustSet(t, "7H JK")
	for sp, want := range map[Spectrum]int{Multiples: 0, Runs: 1} {
		if got, err := Compare(sp, a, b); err != nil || got != want {
			t.Fatalf("{7S, JK} against {7H, JK} in %v: %d (%v), want %d", sp, got, err, want)
		}
	}
	s := setup(t, []string{"7H JK 2C", "7S JK 3C"}, nil, 0)
	do(t, s, "0 set runs 7H JK", "1 set runs 7S JK")
	if s.ToMove() != 1 || s.Phase() != PhaseLead {
		t.Fatalf("seat %d to move (%v): as runs seat 1's answer stands and it leads", s.ToMove(), s.Phase())
	}
}

func ruleEveryTableSetScores(t *testing.T) {
	s := setup(t, []string{"7D", "KS KH KD"}, []string{"SA HA|C5 C6 C7|DQ JK|7S 7H"}, 0)
	do(t, s, "0 add 7D 0/3")
	// 2 (two aces) + 4 (a run of three) + 8 ({DQ, JK} as {DK, DQ}) + 4 (three sevens).
	if got := fmt.Sprint(s.Results()[0].Scores); got != "[18 0]" {
		t.Fatalf("scores %s, want [18 0]", got)
	}
}

func ruleExactTargetEnds(t *testing.T) {
	for _, x := range []struct {
		before int
		over   bool
	}{{24, true}, {23, false}} {
		s := setup(t, []string{"7D", ""}, []string{"SA HA DA CA"}, 0)
		s.totals = []int{x.before, 0}
		do(t, s, "0 lead 7D")
		if s.Terminal() != x.over {
			t.Fatalf("total %d + 8: game over %v, want %v", x.before, s.Terminal(), x.over)
		}
	}
}

func ruleHighestTotalWins(t *testing.T) {
	s := setup(t, []string{"7D", "", ""}, []string{"SA HA", "SK SQ", "3C 3D"}, 0)
	s.totals = []int{30, 30, 33}
	do(t, s, "0 lead 7D")
	if !s.Terminal() || fmt.Sprint(s.Totals()) != "[32 38 35]" || fmt.Sprint(s.Winners()) != "[1]" {
		t.Fatalf("totals %v winners %v, want [32 38 35] won by seat 1", s.Totals(), s.Winners())
	}
}

// offered fails unless seat's legal actions list the action in notation.
func offered(tb testing.TB, s *State, seat int, action string) {
	tb.Helper()
	a, err := ParseAction(action)
	if err != nil {
		tb.Fatal(err)
	}
	if !slices.Contains(s.Legal(seat), s.Normalize(a)) {
		tb.Fatalf("seat %d's legal actions %v do not list %s", seat, s.Legal(seat), action)
	}
}

// cardsOf is the cards of a "spectrum CARDS..." text.
func cardsOf(text string) string {
	_, cards, _ := strings.Cut(text, " ")
	return cards
}
