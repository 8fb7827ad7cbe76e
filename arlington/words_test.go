package arlington

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"cardtable/card"
)

// TestNarratorTellsAHand: a hand's events, as the engine logs them, in
// the words of the page's log; the narrator names the sets an add, a
// pick-up, a kill and an S2 touch from what it was told before.
func TestNarratorTellsAHand(t *testing.T) {
	n := NewNarrator([]string{"Ann", "Bob", "Cleo"})
	set := func(text string) Set { return mustSet(t, text) }
	c := card.MustParse
	events := []struct {
		e    Event
		want string
	}{
		{Event{Kind: EventDeal, Hand: 1, Seat: 2, Cut: []card.Card{c("7H"), card.Joker, c("KS")}},
			"Hand 1: Ann cut the 7♥, Bob a joker and Cleo the K♠, so Cleo, with the highest suit card, deals 8 cards each; Ann has the lead."},
		{Event{Kind: EventMove, Seat: 0, Action: Action{Kind: PlaySet, Set: set("7S 7H 7D"), Spectrum: Multiples}},
			"Ann leads the set 7♠ 7♥ 7♦ (of a kind)."},
		{Event{Kind: EventMove, Seat: 1, Action: Action{Kind: Pass}}, "Bob passes."},
		{Event{Kind: EventMove, Seat: 2, Action: Action{Kind: Kill}, ToGrave: set("7S 7H 7D S2")},
			"Cleo kills it with the S2: Ann's 7♠ 7♥ 7♦ and the S2 go to the graveyard; Cleo has the lead."},
		{Event{Kind: EventMove, Seat: 2, Action: Action{Kind: LeadCard, Card: c("KH")}}, "Cleo leads the K♥."},
		{Event{Kind: EventMove, Seat: 0, Action: Action{Kind: PlayCard, Card: c("TH")}}, "Ann plays the 10♥."},
		{Event{Kind: EventMove, Seat: 1, Action: Action{Kind: PlayCard, Card: c("AH")}}, "Bob plays the A♥."},
		{Event{Kind: EventTake, Seat: 1, ToHand: set("KH TH"), ToGrave: set("AH")},
			"Bob takes the trick with the A♥: K♥ 10♥ go to Bob's hand."},
		{Event{Kind: EventTake, Seat: 0, ToHand: set("8H"), ToGrave: set("AH")},
			"Ann takes the trick with the A♥: 8♥ goes to Ann's hand."},
		{Event{Kind: EventMove, Seat: 1, Action: Action{Kind: PlaySet, Set: set("5C 6C JK"), Spectrum: Runs}},
			"Bob leads the set 6♣ 5♣ joker (a run)."},
		{Event{Kind: EventMove, Seat: 2, Action: Action{Kind: PlaySet, Set: set("9D TD JD"), Spectrum: Runs}, ToGrave: set("5C 6C JK")},
			"Cleo answers with the higher set J♦ 10♦ 9♦ (a run); Bob's 6♣ 5♣ joker go to the graveyard."},
		{Event{Kind: EventMove, Seat: 0, Action: Action{Kind: Pass}}, "Ann passes."},
		{Event{Kind: EventMove, Seat: 2, Action: Action{Kind: AddCard, Card: c("QD"), Seat: 2, Index: 0}},
			"Cleo adds the Q♦ to Cleo's set J♦ 10♦ 9♦."},
		{Event{Kind: EventMove, Seat: 2, Action: Action{Kind: PlaySet, Set: set("QS JK"), Spectrum: Couples}},
			"Cleo leads the set Q♠ joker (a couple)."},
		{Event{Kind: EventMove, Seat: 0, Action: Action{Kind: Pass}}, "Ann passes."},
		{Event{Kind: EventMove, Seat: 1, Action: Action{Kind: Pass}}, "Bob passes."},
		{Event{Kind: EventMove, Seat: 2, Action: Action{Kind: PickUp, Card: c("KS"), Seat: 2, Index: 1}, ToHand: set("JK")},
			"Cleo puts the K♠ into Cleo's set Q♠ joker and takes its joker into hand."},
		{Event{Kind: EventMove, Seat: 2, Action: Action{Kind: PlayS2, Seat: 2, Index: 0}, ToGrave: set("QD JD TD 9D S2")},
			"Cleo plays the S2 on Cleo's set Q♦ J♦ 10♦ 9♦: both go to the graveyard."},
		{Event{Kind: EventMove, Seat: 2, Action: Action{Kind: AddCard, Card: c("JS"), Seat: 2, Index: 0}},
			"Cleo adds the J♠ to Cleo's set K♠ Q♠."},
		{Event{Kind: EventMove, Seat: 2, Action: Action{Kind: LeadCard, Card: card.Joker}}, "Cleo leads the joker."},
		{Event{Kind: EventTake, Seat: 2, ToGrave: set("JK")}, "Cleo takes the trick with the joker; no other cards were played."},
		{Event{Kind: EventScore, Hand: 1, Seat: -1, Scores: []int{0, 0, 4}}, "Hand 1 is scored: Ann 0, Bob 0, Cleo 4."},
	}
	for i, x := range events {
		x.e.N = i
		if got := n.Tell(x.e); got != x.want {
			t.Errorf("event %d (%v %v):\n got %q\nwant %q", i, x.e.Kind, x.e.Action, got, x.want)
		}
	}
	if n.Told() != len(events) {
		t.Errorf("Told %d, want %d", n.Told(), len(events))
	}
}

