package spider

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"cardtable/card"
)

// layoutCases walk ParseLayout through each kind of line (piles, stock
// rows, completed suits) and the checks on the whole position.
func layoutCases(tb testing.TB) []loadCase {
	tb.Helper()
	p, err := NewDeal(617, Spider, Rules{Suits: 2})
	if err != nil {
		tb.Fatal(err)
	}
	dealt := p.FormatLayout()
	row := "row1: AS AS AS AS AS AS AS AS AS AS\n"
	return []loadCase{
		{"no colon", "# c\n\npile1 KS\n"},
		{"pile0", "pile0: KS\n"},
		{"pile11", "pile11: KS\n"},
		{"pile without number", "pile: KS\n"},
		{"pile twice", "pile1: KS\n PILE1 : KS\n"},
		{"not a card", "pile1: KS 1S\n"},
		{"joker", "pile1: JK\n"},
		{"down after up", "pile1: |KS QS |JS\n"},
		{"too many cards", "pile1:" + strings.Repeat(" AS", maxPile+1) + "\n"},
		{"all down", "pile2: |KS |QS\n"},
		{"row0", "row0: " + row[6:]},
		{"row6", "row6: " + row[6:]},
		{"row without number", "rowx: " + row[6:]},
		{"row bad card", "row1: AS XX\n"},
		{"row short", "row1: AS\n"},
		{"row long", "row1: AS" + row[5:]},
		{"row twice", row + row},
		{"row twice and short", row + "row1: AS\n"},
		{"completed not a suit", "completed: X\n"},
		{"completed two letters", "completed: SS\n"},
		{"completed a rank", "completed: K\n"},
		{"completed nine", "completed: S S S S S S S S S\n"},
		{"completed three", "completed: S H S S\n"},
		{"completed three over two lines", "completed: S H\ncompleted: S S\n"},
		{"completed not in play", "pile1: KS\ncompleted: S C\n"},
		{"completed not in play lower-case", "pile1: KS\ncompleted: s c\n"},
		{"completed three lower-case", "completed: s H s s\n"},
		{"unknown line", "stock: AS\n"},
		{"missing pile", "pile1: KS\npile3: KS\n"},
		{"missing row", nearWin + "row2: AS AS AS AS AS AS AS AS AS AS\n"},
		{"bad counts", "pile1: KS\npile2:\npile3:\npile4:\npile5:\npile6:\npile7:\npile8:\npile9:\npile10:\n"},
		{"loads near win", nearWin},
		{"loads a deal", dealt},
		{"loads with completed", strings.Replace(nearWin, "pile2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH\n", "pile2:\ncompleted: h\n", 1)},
	}
}

// layoutOutcome is what ParseLayout makes of text with suits suits, in
// one line.
func layoutOutcome(text string, suits int) string {
	p, err := ParseLayout(text, Rules{Suits: suits, Relaxed: true})
	if err != nil {
		if p != nil {
			return "a position and an error"
		}
		return fmt.Sprintf("error (format %v, illegal %v): %v", errors.Is(err, ErrFormat), errors.Is(err, ErrIllegal), err)
	}
	return fmt.Sprintf("suits %d relaxed %v base %d down %d stock %d removed %d\n%s",
		p.suits, p.relaxed, p.base, p.FaceDown(), p.StockLen(), p.nRemoved, p.FormatLayout())
}

// TestParseLayoutOutcomesExact pins ParseLayout's every message and what
// it reads, word for word.
func TestParseLayoutOutcomesExact(t *testing.T) {
	if got, want := layoutOutcome(nearWin, 3), "error (format false, illegal false): bad suit count: suits must be 1, 2 or 4, not 3"; got != want {
		t.Errorf("3 suits:\n got %s\nwant %s", got, want)
	}
	for _, c := range layoutCases(t) {
		suits := 4
		if c.name == "loads a deal" || strings.HasPrefix(c.name, "completed not in play") {
			suits = 2
		}
		want, ok := layoutOutcomes[c.name]
		if !ok {
			t.Errorf("%s: no outcome pinned", c.name)
			continue
		}
		if got := layoutOutcome(c.text, suits); got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, want)
		}
	}
}

