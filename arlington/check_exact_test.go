package arlington

import (
	"errors"
	"fmt"
	"testing"
)

// checkCase is one action put to State.check in a named position.
type checkCase struct {
	name, state string
	seat        int
	action      string // in notation; "" for the raw action below
	raw         Action
}

// checkStates are the positions the check cases start from: one for each
// phase, and a set round whose responder lacks the S2.
func checkStates(tb testing.TB) map[string]*State {
	tb.Helper()
	lead := setup(tb, []string{"7D 5C JK KS 4H 4D", "3C 9C"}, []string{"7S 7H", "QS JK|8S 9S"}, 0)
	trick := lead.Clone()
	do(tb, trick, "0 lead 7D")
	round := setup(tb, []string{"4S 4H", "5S 5H 6C 3S 3H 2S", "QC"}, nil, 0)
	do(tb, round, "0 set multiples 4S 4H")
	roundNoS2 := setup(tb, []string{"4S 4H", "5C"}, nil, 0)
	do(tb, roundNoS2, "0 set multiples 4S 4H")
	return map[string]*State{
		"lead":         lead,
		"lead, S2":     setup(tb, []string{"2S 3D", "3C"}, []string{"7S 7H"}, 0),
		"trick":        trick,
		"round":        round,
		"round, no S2": roundNoS2,
		"over":         randomGame(tb, 2, 3, nil),
	}
}

// checkCases reach every refusal of check, and the order in which it
// looks when an action breaks two rules.
var checkCases = []checkCase{
	{"game over", "over", 0, "pass", Action{}},
	{"no seat below", "lead", -1, "lead 7D", Action{}},
	{"no seat above", "lead", 2, "lead 7D", Action{}},
	{"not your turn", "lead", 1, "lead 3C", Action{}},
	{"not your turn, empty set", "lead", 1, "", Action{Kind: PlaySet}},
	{"not your turn, extra fields", "lead", 1, "", Action{Kind: LeadCard, Card: 5, Seat: 3, Index: 2}},
	{"empty set", "lead", 0, "", Action{Kind: PlaySet}},
	{"invalid set", "lead", 0, "", Action{Kind: PlaySet, Set: Set(1) << 60}},
	{"three jokers", "lead", 0, "", Action{Kind: PlaySet, Set: 3 * oneJoker}},
	{"lead card", "lead", 0, "lead 7D", Action{}},
	{"lead card not held", "lead", 0, "lead 2C", Action{}},
	{"lead set", "lead", 0, "set multiples 4H 4D", Action{}},
	{"lead set unnamed", "lead", 0, "set 4H 4D", Action{}},
	{"lead one card as a set", "lead", 0, "set 5C", Action{}},
	{"lead one card not held as a set", "lead", 0, "set 2C", Action{}},
	{"lead set not held", "lead", 0, "set multiples 4H 4C", Action{}},
	{"lead set unnamed, no spectrum", "lead", 0, "set 7D 5C", Action{}},
	{"lead set in the wrong spectrum", "lead", 0, "set runs 4H 4D", Action{}},
	{"lead set in no spectrum", "lead", 0, "set runs 7D 5C", Action{}},
	{"lead set, extra fields", "lead", 0, "", Action{Kind: PlaySet, Set: mustSetOf("4H 4D"), Spectrum: Multiples, Seat: 3, Index: 4, Card: 9}},
	{"s2 not held", "lead", 0, "s2 0/0", Action{}},
	{"s2 not held, no target", "lead", 0, "s2 5/9", Action{}},
	{"s2", "lead, S2", 0, "s2 0/0", Action{}},
	{"s2 no such set", "lead, S2", 0, "s2 0/1", Action{}},
	{"s2 no such seat", "lead, S2", 0, "s2 4/0", Action{}},
	{"s2 seat below", "lead, S2", 0, "", Action{Kind: PlayS2, Seat: -1}},
	{"s2 index below", "lead, S2", 0, "", Action{Kind: PlayS2, Index: -1}},
	{"add", "lead", 0, "add JK 0/0", Action{}},
	{"add no such set", "lead", 0, "add 2C 1/2", Action{}},
	{"add no such seat", "lead", 0, "add 7D 5/0", Action{}},
	{"add not held", "lead", 0, "add 7C 0/0", Action{}},
	{"add not legal", "lead", 0, "add 5C 0/0", Action{}},
	{"pickup", "lead", 0, "pickup KS 1/0", Action{}},
	{"pickup no such set", "lead", 0, "pickup 2C 1/5", Action{}},
	{"pickup no joker", "lead", 0, "pickup 2C 1/1", Action{}},
	{"pickup joker for joker", "lead", 0, "pickup JK 1/0", Action{}},
	{"pickup not held", "lead", 0, "pickup KC 1/0", Action{}},
	{"pickup not legal", "lead", 0, "pickup 5C 1/0", Action{}},
	{"pass at the lead", "lead", 0, "pass", Action{}},
	{"kill at the lead", "lead", 0, "kill", Action{}},
	{"play at the lead", "lead", 0, "play 7D", Action{}},
	{"no kind at the lead", "lead", 0, "", Action{Kind: NoKind}},
	{"unknown kind at the lead", "lead", 0, "", Action{Kind: 99}},
	{"play to the trick", "trick", 1, "play 3C", Action{}},
	{"play not held", "trick", 1, "play 3D", Action{}},
	{"pass in a trick", "trick", 1, "pass", Action{}},
	{"lead in a trick", "trick", 1, "lead 3C", Action{}},
	{"pass in a round", "round", 1, "pass", Action{}},
	{"kill", "round", 1, "kill", Action{}},
	{"kill without the S2", "round, no S2", 1, "kill", Action{}},
	{"respond higher", "round", 1, "set multiples 5S 5H", Action{}},
	{"respond unnamed", "round", 1, "set 5S 5H", Action{}},
	{"respond one card unnamed", "round", 1, "set 6C", Action{}},
	{"respond not held", "round", 1, "set multiples 5S 5D", Action{}},
	{"respond in another spectrum", "round", 1, "set runs 5S 5H", Action{}},
	{"respond not held, other spectrum", "round", 1, "set runs 5S 5D", Action{}},
	{"respond with no set", "round", 1, "set 5S 6C", Action{}},
	{"respond lower", "round", 1, "set 3S 3H", Action{}},
	{"respond with a card", "round", 1, "play 6C", Action{}},
	{"respond with s2", "round", 1, "s2 0/0", Action{}},
}