// TestNarratorFollowsRandomGames: over random games the narrator, told
// only the public events, keeps every table as the engine has it (so the
// sets its words name are the real ones), and every sentence is words,
// never notation or a fallback.
func TestNarratorFollowsRandomGames(t *testing.T) {
	for players := 2; players <= 6; players++ {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			names := []string{"Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"}[:players]
			n := NewNarrator(names)
			seed := uint64(players*31 + 5)
			kinds := map[Kind]bool{}
			tell := func(s *State) {
				for _, e := range s.Events(n.Told()) {
					w := n.Tell(e)
					if w == "" || strings.Contains(w, "seat ") || strings.Contains(w, "%!") || !strings.HasSuffix(w, ".") {
						t.Fatalf("event %d (%v %v): %q", e.N, e.Kind, e.Action, w)
					}
					if e.Kind == EventMove {
						kinds[e.Action.Kind] = true
						if !strings.HasPrefix(w, names[e.Seat]+" ") {
							t.Fatalf("event %d: %q does not start with the actor %s", e.N, w, names[e.Seat])
						}
					}
				}
				for seat := range players {
					if got, want := n.tables[seat], s.Table(seat); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
						t.Fatalf("after %d events seat %d's table: narrator %v, engine %v", n.Told(), seat, got, want)
					}
				}
			}
			s := randomGame(t, players, seed, func(s *State, _ int, _ Action) { tell(s) })
			if n.Told() != s.EventCount() {
				t.Errorf("told %d of %d events", n.Told(), s.EventCount())
			}
			for _, k := range []Kind{LeadCard, PlayCard, PlaySet, Pass} {
				if !kinds[k] {
					t.Errorf("the game never had a %v: the test saw too little", k)
				}
			}
		})
	}
}

