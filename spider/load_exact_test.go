package spider

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"cardtable/card"
)

// loadCase is one input to Load and what it must give: the exact error
// text, or for a file that loads a summary of the game it makes.
type loadCase struct{ name, text string }

// loadCases walk Load through each of its steps: the header, every key,
// the layout, the move lines, the checks at the end of the file and the
// replay, including the order in which two faults are reported.
func loadCases(tb testing.TB) []loadCase {
	tb.Helper()
	const hdr = "cardtable spider 1\n"
	opts := "variant: spider\nsuits: 1\nopen: no\nrelaxed: no\nautoremove: no\ncheat: none\n"
	base := hdr + opts + "deal: 617\ncheated: no\nstopped: no\n"
	p, err := NewDeal(617, Spider, Rules{Suits: 1})
	if err != nil {
		tb.Fatal(err)
	}
	layout := p.FormatLayout()
	lines := strings.SplitAfter(layout, "\n")
	// The layout with a key line between two of its piles, and a fault in
	// the pile after that line: the fault's line number counts the key line.
	split := strings.Join(lines[:3], "") + "cheated: no\n" + strings.Replace(strings.Join(lines[3:], ""), "pile4:", "pile4: XX", 1)
	// The layout short of one face-down card: a fault found only when the
	// whole position is checked, so with no line of its own.
	short := "pile1: " + strings.Join(strings.Fields(lines[0])[2:], " ") + "\n" + strings.Join(lines[1:], "")
	manyMoves := strings.Repeat("deal\n", MaxSteps+1)
	return []loadCase{
		{"empty", ""},
		{"only comments", "# a\n\n   \n#b\n"},
		{"long first line", strings.Repeat("#", MaxSaveLine+1)},
		{"not a save", "hello\n"},
		{"other version", "cardtable spider 2\n"},
		{"header only", hdr},
		{"no colon", hdr + "variant spider\n"},
		{"bad variant", hdr + "variant: klondike\n"},
		{"bad suits number", hdr + "suits: x\n"},
		{"bad suits count", hdr + "suits: 3\n"},
		{"bad open", hdr + "open: maybe\n"},
		{"bad relaxed", hdr + "relaxed: maybe\n"},
		{"bad autoremove", hdr + "autoremove: maybe\n"},
		{"bad cheat", hdr + "cheat: lots\n"},
		{"bad deal zero", hdr + "deal: 0\n"},
		{"bad deal text", hdr + "deal: x\n"},
		{"bad cheated", hdr + "cheated: maybe\n"},
		{"bad stopped text", hdr + "stopped: x\n"},
		{"bad stopped huge", hdr + "stopped: 99999999999999999999\n"},
		{"bad stopped high", hdr + "stopped: 1001\n"},
		{"bad stopped low", hdr + "stopped: -1\n"},
		{"bad actions text", hdr + "actions: x\n"},
		{"bad actions low", hdr + "actions: -1\n"},
		{"bad actions high", hdr + "actions: 1000001\n"},
		{"bad position text", hdr + "position: x\n"},
		{"bad position low", hdr + "position: -1\n"},
		{"unknown key", hdr + "color: red\n"},
		{"moves without a space", hdr + "moves:x\n"},
		{"key twice, other case", hdr + "variant: spider\nVARIANT: spider\n"},
		{"long middle line", hdr + "variant: spider\n" + strings.Repeat(" ", MaxSaveLine+1) + "\nsuits: 1\n"},
		{"missing variant", hdr + "suits: 1\ndeal: 1\nmoves: 0\n"},
		{"missing suits", hdr + "variant: spider\ndeal: 1\nmoves: 0\n"},
		{"missing moves", base},
		{"bad count text", base + "moves: x\n"},
		{"bad count low", base + "moves: -1\n"},
		{"bad count high", base + "moves: 100001\n"},
		{"count too high", base + "position: 0\nmoves: 2\ndeal\n"},
		{"count too low", base + "position: 0\nmoves: 0\ndeal\n"},
		{"count too low, no position", base + "moves: 0\ndeal\n"},
		{"count too low, moves undone", base + "position: 0\nmoves: 1\ndeal\ndeal\n"},
		{"bad move", base + "moves: 1\nmove 1 2 x\n"},
		{"key after moves", base + "moves:\nvariant: spider\n"},
		{"too many moves", base + "moves:\n" + manyMoves},
		{"stopped in arachnid", strings.NewReplacer("variant: spider", "variant: arachnid", "stopped: no", "stopped: 500").Replace(base) + "moves: 0\n"},
		{"stopped in arachnid, no suits", hdr + "variant: arachnid\nstopped: 5\nmoves: 0\n"},
		{"deal and layout", base + layout + "moves: 0\n"},
		{"layout and deal", hdr + opts + layout + "deal: 5\nmoves: 0\n"},
		{"no deal", hdr + opts + "moves: 0\n"},
		{"layout missing a pile", hdr + opts + strings.Join(lines[1:], "") + "moves: 0\n"},
		{"layout bad card", hdr + opts + strings.Replace(layout, "pile2:", "pile2: XX", 1) + "moves: 0\n"},
		{"layout split by a key", hdr + opts + split + "moves: 0\n"},
		{"layout short of a card", hdr + opts + short + "moves: 0\n"},
		{"layout completed not in play", hdr + opts + layout + "completed: H\nmoves: 0\n"},
		{"position past", base + "position: 2\nmoves: 1\ndeal\n"},
		{"illegal move", base + "moves: 2\ndeal\nmove 1 1 1\n"},
		{"illegal move and position past", base + "position: 5\nmoves: 2\ndeal\nmove 1 1 1\n"},
		{"loads", base + "position: 1\nmoves: 1\ndeal\n"},
		{"loads without count", base + "moves:\ndeal\n# c\n\ndeal\n"},
		{"loads undone", base + "position: 1\nmoves: 2\ndeal\ndeal\n"},
		{"loads with actions and stop", strings.Replace(base, "stopped: no", "stopped: 500", 1) + "actions: 7\nmoves: 0\n"},
		{"loads yes and true", strings.NewReplacer("open: no", "open: yes", "relaxed: no", "relaxed: true", "autoremove: no", "autoremove: false", "cheated: no", "cheated: false").Replace(base) + "moves: 0\n"},
		{"cheated in spider", strings.Replace(base, "cheated: no", "cheated: yes", 1) + "moves: 0\n"},
		{"key twice with spaces and crlf", strings.ReplaceAll("  "+base+"  Suits : 1\n", "\n", "\r\n")},
		{"loads crlf and spaces", strings.ReplaceAll("  "+strings.Replace(base, "suits: 1\n", "", 1)+"  Suits : 1\nmoves: 0\n", "\n", "\r\n")},
		{"loads arachnid cheat", strings.NewReplacer("variant: spider", "variant: arachnid", "cheat: none", "cheat: full").Replace(base) + "moves: 0\n"},
		{"loads a layout", hdr + opts + layout + "moves: 1\ndeal\n"},
	}
}