// mustSetOf is a set from its notation, for the table above.
func mustSetOf(text string) Set {
	s, err := ParseCards(text)
	if err != nil {
		panic(err)
	}
	return s
}

// checkOutcome is what check says of c, in one line: the action it would
// apply and its refusal, with the rule and reason apart.
func checkOutcome(tb testing.TB, states map[string]*State, c checkCase) string {
	tb.Helper()
	s := states[c.state]
	a := c.raw
	if c.action != "" {
		var err error
		if a, err = ParseAction(c.action); err != nil {
			tb.Fatal(err)
		}
	}
	before := s.Clone()
	got, err := s.check(c.seat, a)
	if !sameState(before, s) {
		tb.Fatalf("%s: check changed the state", c.name)
	}
	if err == nil {
		return "allowed as " + actionFields(got)
	}
	var re *RuleError
	if !errors.As(err, &re) || !errors.Is(err, ErrIllegal) {
		return fmt.Sprintf("not a RuleError: %v", err)
	}
	return fmt.Sprintf("refused as %s under %q: %q", actionFields(got), re.Rule, re.Reason)
}

// actionFields is a in notation and every field of it, so that a field
// the notation leaves out is pinned as well.
func actionFields(a Action) string {
	return fmt.Sprintf("%v {Kind:%d Card:%d Set:%#x Spectrum:%d Seat:%d Index:%d}",
		a, a.Kind, a.Card, uint64(a.Set), a.Spectrum, a.Seat, a.Index)
}

// TestCheckOutcomesExact pins every refusal of check word for word, with
// the rule it names and the action it would have applied.
func TestCheckOutcomesExact(t *testing.T) {
	states := checkStates(t)
	for _, c := range checkCases {
		want, ok := checkOutcomes[c.name]
		if !ok {
			t.Errorf("%s: no outcome pinned", c.name)
			continue
		}
		if got := checkOutcome(t, states, c); got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, want)
		}
	}
}