// TestActionWords: every kind of action as its button names it.
func TestActionWords(t *testing.T) {
	v := View{Seat: 1, Phase: PhaseLead, Tables: [][]TableSet{
		{{Cards: Cards{card.MustParse("7S"), card.Joker}}},
		{{Cards: Cards{card.MustParse("QH"), card.MustParse("JH")}}},
	}}
	names := []string{"Ann", "Bob"}
	for _, x := range []struct {
		v    View
		a    string
		want string
	}{
		{v, "lead 7H", "Lead the 7♥"},
		{v, "play TD", "Play the 10♦"},
		{v, "set multiples 9S 9H", "Lead the set 9♠ 9♥ (of a kind)"},
		{View{Seat: 1, Phase: PhaseRound}, "set multiples 9S 9H", "Answer with 9♠ 9♥ (of a kind)"},
		{v, "pass", "Pass"},
		{v, "kill", "Kill it with the S2"},
		{v, "s2 0/0", "Play the S2 on Ann's 7♠ joker"},
		{v, "add KH 1/0", "Add the K♥ to your Q♥ J♥"},
		{v, "pickup 7D 0/0", "Put the 7♦ into Ann's 7♠ joker, take the joker"},
	} {
		a, err := ParseAction(x.a)
		if err != nil {
			t.Fatal(err)
		}
		if got := ActionWords(x.v, a, names); got != x.want {
			t.Errorf("%s: got %q, want %q", x.a, got, x.want)
		}
	}
}

// TestWhyNotSet: each kind of illegal group is explained by the rule it
// breaks; a legal set has no reason.
func TestWhyNotSet(t *testing.T) {
	for _, x := range []struct{ cards, want string }{
		{"7S", "The 7♠ alone is not a set: a single card is a set only when it is an ace, the 2♥ or a joker"},
		{"7S 7H 7D 7C JK", "with all four 7s in it none is left for a joker"},
		{"7S 7H 7D 7C JK JK", "with all four 7s in it none is left for a joker"},
		{"AS AH AD JK JK", "two jokers for two different ones; with 3 of the four aces in it, only 1 is left for 2 jokers"},
		{"2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH JK JK", "12 hearts with 2 joker(s) are more cards than the 13 of a suit"},
		{"3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS JK JK", "12 spades with 2 joker(s) are more cards than the 13 of a suit"},
		{"5C 8C", "Not a run: the ranks of one suit must be consecutive; 2 missing between 5♣ and 8♣, and 0 joker(s)"},
		{"5C 9C JK", "3 missing between 5♣ and 9♣, and 1 joker(s)"},
		{"AS 2S", "aces are high"},
		// Both ends of the suit: a run holding them holds every rank, so
		// the words count what is missing (here only the 3♠, which would
		// make it a run), not only that an ace and a 2 are not adjacent.
		{"AS KS QS JS TS 9S 8S 7S 6S 5S 4S 2S", "1 missing, and 0 joker(s) to fill them"},
		{"AS 2S", "11 missing, and 0 joker(s) to fill them"},
		{"KH AH 2H JK", "10 missing, and 1 joker(s) to fill them"},
		// With an ace and a 2 the jokers come first: jokers that fill
		// every gap still stand for cards the suit no longer has, so
		// these are told they are more than 13 cards, not what is missing.
		{"AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S JK", "13 spades with 1 joker(s) are more cards than the 13 of a suit"},
		{"AS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S JK JK", "12 spades with 2 joker(s) are more cards than the 13 of a suit"},
		{"7S 8H", "not of one rank, not a run of one suit and not a couple"},
		{"KS QH JD", "not of one rank"},
	} {
		t.Run(x.cards, func(t *testing.T) {
			s := mustSet(t, x.cards)
			if Legal(s) {
				t.Fatalf("%s is legal", x.cards)
			}
			if got := WhyNotSet(s); !strings.Contains(got, x.want) {
				t.Errorf("got %q, want it to contain %q", got, x.want)
			}
		})
	}
	for _, ok := range []string{"7S 7H", "AS", "H2", "JK", "JK JK", "5C 6C JK", "KS QH"} {
		if got := WhyNotSet(mustSet(t, ok)); got != "" {
			t.Errorf("%s is a legal set, but WhyNotSet says %q", ok, got)
		}
	}
}

