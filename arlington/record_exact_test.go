package arlington

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"cardtable/card"
)

// recordCases walk Load through the header's four lines, the move lines
// and the end of the file.
func recordCases(tb testing.TB) [][2]string {
	tb.Helper()
	const good = "arlington record 1\nplayers 2\ntarget 32\nseed 5\n"
	s, err := New(Config{Players: 2}, 5)
	if err != nil {
		tb.Fatal(err)
	}
	seat := fmt.Sprint(s.ToMove())
	first := seat + " " + s.Legal(s.ToMove())[0].String() + "\n"
	return [][2]string{
		{"empty", ""},
		{"only comments", "# a\n\n  \n"},
		{"not a record", "hello there\n"},
		{"short header", "arlington record\n"},
		{"long header", "arlington record 1 2\n"},
		{"other word", "arlington game 1\n"},
		{"other version", "arlington record 01\n"},
		{"target first", "arlington record 1\ntarget 32\n"},
		{"players without number", "arlington record 1\nplayers\n"},
		{"players with two numbers", "arlington record 1\nplayers 2 3\n"},
		{"players not a number", "arlington record 1\nplayers two\n"},
		{"players negative", "arlington record 1\nplayers -2\n"},
		{"players seven", "arlington record 1\nplayers 7\n"},
		{"players zero", "arlington record 1\nplayers 0\ntarget 32\nseed 1\n"},
		{"target zero", "arlington record 1\nplayers 2\ntarget 0\n"},
		{"target past the limit", "arlington record 1\nplayers 2\ntarget 1001\n"},
		{"seed too big", "arlington record 1\nplayers 2\ntarget 32\nseed 18446744073709551616\n"},
		{"seed missing", "arlington record 1\nplayers 2\ntarget 32\n"},
		{"target missing", "arlington record 1\nplayers 2\n"},
		{"seat not a number", good + "x pass\n"},
		{"seat negative", good + "-1 pass\n"},
		{"seat too big", good + "2 pass\n"},
		{"seat and tab", good + "0\tpass\n"},
		{"seat alone", good + "0\n"},
		{"bad action", good + "0 dance\n"},
		{"illegal", good + seat + " kill\n"},
		{"out of turn", good + fmt.Sprint(1-s.ToMove()) + " pass\n"},
		{"second move illegal", good + "# c\n\n" + first + "0 s2 1/3\n"},
		{"no such set add", good + seat + " add " + s.Hand(s.ToMove()).Cards()[0].String() + " 1/3\n"},
		{"long line", good + "# " + strings.Repeat("x", MaxRecordLine) + "\n"},
		{"long line by one", good + "#" + strings.Repeat("x", MaxRecordLine) + "\r\n0 pass\n"},
		{"long line past the buffer", good + "# " + strings.Repeat("x", 2*MaxRecordLine) + "\n"},
		{"loads", good},
		{"loads a move", "  arlington   record 1 \r\nplayers 2\r\n\ttarget 32\nseed 5\n" + first},
		{"loads a move with spaces", good + strings.Replace(first, " ", "  ", 1)},
	}
}

// recordOutcome is what Load makes of text, in one line.
func recordOutcome(text string) string {
	r, s, err := Load(strings.NewReader(text))
	if err != nil {
		if s != nil || r.Moves != nil || r.Config != (Config{}) || r.Seed != 0 {
			return "a game and an error"
		}
		return fmt.Sprintf("error (bad record %v, illegal %v, action %v, config %v): %v",
			errors.Is(err, ErrBadRecord), errors.Is(err, ErrIllegal), errors.Is(err, ErrBadAction), errors.Is(err, ErrConfig), err)
	}
	return fmt.Sprintf("record %+v seed %d moves %v; game to move %d phase %v", r.Config, r.Seed, r.Moves, s.ToMove(), s.Phase())
}

// TestRecordLoadOutcomesExact pins Load's every message and what it loads,
// word for word.
func TestRecordLoadOutcomesExact(t *testing.T) {
	for _, c := range recordCases(t) {
		want, ok := recordOutcomes[c[0]]
		if !ok {
			t.Errorf("%s: no outcome pinned", c[0])
			continue
		}
		if got := recordOutcome(c[1]); got != want {
			t.Errorf("%s:\n got %s\nwant %s", c[0], got, want)
		}
	}
}