// loadOutcome is what Load makes of text, in one line: the error with the
// sentinels it wraps, or the loaded game's settings and counters.
func loadOutcome(text string) string {
	g, err := Load(text)
	if err != nil {
		if g != nil {
			return "a game and an error"
		}
		return fmt.Sprintf("error (format %v, illegal %v): %v", errors.Is(err, ErrFormat), errors.Is(err, ErrIllegal), err)
	}
	return fmt.Sprintf("game %+v deal %d steps %d cursor %d actions %d cheated %v stopped %v %d",
		g.opts, g.deal, len(g.steps), g.cursor, g.actions, g.cheated, g.stopped, g.stopAt)
}

// TestLoadOutcomesExact pins Load's every message and what it loads, word
// for word, so that a change in how Load is built cannot change them.
func TestLoadOutcomesExact(t *testing.T) {
	cases := loadCases(t)
	for _, c := range cases {
		want, ok := loadOutcomes[c.name]
		if !ok {
			t.Errorf("%s: no outcome pinned", c.name)
			continue
		}
		if got := loadOutcome(c.text); got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, want)
		}
	}
}

// loadOutcomes are the outcomes Load gave for loadCases before it was
// split into steps, but for an illegal move, which now wraps ErrIllegal as
// well, and the wrong cards of a layout, which are all named.
var loadOutcomes = map[string]string{
	"empty":                          "error (format true, illegal false): bad format: empty file",
	"only comments":                  "error (format true, illegal false): bad format: empty file",
	"long first line":                "error (format true, illegal false): bad format: line 1: longer than 65536 bytes, the limit",
	"not a save":                     "error (format true, illegal false): bad format: line 1: not a cardtable Spider save (want \"cardtable spider 1\")",
	"other version":                  "error (format true, illegal false): bad format: line 1: unsupported save version \"cardtable spider 2\" (this program reads \"cardtable spider 1\")",
	"header only":                    "error (format true, illegal false): bad format: line 2: end of file: missing \"variant:\" line",
	"no colon":                       "error (format true, illegal false): bad format: line 2: want key: value, got \"variant spider\"",
	"bad variant":                    "error (format true, illegal false): bad format: line 2: variant: variant must be arachnid or spider, not \"klondike\"",
	"bad suits number":               "error (format true, illegal false): bad format: line 2: suits: \"x\" is not a whole number",
	"bad suits count":                "error (format true, illegal false): bad format: line 2: suits: bad suit count: suits must be 1, 2 or 4, not 3",
	"bad open":                       "error (format true, illegal false): bad format: line 2: open: want yes or no, got \"maybe\"",
	"bad relaxed":                    "error (format true, illegal false): bad format: line 2: relaxed: want yes or no, got \"maybe\"",
	"bad autoremove":                 "error (format true, illegal false): bad format: line 2: autoremove: want yes or no, got \"maybe\"",
	"bad cheat":                      "error (format true, illegal false): bad format: line 2: cheat: cheat level must be none, newcards or full, not \"lots\"",
	"bad deal zero":                  "error (format true, illegal false): bad format: line 2: deal: bad deal \"0\": a deal number is a whole number from 1 to 18446744073709551615",
	"bad deal text":                  "error (format true, illegal false): bad format: line 2: deal: bad deal \"x\": a deal number is a whole number from 1 to 18446744073709551615",
	"bad cheated":                    "error (format true, illegal false): bad format: line 2: cheated: want yes or no, got \"maybe\"",
	"bad stopped text":               "error (format true, illegal false): bad format: line 2: stopped: \"x\" is not a whole number",
	"bad stopped huge":               "error (format true, illegal false): bad format: line 2: stopped: \"99999999999999999999\" is too large a number",
	"bad stopped high":               "error (format true, illegal false): bad format: line 2: stopped: score 1001 out of range",
	"bad stopped low":                "error (format true, illegal false): bad format: line 2: stopped: score -1 out of range",
	"bad actions text":               "error (format true, illegal false): bad format: line 2: actions: \"x\" is not a whole number",
	"bad actions low":                "error (format true, illegal false): bad format: line 2: actions: -1 out of range (0 to 1000000)",
	"bad actions high":               "error (format true, illegal false): bad format: line 2: actions: 1000001 out of range (0 to 1000000)",
	"bad position text":              "error (format true, illegal false): bad format: line 2: position: \"x\" is not a whole number",
	"bad position low":               "error (format true, illegal false): bad format: line 2: position: negative position",
	"unknown key":                    "error (format true, illegal false): bad format: line 2: unknown key \"color\"",
	"moves without a space":          "error (format true, illegal false): bad format: line 2: moves: want the number of move lines, got \"x\"",
	"key twice, other case":          "error (format true, illegal false): bad format: line 3: variant given twice",
	"long middle line":               "error (format true, illegal false): bad format: line 3: longer than 65536 bytes, the limit",
	"missing variant":                "error (format true, illegal false): bad format: line 5: end of file: missing \"variant:\" line",
	"missing suits":                  "error (format true, illegal false): bad format: line 5: end of file: missing \"suits:\" line",
	"missing moves":                  "error (format true, illegal false): bad format: line 11: end of file: missing \"moves:\" line (the file may be cut short)",
	"bad count text":                 "error (format true, illegal false): bad format: line 11: moves: want the number of move lines, got \"x\"",
	"bad count low":                  "error (format true, illegal false): bad format: line 11: moves: want the number of move lines, got \"-1\"",
	"bad count high":                 "error (format true, illegal false): bad format: line 11: moves: want the number of move lines, got \"100001\"",
	"count too high":                 "error (format true, illegal false): bad format: line 14: end of file: 1 move line, but line 12 says 2 (the file may be cut short)",
	"count too low":                  "error (format true, illegal false): bad format: line 14: end of file: 1 move line, but line 12 says 0: if every move line is meant, make it \"moves: 1\" (or \"moves:\" alone), and line 11 \"position: 1\" (or remove that line) so that they are played",
	"count too low, no position":     "error (format true, illegal false): bad format: line 13: end of file: 1 move line, but line 11 says 0: if every move line is meant, make it \"moves: 1\" (or \"moves:\" alone)",
	"count too low, moves undone":    "error (format true, illegal false): bad format: line 15: end of file: 2 move lines, but line 12 says 1: if every move line is meant, make it \"moves: 2\" (or \"moves:\" alone)",
	"bad move":                       "error (format true, illegal false): bad format: line 12: count \"x\": want 1 to 13 cards",
	"key after moves":                "error (format true, illegal false): bad format: line 12: \"variant: spider\" is not a move (want move, deal or remove)",
	"too many moves":                 "error (format true, illegal false): bad format: line 100012: more than 100000 moves",
	"stopped in arachnid":            "error (format true, illegal false): bad format: line 10: \"stopped: 500\": a frozen score applies only to the spider variant",
	"stopped in arachnid, no suits":  "error (format true, illegal false): bad format: line 5: end of file: missing \"suits:\" line",
	"deal and layout":                "error (format true, illegal false): bad format: line 11: a save has a deal number or a layout, not both",
	"layout and deal":                "error (format true, illegal false): bad format: line 8: a save has a deal number or a layout, not both",
	"no deal":                        "error (format true, illegal false): bad format: line 9: end of file: missing \"deal:\" line or layout",
	"layout missing a pile":          "error (format true, illegal false): bad format: line 8: layout: pile1 is missing",
	"layout bad card":                "error (format true, illegal false): bad format: line 9: pile2: \"XX\" is not a card",
	"layout split by a key":          "error (format true, illegal false): bad format: line 12: pile4: \"XX\" is not a card",
	"layout short of a card":         "error (format true, illegal false): bad format: line 8: layout: 103 cards, want 104; KS appears 7 times; a 1-suit game has 8 of each spade card and no other card",
	"layout completed not in play":   "error (format true, illegal false): bad format: line 23: completed: H: a 1-suit game has no hearts (its suit is spades)",
	"position past":                  "error (format true, illegal false): bad format: line 11: position 2 is past the 1 move",
	"illegal move":                   "error (format true, illegal true): bad format: line 13: move 1 1 1: a pile cannot move onto itself",
	"illegal move and position past": "error (format true, illegal false): bad format: line 11: position 5 is past the 2 moves",
	"loads":                          "game {Variant:spider Suits:1 Open:false Relaxed:false AutoRemove:false Cheat:none} deal 617 steps 1 cursor 1 actions 1 cheated false stopped false 0",
	"loads without count":            "game {Variant:spider Suits:1 Open:false Relaxed:false AutoRemove:false Cheat:none} deal 617 steps 2 cursor 2 actions 2 cheated false stopped false 0",
	"loads undone":                   "game {Variant:spider Suits:1 Open:false Relaxed:false AutoRemove:false Cheat:none} deal 617 steps 2 cursor 1 actions 1 cheated false stopped false 0",
	"loads with actions and stop":    "game {Variant:spider Suits:1 Open:false Relaxed:false AutoRemove:false Cheat:none} deal 617 steps 0 cursor 0 actions 7 cheated false stopped true 500",
	"loads yes and true":             "game {Variant:spider Suits:1 Open:true Relaxed:true AutoRemove:false Cheat:none} deal 617 steps 0 cursor 0 actions 0 cheated false stopped false 0",
	"cheated in spider":              "game {Variant:spider Suits:1 Open:false Relaxed:false AutoRemove:false Cheat:none} deal 617 steps 0 cursor 0 actions 0 cheated false stopped false 0",
	"key twice with spaces and crlf": "error (format true, illegal false): bad format: line 11: suits given twice",
	"loads crlf and spaces":          "game {Variant:spider Suits:1 Open:false Relaxed:false AutoRemove:false Cheat:none} deal 617 steps 0 cursor 0 actions 0 cheated false stopped false 0",
	"loads arachnid cheat":           "game {Variant:arachnid Suits:1 Open:false Relaxed:false AutoRemove:false Cheat:full} deal 617 steps 0 cursor 0 actions 0 cheated false stopped false 0",
	"loads a layout":                 "game {Variant:spider Suits:1 Open:false Relaxed:false AutoRemove:false Cheat:none} deal 0 steps 1 cursor 1 actions 1 cheated false stopped false 0",
}