// TestSelectionWords: what a selection is told to be depends on what the
// player is doing. Only when leading is a lone card advised to be led; in
// a trick nothing is said of sets, only whether the card can take the
// trick; answering, the S2 kills and a lone card is no answer.
func TestSelectionWords(t *testing.T) {
	trick := func(seat, lead int, sizes []int, played ...string) View {
		v := View{Phase: PhaseTrick, Seat: seat, Players: len(sizes), Lead: lead, HandSizes: sizes}
		for i, p := range played {
			c, err := card.Parse(p)
			if err != nil {
				t.Fatal(err)
			}
			v.Trick = append(v.Trick, TrickCard{Seat: (lead + i) % len(sizes), Card: c})
		}
		return v
	}
	round := View{Phase: PhaseRound, Seat: 1, Players: 3, Lead: 0, HandSizes: []int{5, 6, 6}, Round: &Round{Leader: 0, Spectrum: Runs, Owner: 0},
		Tables: [][]TableSet{{{Cards: mustSet(t, "5D 6D 7D").Cards(), Active: true}}, nil, nil}}
	lead := View{Phase: PhaseLead, Seat: 0, Players: 3, Lead: 0, HandSizes: []int{8, 8, 8}}
	for _, x := range []struct {
		name  string
		v     View
		cards string
		want  string // "" for none
	}{
		{"lead lone card", lead, "7C", "The 7♣ alone is not a set: a single card is a set only when it is an ace, the 2♥ or a joker (lead it as a card instead)."},
		{"lead set", lead, "7C 7H", ""},
		{"lead lone ace", lead, "AH", "The A♥ alone is a set (aces, 1 point): lead it as a card or as that set."},
		{"lead no set", lead, "5C 8C", "Not a run"},
		{"trick off suit", trick(1, 0, []int{7, 8, 8}, "9D"), "7C", "The 7♣ does not follow the suit led (diamonds), so it cannot take the trick."},
		{"trick lower", trick(2, 0, []int{7, 7, 8}, "9D", "JD"), "10D", "The 10♦ follows diamonds, but the J♦ played is higher: it cannot take the trick."},
		{"trick highest so far", trick(1, 0, []int{7, 8, 8}, "9D"), "KD", "The K♦ is the highest of diamonds so far: it takes the trick unless a higher one follows."},
		{"trick last and highest", trick(2, 0, []int{7, 7, 8}, "9D", "JD"), "AD", "The A♦ takes the trick: the others' cards come into your hand, and you have the lead."},
		{"trick ace, others to play", trick(1, 0, []int{7, 8, 8}, "9D"), "AD", "The A♦ takes the trick: the others' cards come into your hand, and you have the lead."},
		{"trick last, next seat empty", trick(1, 0, []int{7, 8, 0}, "9D"), "QD", "The Q♦ takes the trick"},
		{"trick ace is no set here", trick(1, 0, []int{7, 8, 8}, "9D"), "AS", "The A♠ does not follow the suit led (diamonds)"},
		{"trick joker led", trick(1, 0, []int{7, 8, 8}, "JK"), "AS", "A joker was led, and it takes the trick: the A♠ cannot."},
		{"trick joker played", trick(1, 0, []int{7, 8, 8}, "9D"), "JK", "A joker takes a trick only when it is led"},
		{"trick several", trick(1, 0, []int{7, 8, 8}, "9D"), "7C 7H", "One card is played to a trick: select just one."},
		{"answer lone card", round, "7C", "The 7♣ alone is not a set: a single card is a set only when it is an ace, the 2♥ or a joker, and an answer is a higher set of the spectrum led (a run)."},
		{"answer S2", round, "2S", "The 2♠ kills the active set"},
		{"answer set", round, "8C 9C 10C", ""},
		{"answer lower set", round, "5C 6C", "Not an answer: 6♣ 5♣ is not higher than the active set 7♦ 6♦ 5♦ (a run)."},
		{"answer other spectrum", round, "7C 7H", "Not an answer: an answer is a set of the spectrum led (a run), and 7♥ 7♣ is not."},
		{"answer ace", round, "AS", "Not an answer: an answer is a set of the spectrum led (a run), and A♠ is not."},
		{"answer no set", round, "5C 8C", "Not a run"},
	} {
		t.Run(x.name, func(t *testing.T) {
			got := SelectionWords(x.v, mustSet(t, x.cards), nil)
			if x.want == "" && got != "" || !strings.HasPrefix(got, x.want) {
				t.Errorf("got %q, want %q", got, x.want)
			}
			if x.v.Phase != PhaseLead && strings.Contains(got, "lead it as a card") {
				t.Errorf("%q advises leading outside a lead", got)
			}
		})
	}
}