// recordOutcomes are the outcomes Load gave for recordCases before it was
// split into steps, but for the errors caused by the game (its config, an
// action, a move), which now wrap the game's own sentinel as well.
var recordOutcomes = map[string]string{
	"empty":                     "error (bad record true, illegal false, action false, config false): bad record: line 1: record ends before its \"arlington\" line",
	"only comments":             "error (bad record true, illegal false, action false, config false): bad record: line 4: record ends before its \"arlington\" line",
	"not a record":              "error (bad record true, illegal false, action false, config false): bad record: line 1: want \"arlington\", found \"hello\"",
	"short header":              "error (bad record true, illegal false, action false, config false): bad record: line 1: want \"arlington record 1\"",
	"long header":               "error (bad record true, illegal false, action false, config false): bad record: line 1: want \"arlington record 1\"",
	"other word":                "error (bad record true, illegal false, action false, config false): bad record: line 1: want \"arlington record 1\"",
	"other version":             "error (bad record true, illegal false, action false, config false): bad record: line 1: record version \"01\" is not supported (this program reads version 1)",
	"target first":              "error (bad record true, illegal false, action false, config false): bad record: line 2: want \"players\", found \"target\"",
	"players without number":    "error (bad record true, illegal false, action false, config false): bad record: line 2: want \"players\" and a number",
	"players with two numbers":  "error (bad record true, illegal false, action false, config false): bad record: line 2: want \"players\" and a number",
	"players not a number":      "error (bad record true, illegal false, action false, config false): bad record: line 2: players: \"two\" is not a whole number",
	"players negative":          "error (bad record true, illegal false, action false, config false): bad record: line 2: players: \"-2\" is not a whole number",
	"players seven":             "error (bad record true, illegal false, action false, config false): bad record: line 2: players: 7 is not 2 to 6",
	"players zero":              "error (bad record true, illegal false, action false, config false): bad record: line 2: players: 0 is not 2 to 6",
	"target zero":               "error (bad record true, illegal false, action false, config false): bad record: line 3: target: 0 is not 1 to 1000",
	"target past the limit":     "error (bad record true, illegal false, action false, config false): bad record: line 3: target: 1001 is not 1 to 1000",
	"seed too big":              "error (bad record true, illegal false, action false, config false): bad record: line 4: seed: 18446744073709551616 is not 0 to 18446744073709551615",
	"seed missing":              "error (bad record true, illegal false, action false, config false): bad record: line 4: record ends before its \"seed\" line",
	"target missing":            "error (bad record true, illegal false, action false, config false): bad record: line 3: record ends before its \"target\" line",
	"seat not a number":         "error (bad record true, illegal false, action false, config false): bad record: line 5: want SEAT ACTION with a seat from 0 to 1, found \"x\"",
	"seat negative":             "error (bad record true, illegal false, action false, config false): bad record: line 5: want SEAT ACTION with a seat from 0 to 1, found \"-1\"",
	"seat too big":              "error (bad record true, illegal false, action false, config false): bad record: line 5: want SEAT ACTION with a seat from 0 to 1, found \"2\"",
	"seat and tab":              "error (bad record true, illegal false, action false, config false): bad record: line 5: want SEAT ACTION with a seat from 0 to 1, found \"0\\tpass\"",
	"seat alone":                "error (bad record true, illegal false, action true, config false): bad record: line 5: bad action: empty",
	"bad action":                "error (bad record true, illegal false, action true, config false): bad record: line 5: bad action \"dance\": unknown verb \"dance\" (want lead, play, set, pass, kill, s2, add or pickup)",
	"illegal":                   "error (bad record true, illegal true, action false, config false): bad record: line 5: illegal action: you have the lead: lead a card, lead a set, play the S2, add to a set or pick up a joker (rule \"The Hand\")",
	"out of turn":               "error (bad record true, illegal true, action false, config false): bad record: line 5: illegal action: it is seat 0's turn, not seat 1's (rule \"The Hand\")",
	"no such set add":           "error (bad record true, illegal true, action false, config false): bad record: line 5: illegal action: there is no set 3 on seat 1's table (it has 0) (rule \"Adding to a Set\")",
	"second move illegal":       "error (bad record true, illegal true, action false, config false): bad record: line 8: illegal action: it is seat 1's turn, not seat 0's (rule \"The Hand\")",
	"long line":                 "error (bad record true, illegal false, action false, config false): bad record: line 5: longer than 65536 bytes, the limit",
	"long line by one":          "error (bad record true, illegal false, action false, config false): bad record: line 5: longer than 65536 bytes, the limit",
	"long line past the buffer": "error (bad record true, illegal false, action false, config false): bad record: line 5: longer than 65536 bytes, the limit",
	"loads":                     "record {Players:2 Target:32} seed 5 moves []; game to move 0 phase lead",
	"loads a move":              "record {Players:2 Target:32} seed 5 moves [{0 lead AH}]; game to move 1 phase trick",
	"loads a move with spaces":  "record {Players:2 Target:32} seed 5 moves [{0 lead AH}]; game to move 1 phase trick",
}