// layoutOutcomes are the outcomes ParseLayout gives for layoutCases,
// pinned when it was split into steps and changed since only on purpose.
var layoutOutcomes = map[string]string{
	"no colon":                         "error (format true, illegal false): bad format: line 3: want pileK:, rowK: or completed:, got \"pile1 KS\"",
	"pile0":                            "error (format true, illegal false): bad format: line 1: \"pile0\": piles are pile1 to pile10",
	"pile11":                           "error (format true, illegal false): bad format: line 1: \"pile11\": piles are pile1 to pile10",
	"pile without number":              "error (format true, illegal false): bad format: line 1: \"pile\": piles are pile1 to pile10",
	"pile twice":                       "error (format true, illegal false): bad format: line 2: pile1 given twice",
	"not a card":                       "error (format true, illegal false): bad format: line 1: pile1: \"1S\" is not a card",
	"joker":                            "error (format true, illegal false): bad format: line 1: pile1: \"JK\" is not a card",
	"down after up":                    "error (format true, illegal false): bad format: line 1: pile1: face-down card |JS after a face-up card",
	"too many cards":                   "error (format true, illegal false): bad format: line 1: pile1: too many cards",
	"all down":                         "error (format true, illegal false): bad format: line 1: pile2: face-down cards need a face-up card after them",
	"row0":                             "error (format true, illegal false): bad format: line 1: \"row0\": rows are row1 to row5",
	"row6":                             "error (format true, illegal false): bad format: line 1: \"row6\": rows are row1 to row5",
	"row without number":               "error (format true, illegal false): bad format: line 1: \"rowx\": rows are row1 to row5",
	"row bad card":                     "error (format true, illegal false): bad format: line 1: row1: bad card \"XX\": want rank and suit such as KS, TH, 10H or JK",
	"row short":                        "error (format true, illegal false): bad format: line 1: row1 has 1 card, want 10",
	"row long":                         "error (format true, illegal false): bad format: line 1: row1 has 11 cards, want 10",
	"row twice":                        "error (format true, illegal false): bad format: line 2: row1 given twice",
	"row twice and short":              "error (format true, illegal false): bad format: line 2: row1 has 1 card, want 10",
	"completed not a suit":             "error (format true, illegal false): bad format: line 1: completed: \"X\" is not a suit (S, H, D or C)",
	"completed two letters":            "error (format true, illegal false): bad format: line 1: completed: \"SS\" is not a suit (S, H, D or C)",
	"completed a rank":                 "error (format true, illegal false): bad format: line 1: completed: \"K\" is not a suit (S, H, D or C)",
	"completed nine":                   "error (format true, illegal false): bad format: line 1: completed: S given more than 2 times, the most a 4-suit game holds",
	"completed three":                  "error (format true, illegal false): bad format: line 1: completed: S given more than 2 times, the most a 4-suit game holds",
	"completed three over two lines":   "error (format true, illegal false): bad format: line 2: completed: S given more than 2 times, the most a 4-suit game holds",
	"completed not in play":            "error (format true, illegal false): bad format: line 2: completed: C: a 2-suit game has no clubs (its suits are hearts and spades)",
	"completed not in play lower-case": "error (format true, illegal false): bad format: line 2: completed: C: a 2-suit game has no clubs (its suits are hearts and spades)",
	"completed three lower-case":       "error (format true, illegal false): bad format: line 1: completed: S given more than 2 times, the most a 4-suit game holds",
	"unknown line":                     "error (format true, illegal false): bad format: line 1: unknown line \"stock\": want pileK:, rowK: or completed:",
	"missing pile":                     "error (format true, illegal false): bad format: pile2 is missing",
	"missing row":                      "error (format true, illegal false): bad format: row1 is missing",
	"bad counts":                       "error (format true, illegal false): bad format: 1 card, want 104; AC appears 0 times, 2C appears 0 times, 3C appears 0 times, 4C appears 0 times, 5C appears 0 times, 6C appears 0 times and 46 more wrong cards; a 4-suit game has 2 of each card",
	"loads near win":                   "suits 4 relaxed true base 44 down 0 stock 0 removed 0\npile1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\npile2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH\npile3: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH\npile4: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD\npile5: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD\npile6: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC\npile7: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC\npile8: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\npile9: AS\npile10:\n",
	"loads a deal":                     "suits 2 relaxed true base 44 down 44 stock 50 removed 0\npile1: |KS |9S |7S |2H |2H 9S\npile2: |8S |4S |7S |JH 2S\npile3: |5S |8H |7H |5S 2H\npile4: |4H |5H |KS |2S |AH TH\npile5: |4S |6S |KS |QS JS\npile6: |9H |6S |AH |TS QH\npile7: |KH |JS |TS |TH |6H 5S\npile8: |9S |5H |8H |AS 3S\npile9: |2S |9H |2H |7S 3H\npile10: |KS |3S |AH |QH |QS 4H\nrow1: 8S 4S KH 6H 9S JS QS JH TH 3S\nrow2: 8H 6S QS 7H 9H 3H 6H AS 8H 7S\nrow3: QH 7H QH AS 4S 3H 2S 5H 3S JH\nrow4: 8S KH 6H TH 4H TS 7H 3H 9H JH\nrow5: JS KH AH 5H TS 8S 5S 4H 6S AS\n",
	"loads with completed":             "suits 4 relaxed true base 44 down 0 stock 0 removed 1\npile1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\npile2:\npile3: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH\npile4: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD\npile5: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD\npile6: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC\npile7: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC\npile8: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\npile9: AS\npile10:\ncompleted: H\n",
}

// TestLayoutCompletedOverLinesOneSuit: a 1-suit game holds eight of its
// suit; a ninth given on a second completed: line is refused on that
// line (each line was counted alone, and the ninth overran the eight
// places: a panic, from a save any visitor could upload).
func TestLayoutCompletedOverLinesOneSuit(t *testing.T) {
	got := layoutOutcome("completed: S S S S S S S S\ncompleted: S\n", 1)
	want := "error (format true, illegal false): bad format: line 2: completed: S given more than 8 times, the most a 1-suit game holds"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestLayoutCardsASCIICaseOnly: a layout's cards are read in any ASCII
// case, and only so. Before, "Kſ" (a long s) was read as KS.
func TestLayoutCardsASCIICaseOnly(t *testing.T) {
	lower := strings.Replace(nearWin, "pile9: AS\n", "pile9: as\n", 1)
	if _, err := ParseLayout(lower, Rules{Suits: 4}); err != nil {
		t.Fatalf("pile9: as: %v", err)
	}
	for _, edit := range [][2]string{
		{"pile9: AS\n", "pile9: Aſ\n"},
		{"pile8: KS QS", "pile8: Kſ QS"},
	} {
		text := strings.Replace(nearWin, edit[0], edit[1], 1)
		if text == nearWin {
			t.Fatalf("%q is not in the layout", edit[0])
		}
		_, err := ParseLayout(text, Rules{Suits: 4})
		if !errors.Is(err, card.ErrBadCard) {
			t.Errorf("%q: error %v, want a bad card", edit[1], err)
		}
	}
}