// TestSelectionWordsLeadOnTables: leading, a lone card that is no set is
// told every other thing the rules let it do with the sets on the tables
// (rules "Adding to a Set", "Picking up a Joker", "Playing the Two of
// Spades"), naming each set and whose it is; a card that fits no set is
// told only to lead it as a card, and none of it is said answering a set.
// A card that is a set alone (an ace, the 2♥, a joker) is told so, with
// its spectra and points, and the same moves on the tables.
func TestSelectionWordsLeadOnTables(t *testing.T) {
	tables := func(sets ...[]string) [][]TableSet {
		out := make([][]TableSet, len(sets))
		for i, tab := range sets {
			for _, s := range tab {
				out[i] = append(out[i], TableSet{Cards: mustSet(t, s).Cards()})
			}
		}
		return out
	}
	view := func(tabs [][]TableSet) View {
		return View{Phase: PhaseLead, Seat: 1, Players: 3, Lead: 1, ToMove: 1, HandSizes: []int{5, 5, 5}, Tables: tabs}
	}
	names := []string{"Ann", "Bob", ""}
	three := view(tables([]string{"7S 7H 7D"}, []string{"8C JK"}, []string{"3S 4S"}))
	const alone = " alone is not a set: a single card is a set only when it is an ace, the 2♥ or a joker ("
	for _, x := range []struct {
		name  string
		v     View
		cards string
		want  string
	}{
		{"fits nothing", three, "4D", "The 4♦" + alone + "lead it as a card instead)."},
		{"no sets on the tables", view(tables(nil, nil, nil)), "7C", "The 7♣" + alone + "lead it as a card instead)."},
		{"added to two, put into one", three, "7C",
			"The 7♣" + alone + "lead it as a card instead, or add it to Ann's set 7♠ 7♥ 7♦ or your set 8♣ joker, or put it into your set 8♣ joker in place of its joker, which comes to your hand)."},
		{"put in place of a joker only", view(tables([]string{"7S 7H 7D JK"}, nil, nil)), "7C",
			"The 7♣" + alone + "lead it as a card instead, or put it into Ann's set 7♠ 7♥ 7♦ joker in place of its joker, which comes to your hand)."},
		{"the S2 on any set, added to a run", three, "2S",
			"The 2♠" + alone + "lead it as a card instead, or add it to seat 3's set 4♠ 3♠, or play it on any set on the tables: both go to the graveyard, and you keep the lead)."},
		{"put in place of one of two jokers", view(tables(nil, nil, []string{"7S JK JK"})), "7C",
			"The 7♣" + alone + "lead it as a card instead, or add it to seat 3's set 7♠ joker joker, or put it into seat 3's set 7♠ joker joker in place of one of its jokers, which comes to your hand)."},
		{"the S2 on the one set", view(tables([]string{"7S 7H 7D"}, nil, nil)), "2S",
			"The 2♠" + alone + "lead it as a card instead, or play it on Ann's set 7♠ 7♥ 7♦: both go to the graveyard, and you keep the lead)."},
		{"an ace that fits nothing", three, "AS", "The A♠ alone is a set (aces, 1 point): lead it as a card or as that set."},
		{"an ace added to aces and a run, put into the run", view(tables([]string{"AH AD"}, []string{"KS JK"}, nil)), "AS",
			"The A♠ alone is a set (aces, 1 point): lead it as a card or as that set, or add it to Ann's set A♥ A♦ or your set K♠ joker, or put it into your set K♠ joker in place of its joker, which comes to your hand."},
		{"the 2♥ added to a run and 2s, put into 2s", view(tables([]string{"3H 4H"}, []string{"2S 2D"}, []string{"2C JK"})), "2H",
			"The 2♥ alone is a set (a couple, 2 points): lead it as a card or as that set, or add it to Ann's set 4♥ 3♥, your set 2♠ 2♦ or seat 3's set 2♣ joker, or put it into seat 3's set 2♣ joker in place of its joker, which comes to your hand."},
		{"a joker added to three sets", three, "JK",
			"The joker alone is a set (aces or a couple, 2 points either way: it scores as a couple): lead it as a card or as a set in either spectrum, or add it to Ann's set 7♠ 7♥ 7♦, your set 8♣ joker or seat 3's set 4♠ 3♠."},
		{"a joker with no sets on the tables", view(tables(nil, nil, nil)), "JK",
			"The joker alone is a set (aces or a couple, 2 points either way: it scores as a couple): lead it as a card or as a set in either spectrum."},
		{"more sets than are named", view(tables([]string{"5S 5D", "6H 7H"}, []string{"3H 4H"}, []string{"5C JK"})), "5H",
			"The 5♥" + alone + "lead it as a card instead, or add it to Ann's set 5♠ 5♦, Ann's set 7♥ 6♥, your set 4♥ 3♥ or one other set, or put it into seat 3's set 5♣ joker in place of its joker, which comes to your hand)."},
	} {
		t.Run(x.name, func(t *testing.T) {
			if got := SelectionWords(x.v, mustSet(t, x.cards), names); got != x.want {
				t.Errorf("got  %q\nwant %q", got, x.want)
			}
		})
	}
	// Answering a set, nothing is added to a set or played on one.
	round := three
	round.Phase, round.Round = PhaseRound, &Round{Leader: 0, Spectrum: Multiples, Owner: 0}
	round.Tables[0][0].Active = true
	for _, c := range []string{"7C", "2S", "AS", "JK"} {
		if got := SelectionWords(round, mustSet(t, c), names); strings.Contains(got, "add it") || strings.Contains(got, "play it on") || strings.Contains(got, "lead it") {
			t.Errorf("answering a set, the %s: %q", c, got)
		}
	}
}