// actionCases reach every message of ParseAction.
var actionCases = []string{
	"", "   ", "lead", "lead 7H 8H", "lead XX", "LEAD h7", "play 10D", "play",
	"set", "set runs", "set aces aces", "set XX", "set runs 7H 7H", "set {}", "set 7H", "set Runs 7H 8H 9H", "set multiples 7H JK",
	"pass", "pass 1", "kill", "KILL", "kill x",
	"s2", "s2 2", "s2 2/0", "2s 2/0", "s2 2/0 1", "s2 6/0", "s2 0/55", "s2 -1/0", "s2 a/b", "s2 0/54",
	"add 7H", "add 7H 1/0", "add XX 1/0", "add XX 1-0", "add 7H 1-0", "add 7H 1/0 x",
	"pickup JK 0/0", "pickup 7H 6/0", "pickup 0/0",
	"jump", "Jump 1",
}

// TestParseActionOutcomesExact pins ParseAction's every message and what
// it reads, word for word.
func TestParseActionOutcomesExact(t *testing.T) {
	for _, in := range actionCases {
		want, ok := actionOutcomes[in]
		if !ok {
			t.Errorf("%q: no outcome pinned", in)
			continue
		}
		if got := actionOutcome(in); got != want {
			t.Errorf("%q:\n got %s\nwant %s", in, got, want)
		}
	}
}

func actionOutcome(in string) string {
	a, err := ParseAction(in)
	if err != nil {
		return fmt.Sprintf("error (bad action %v) %s: %v", errors.Is(err, ErrBadAction), actionFields(a), err)
	}
	return actionFields(a)
}