// TestLoadWrapsCause: a save refused for an error of one of its parts
// wraps that error as well as ErrFormat, with the text unchanged (pinned
// above): an illegal move is ErrIllegal, a bad suit count, deal or card
// is the card package's error, a number that does not read is strconv's.
func TestLoadWrapsCause(t *testing.T) {
	cases := map[string]loadCase{}
	for _, c := range loadCases(t) {
		cases[c.name] = c
	}
	for name, want := range map[string]error{
		"illegal move":     ErrIllegal,
		"bad suits count":  card.ErrBadSuits,
		"bad deal zero":    card.ErrBadDeal,
		"bad suits number": strconv.ErrSyntax,
		"bad stopped huge": strconv.ErrRange,
	} {
		_, err := Load(cases[name].text)
		if !errors.Is(err, ErrFormat) || !errors.Is(err, want) {
			t.Errorf("%s: %v does not wrap %v and %v", name, err, ErrFormat, want)
		}
	}
	// A bad card or suit letter in each kind of layout line, the text
	// pinned in layoutOutcomes.
	for _, text := range []string{"row1: AS XX\n", "pile1: KS 1S\n", "pile1: JK\n", "completed: X\n", "completed: SS\n"} {
		_, err := ParseLayout(text, Rules{Suits: 4})
		if !errors.Is(err, ErrFormat) || !errors.Is(err, card.ErrBadCard) {
			t.Errorf("layout %q: %v does not wrap %v and %v", text, err, ErrFormat, card.ErrBadCard)
		}
	}
	var ne *strconv.NumError
	if _, err := Load(cases["bad stopped text"].text); !errors.As(err, &ne) || ne.Num != "x" {
		t.Errorf("bad stopped text: %v holds no strconv.NumError for \"x\"", err)
	}
}