// TestLoneCardWordsNameEveryLoneSet: the sentence telling why one card is
// no set names which single cards are sets, and that list must be the
// rules' whole list: an ace ("Aces": a single A by itself), the 2♥
// ("Couples") and a joker, which stands for either (docs/rules-arlington.md,
// decision 3). Each card the engine takes as a set alone is named, as
// its kind, in the words for every card it does not.
func TestLoneCardWordsNameEveryLoneSet(t *testing.T) {
	name := func(c card.Card) string {
		switch {
		case c == card.Joker:
			return "a joker"
		case c.Rank() == card.Ace:
			return "an ace"
		}
		return CardWords(c)
	}
	var lone []string
	for _, c := range append(FullDeck.Cards()[:52], card.Joker) {
		if one, _ := Set(0).With(c); Legal(one) && !slices.Contains(lone, name(c)) {
			lone = append(lone, name(c))
		}
	}
	if len(lone) != 3 {
		t.Fatalf("the engine's lone sets are %v, want an ace, the 2♥ and a joker", lone)
	}
	for _, c := range FullDeck.Cards()[:52] {
		one, _ := Set(0).With(c)
		if Legal(one) {
			continue
		}
		why := WhyNotSet(one)
		for _, n := range lone {
			if !strings.Contains(why, n) {
				t.Errorf("%v: %q does not name %s among the single cards that are sets", c, why, n)
			}
		}
	}
}