// actionOutcomes are the outcomes ParseAction gave for actionCases before
// it was split into one function per verb.
var actionOutcomes = map[string]string{
	"":                    "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action: empty",
	"   ":                 "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action: empty",
	"lead":                "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"lead\": want lead CARD",
	"lead 7H 8H":          "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"lead 7H 8H\": want lead CARD",
	"lead XX":             "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"lead XX\": bad card \"XX\": want rank and suit such as KS, TH, 10H or JK",
	"LEAD h7":             "lead 7H {Kind:1 Card:39 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"play 10D":            "play TD {Kind:2 Card:26 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"play":                "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"play\": want play CARD",
	"set":                 "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"set\": want set [SPECTRUM] CARD...",
	"set runs":            "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"set runs\": want set [SPECTRUM] CARD...",
	"set aces aces":       "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"set aces aces\": bad card \"aces\": want rank and suit such as KS, TH, 10H or JK",
	"set XX":              "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"set XX\": bad card \"XX\": want rank and suit such as KS, TH, 10H or JK",
	"set runs 7H 7H":      "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"set runs 7H 7H\": bad cards: 7H given twice (the deck has one of each suit card)",
	"set {}":              "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"set {}\": want set [SPECTRUM] CARD...",
	"set 7H":              "set 7H {Kind:3 Card:0 Set:0x400000 Spectrum:0 Seat:0 Index:0}",
	"set Runs 7H 8H 9H":   "set runs 9H 8H 7H {Kind:3 Card:0 Set:0x44400000 Spectrum:4 Seat:0 Index:0}",
	"set multiples 7H JK": "set multiples 7H JK {Kind:3 Card:0 Set:0x10000000400000 Spectrum:2 Seat:0 Index:0}",
	"pass":                "pass {Kind:4 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"pass 1":              "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"pass 1\": pass takes nothing",
	"kill":                "kill {Kind:5 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"KILL":                "kill {Kind:5 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"kill x":              "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"kill x\": kill takes nothing",
	"s2":                  "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"s2\": want s2 SEAT/SET",
	"s2 2":                "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"s2 2\": want SEAT/SET such as 2/0, not \"2\"",
	"s2 2/0":              "s2 2/0 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:2 Index:0}",
	"2s 2/0":              "s2 2/0 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:2 Index:0}",
	"s2 2/0 1":            "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"s2 2/0 1\": want s2 SEAT/SET",
	"s2 6/0":              "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"s2 6/0\": want SEAT/SET such as 2/0 (seat 0-5, set 0-54), not \"6/0\"",
	"s2 0/55":             "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"s2 0/55\": want SEAT/SET such as 2/0 (seat 0-5, set 0-54), not \"0/55\"",
	"s2 -1/0":             "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"s2 -1/0\": want SEAT/SET such as 2/0 (seat 0-5, set 0-54), not \"-1/0\"",
	"s2 a/b":              "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"s2 a/b\": want SEAT/SET such as 2/0 (seat 0-5, set 0-54), not \"a/b\"",
	"s2 0/54":             "s2 0/54 {Kind:6 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:54}",
	"add 7H":              "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"add 7H\": want add CARD SEAT/SET",
	"add 7H 1/0":          "add 7H 1/0 {Kind:7 Card:39 Set:0x0 Spectrum:0 Seat:1 Index:0}",
	"add XX 1/0":          "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"add XX 1/0\": bad card \"XX\": want rank and suit such as KS, TH, 10H or JK",
	"add XX 1-0":          "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"add XX 1-0\": bad card \"XX\": want rank and suit such as KS, TH, 10H or JK",
	"add 7H 1-0":          "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"add 7H 1-0\": want SEAT/SET such as 2/0, not \"1-0\"",
	"add 7H 1/0 x":        "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"add 7H 1/0 x\": want add CARD SEAT/SET",
	"pickup JK 0/0":       "pickup JK 0/0 {Kind:8 Card:64 Set:0x0 Spectrum:0 Seat:0 Index:0}",
	"pickup 7H 6/0":       "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"pickup 7H 6/0\": want SEAT/SET such as 2/0 (seat 0-5, set 0-54), not \"6/0\"",
	"pickup 0/0":          "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"pickup 0/0\": want pickup CARD SEAT/SET",
	"jump":                "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"jump\": unknown verb \"jump\" (want lead, play, set, pass, kill, s2, add or pickup)",
	"Jump 1":              "error (bad action true) ? {Kind:0 Card:0 Set:0x0 Spectrum:0 Seat:0 Index:0}: bad action \"Jump 1\": unknown verb \"Jump\" (want lead, play, set, pass, kill, s2, add or pickup)",
}

// TestParseActionWrapsCause: an action refused for a card or a set that
// does not read wraps that error as well as ErrBadAction, with the text
// unchanged (pinned above), and so does a record holding it.
func TestParseActionWrapsCause(t *testing.T) {
	good := "arlington record 1\nplayers 2\ntarget 32\nseed 5\n"
	for _, tc := range []struct {
		action string
		want   error
	}{
		{"lead XX", card.ErrBadCard},
		{"set aces aces", card.ErrBadCard},
		{"set runs 7H 7H", ErrBadSet},
		{"add XX 1/0", card.ErrBadCard},
		{"pickup XX 0/0", card.ErrBadCard},
	} {
		_, err := ParseAction(tc.action)
		if !errors.Is(err, ErrBadAction) || !errors.Is(err, tc.want) {
			t.Errorf("%q: %v wraps bad action %v, %v %v", tc.action, err,
				errors.Is(err, ErrBadAction), tc.want, errors.Is(err, tc.want))
		}
		_, _, err = Load(strings.NewReader(good + "0 " + tc.action + "\n"))
		if !errors.Is(err, ErrBadRecord) || !errors.Is(err, ErrBadAction) || !errors.Is(err, tc.want) {
			t.Errorf("record with %q: %v does not wrap bad record, bad action and %v", tc.action, err, tc.want)
		}
	}
}

// TestRecordLoadKeepsRule: a record with an illegal move gives the
// move's RuleError, so that the rule it breaks can be read from it.
func TestRecordLoadKeepsRule(t *testing.T) {
	s, err := New(Config{Players: 2}, 5)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Load(strings.NewReader(fmt.Sprintf("arlington record 1\nplayers 2\ntarget 32\nseed 5\n%d kill\n", s.ToMove())))
	var re *RuleError
	if !errors.As(err, &re) || re.Rule != "The Hand" || !errors.Is(err, ErrIllegal) || !errors.Is(err, ErrBadRecord) {
		t.Fatalf("got %v (a RuleError: %v)", err, re)
	}
}