// checkOutcomes are the outcomes check gave for checkCases before it was
// split into one function per phase.
var checkOutcomes = map[string]string{
	"game over":                        "refused as pass {Kind:4 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Game\": \"the game is over\"",
	"no seat below":                    "refused as lead 7D {Kind:1 Card:23 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Hand\": \"there is no seat 0\"",
	"no seat above":                    "refused as lead 7D {Kind:1 Card:23 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Hand\": \"there is no seat 3\"",
	"not your turn":                    "refused as lead 3C {Kind:1 Card:3 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Hand\": \"it is seat 1's turn, not seat 2's\"",
	"not your turn, empty set":         "refused as set  {Kind:3 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Hand\": \"it is seat 1's turn, not seat 2's\"",
	"not your turn, extra fields":      "refused as lead 5C {Kind:1 Card:5 Set:0x0 Spectrum:0 Seat:3 Index:2} under \"The Hand\": \"it is seat 1's turn, not seat 2's\"",
	"empty set":                        "refused as set  {Kind:3 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Sets\": \"not a set of cards from the deck\"",
	"invalid set":                      "refused as set  {Kind:3 Card:0 Set:0x1000000000000000 Spectrum:0 Seat:0 Index:0} under \"Sets\": \"not a set of cards from the deck\"",
	"three jokers":                     "refused as set JK JK JK {Kind:3 Card:0 Set:0x30000000000000 Spectrum:0 Seat:0 Index:0} under \"Sets\": \"not a set of cards from the deck\"",
	"lead card":                        "allowed as lead 7D {Kind:1 Card:23 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"lead card not held":               "refused as lead 2C {Kind:1 Card:2 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Leading a Card\": \"2C is not in your hand\"",
	"lead set":                         "allowed as set multiples 4H 4D {Kind:3 Card:0 Set:0x600 Spectrum:2 Seat:0 Index:0}",
	"lead set unnamed":                 "allowed as set multiples 4H 4D {Kind:3 Card:0 Set:0x600 Spectrum:2 Seat:0 Index:0}",
	"lead one card as a set":           "allowed as lead 5C {Kind:1 Card:5 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"lead one card not held as a set":  "refused as lead 2C {Kind:1 Card:2 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Leading a Card\": \"2C is not in your hand\"",
	"lead set not held":                "refused as set multiples 4H 4C {Kind:3 Card:0 Set:0x500 Spectrum:2 Seat:0 Index:0} under \"Leading a Set\": \"{4H, 4C} is not all in your hand\"",
	"lead set unnamed, no spectrum":    "refused as set 7D 5C {Kind:3 Card:0 Set:0x201000 Spectrum:0 Seat:0 Index:0} under \"Sets\": \"{7D, 5C} is not a legal set\"",
	"lead set in the wrong spectrum":   "refused as set runs 4H 4D {Kind:3 Card:0 Set:0x600 Spectrum:4 Seat:0 Index:0} under \"Sets\": \"{4H, 4D} is not in the runs spectrum (it is in [multiples])\"",
	"lead set in no spectrum":          "refused as set runs 7D 5C {Kind:3 Card:0 Set:0x201000 Spectrum:4 Seat:0 Index:0} under \"Sets\": \"{7D, 5C} is not a legal set\"",
	"lead set, extra fields":           "allowed as set multiples 4H 4D {Kind:3 Card:0 Set:0x600 Spectrum:2 Seat:0 Index:0}",
	"s2 not held":                      "refused as s2 0/0 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Playing the Two of Spades\": \"you do not hold the S2\"",
	"s2 not held, no target":           "refused as s2 5/9 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:5 Index:9} under \"Playing the Two of Spades\": \"you do not hold the S2\"",
	"s2":                               "allowed as s2 0/0 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"s2 no such set":                   "refused as s2 0/1 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:1} under \"Playing the Two of Spades\": \"there is no set 2 on seat 1's table (it has 1)\"",
	"s2 no such seat":                  "refused as s2 4/0 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:4 Index:0} under \"Playing the Two of Spades\": \"there is no set 1 on seat 5's table (it has 0)\"",
	"s2 seat below":                    "refused as s2 -1/0 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:-1 Index:0} under \"Playing the Two of Spades\": \"there is no set 1 on seat 0's table (it has 0)\"",
	"s2 index below":                   "refused as s2 0/-1 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:-1} under \"Playing the Two of Spades\": \"there is no set 0 on seat 1's table (it has 1)\"",
	"add":                              "allowed as add JK 0/0 {Kind:7 Card:64 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"add no such set":                  "refused as add 2C 1/2 {Kind:7 Card:2 Set:0x0 Spectrum:0 Seat:1 Index:2} under \"Adding to a Set\": \"there is no set 3 on seat 2's table (it has 2)\"",
	"add no such seat":                 "refused as add 7D 5/0 {Kind:7 Card:23 Set:0x0 Spectrum:0 Seat:5 Index:0} under \"Adding to a Set\": \"there is no set 1 on seat 6's table (it has 0)\"",
	"add not held":                     "refused as add 7C 0/0 {Kind:7 Card:7 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Adding to a Set\": \"7C is not in your hand\"",
	"add not legal":                    "refused as add 5C 0/0 {Kind:7 Card:5 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Adding to a Set\": \"{7S, 7H, 5C} would not be a legal set in any spectrum\"",
	"pickup":                           "allowed as pickup KS 1/0 {Kind:8 Card:61 Set:0x0 Spectrum:0 Seat:1 Index:0}",
	"pickup no such set":               "refused as pickup 2C 1/5 {Kind:8 Card:2 Set:0x0 Spectrum:0 Seat:1 Index:5} under \"Picking up a Joker\": \"there is no set 6 on seat 2's table (it has 2)\"",
	"pickup no joker":                  "refused as pickup 2C 1/1 {Kind:8 Card:2 Set:0x0 Spectrum:0 Seat:1 Index:1} under \"Picking up a Joker\": \"{9S, 8S} has no joker\"",
	"pickup joker for joker":           "refused as pickup JK 1/0 {Kind:8 Card:64 Set:0x0 Spectrum:0 Seat:1 Index:0} under \"Picking up a Joker\": \"a joker cannot replace a joker: the swap would change nothing\"",
	"pickup not held":                  "refused as pickup KC 1/0 {Kind:8 Card:13 Set:0x0 Spectrum:0 Seat:1 Index:0} under \"Picking up a Joker\": \"KC is not in your hand\"",
	"pickup not legal":                 "refused as pickup 5C 1/0 {Kind:8 Card:5 Set:0x0 Spectrum:0 Seat:1 Index:0} under \"Picking up a Joker\": \"{QS, 5C} would not be a legal set in any spectrum\"",
	"pass at the lead":                 "refused as pass {Kind:4 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Hand\": \"you have the lead: lead a card, lead a set, play the S2, add to a set or pick up a joker\"",
	"kill at the lead":                 "refused as kill {Kind:5 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Hand\": \"you have the lead: lead a card, lead a set, play the S2, add to a set or pick up a joker\"",
	"play at the lead":                 "refused as play 7D {Kind:2 Card:23 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Hand\": \"you have the lead: lead a card, lead a set, play the S2, add to a set or pick up a joker\"",
	"no kind at the lead":              "refused as ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Hand\": \"you have the lead: lead a card, lead a set, play the S2, add to a set or pick up a joker\"",
	"unknown kind at the lead":         "refused as ? {Kind:99 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"The Hand\": \"you have the lead: lead a card, lead a set, play the S2, add to a set or pick up a joker\"",
	"play to the trick":                "allowed as play 3C {Kind:2 Card:3 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"play not held":                    "refused as play 3D {Kind:2 Card:19 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Leading a Card\": \"3D is not in your hand\"",
	"pass in a trick":                  "refused as pass {Kind:4 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Leading a Card\": \"a card was led: play a card to the trick (no passing)\"",
	"lead in a trick":                  "refused as lead 3C {Kind:1 Card:3 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Leading a Card\": \"a card was led: play a card to the trick (no passing)\"",
	"pass in a round":                  "allowed as pass {Kind:4 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"kill":                             "allowed as kill {Kind:5 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"kill without the S2":              "refused as kill {Kind:5 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Leading a Set\": \"you do not hold the S2, so you cannot kill the active set\"",
	"respond higher":                   "allowed as set multiples 5S 5H {Kind:3 Card:0 Set:0xc000 Spectrum:2 Seat:0 Index:0}",
	"respond unnamed":                  "allowed as set multiples 5S 5H {Kind:3 Card:0 Set:0xc000 Spectrum:2 Seat:0 Index:0}",
	"respond one card unnamed":         "refused as set multiples 6C {Kind:3 Card:0 Set:0x10000 Spectrum:2 Seat:0 Index:0} under \"Sets\": \"{6C} is not a legal set in multiples\"",
	"respond not held":                 "refused as set multiples 5S 5D {Kind:3 Card:0 Set:0xa000 Spectrum:2 Seat:0 Index:0} under \"Leading a Set\": \"{5S, 5D} is not all in your hand\"",
	"respond in another spectrum":      "refused as set runs 5S 5H {Kind:3 Card:0 Set:0xc000 Spectrum:4 Seat:0 Index:0} under \"Leading a Set\": \"a response must be in the spectrum originally led, multiples, not runs\"",
	"respond not held, other spectrum": "refused as set runs 5S 5D {Kind:3 Card:0 Set:0xa000 Spectrum:4 Seat:0 Index:0} under \"Leading a Set\": \"{5S, 5D} is not all in your hand\"",
	"respond with no set":              "refused as set multiples 6C 5S {Kind:3 Card:0 Set:0x18000 Spectrum:2 Seat:0 Index:0} under \"Sets\": \"{6C, 5S} is not a legal set in multiples\"",
	"respond lower":                    "refused as set multiples 3S 3H {Kind:3 Card:0 Set:0xc0 Spectrum:2 Seat:0 Index:0} under \"Leading a Set\": \"{3S, 3H} is not higher than the active set {4S, 4H} in multiples (it must be higher, not equal)\"",
	"respond with a card":              "refused as play 6C {Kind:2 Card:6 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Leading a Set\": \"a set is active: pass, kill it with the S2, or play a higher set in multiples\"",
	"respond with s2":                  "refused as s2 0/0 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0} under \"Leading a Set\": \"a set is active: pass, kill it with the S2, or play a higher set in multiples\"",
}
