package cli

// spider solve, and what the solver serves elsewhere: new --winnable,
// play's hint, the deal ranges solve takes.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cardtable/spider"
	"cardtable/spider/solver"
)

func TestSpiderSolveReplaysInPlay(t *testing.T) {
	for _, variant := range []string{"arachnid", "spider"} {
		t.Run(variant, func(t *testing.T) {
			out, stderr, code := run(t, "", "spider", "solve", "--deal", "5", "--suits", "1", "--variant", variant)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			first, _, _ := strings.Cut(out, "\n")
			if !strings.HasPrefix(first, "# deal 5 ("+variant+", 1 suit): solved") {
				t.Fatalf("summary %q", first)
			}
			// The whole output feeds terminal play, which skips '#' lines.
			played, stderr, code := run(t, out, "spider", "play", "--deal", "5", "--suits", "1", "--variant", variant)
			if code != 0 {
				t.Fatalf("play exit %d: %s", code, stderr)
			}
			if strings.Contains(played, "refused") || !strings.Contains(played, "You won!") {
				t.Fatalf("replay did not win:\n%s", played[max(0, len(played)-800):])
			}
		})
	}
}

func TestSpiderSolveJSON(t *testing.T) {
	out, stderr, code := run(t, "", "spider", "solve", "--deal", "3", "--suits", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Result    string   `json:"result"`
		Moves     []string `json:"moves"`
		Nodes     int64    `json:"nodes"`
		Seconds   float64  `json:"seconds"`
		Verdict   float64  `json:"verdictSeconds"`
		PeakBytes int64    `json:"peakBytes"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Result != "solved" || len(r.Moves) == 0 || r.Nodes <= 0 || r.PeakBytes <= 0 || r.Seconds < 0 ||
		r.Verdict <= 0 || r.Verdict > r.Seconds {
		t.Fatalf("%+v", r)
	}
	g, _ := spider.NewGame(3, spider.Options{Suits: 2})
	for _, s := range r.Moves {
		m, err := spider.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if !g.Won() {
		t.Fatal("the JSON moves do not win")
	}
}

func TestSpiderSolveLayoutAndLoad(t *testing.T) {
	dir := t.TempDir()
	lay := filepath.Join(dir, "dead.txt")
	if err := os.WriteFile(lay, []byte(deadEndLayout), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(t, "", "spider", "solve", "--layout", lay, "--json")
	if code != 0 || !strings.Contains(out, `"result":"unsolvable"`) {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}

	// A saved game is solved from its current position.
	g, _ := spider.NewGame(8, spider.Options{Suits: 1, AutoRemove: true})
	if err := g.Play(spider.DealMove); err != nil {
		t.Fatal(err)
	}
	save := filepath.Join(dir, "game.txt")
	if err := os.WriteFile(save, []byte(g.Save()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = run(t, "", "spider", "solve", "--load", save)
	if code != 0 || !strings.Contains(out, "custom position") && !strings.Contains(out, "deal 8") {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	// The same save given as a layout is told which flag reads it.
	_, stderr, code = run(t, "", "spider", "solve", "--layout", save)
	if want := "cardtable: spider solve: " + save + " is a saved game, not a layout: read it with --load\n"; code != exitUsage || stderr != want {
		t.Fatalf("a save given to --layout: exit %d, stderr %q, want %q", code, stderr, want)
	}
	// So is the tableau spider new prints, kept in a file: it hides the
	// face-down cards, and the layout parser's "unknown line" said nothing
	// of what a layout is.
	shown, _, _ := run(t, "", "spider", "new", "--deal", "617", "--suits", "1")
	pic := filepath.Join(dir, "position.txt")
	if err := os.WriteFile(pic, []byte(shown), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = run(t, "", "spider", "solve", "--layout", pic)
	if want := "cardtable: spider solve: " + pic + " is the tableau as spider new and play print it, not a layout: " +
		"a layout lists every card, pile1: to pile10: and the stock's rows (docs/formats.md, \"Spider layout\")\n"; code != exitUsage || stderr != want {
		t.Fatalf("a printed tableau given to --layout: exit %d, stderr %q, want %q", code, stderr, want)
	}
	if strings.Contains(out, "remove") {
		t.Error("with auto-remove on, removals must not be printed: play makes them")
	}
	played, _, _ := run(t, out, "spider", "play", "--load", save)
	if !strings.Contains(played, "You won!") || strings.Contains(played, "refused") {
		t.Fatalf("replay from the save did not win:\n%s", played[max(0, len(played)-600):])
	}
}

func TestSpiderSolveUsage(t *testing.T) {
	tests := [][]string{
		{"spider", "solve", "--deal", "1", "--load", "x"},
		{"spider", "solve", "--winnable", "--layout", "x"},
		{"spider", "solve", "--suits", "3"},
		{"spider", "solve", "--deal", "0"},
		{"spider", "solve", "extra"},
		{"spider", "bench", "--mode", "guess"},
		{"spider", "bench", "--deals", "9-3"},
		{"spider", "bench", "--jobs", "0"},
		{"spider", "autoplay", "--samples", "0"},
		{"spider", "autoplay", "--judge-nodes", "-1"},
		{"spider", "autoplay", "--rollouts=maybe"},
		{"spider", "autoplay", "--endgame-worlds", "-2"},
		{"spider", "bench", "--mode", "autoplay", "--endgame-nodes", "-5"},
		{"spider", "bench", "--mode", "autoplay", "--nodes", "0"},
		{"spider", "autoplay", "--deep-cands", "-1"},
		{"spider", "autoplay", "--deep-down", "-3"},
		{"spider", "bench", "--mode", "autoplay", "--deep-worlds", "-1"},
		{"spider", "bench", "--mode", "autoplay", "--deep-nodes", "x"},
		{"spider", "bench", "--mode", "autoplay", "--seed", "-1"},
		{"spider", "autoplay", "--seed", "x"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			_, stderr, code := run(t, "", args...)
			if code != 2 || stderr == "" {
				t.Fatalf("exit %d, stderr %q; want 2 with a message", code, stderr)
			}
		})
	}
	if _, stderr, code := run(t, "", "spider", "solve", "--load", filepath.Join(t.TempDir(), "none")); code != exitUsage || stderr == "" {
		t.Fatalf("missing file: exit %d %q", code, stderr)
	}
}

func TestSpiderNewWinnable(t *testing.T) {
	for _, suits := range []string{"1", "2", "4"} {
		out, stderr, code := run(t, "", "spider", "new", "--winnable", "--suits", suits, "--variant", "spider", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var v spider.View
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(suits)
		found := false
		for pick := range solver.WinnableCount(spider.Spider, n) {
			if d, _ := solver.WinnableDeal(spider.Spider, n, uint64(pick)); d == v.Deal {
				found = true
			}
		}
		if !found {
			t.Errorf("%s suits: deal %d is not among the proven ones", suits, v.Deal)
		}
	}
	if _, _, code := run(t, "", "spider", "new", "--winnable", "--deal", "5"); code != 2 {
		t.Errorf("--winnable with --deal: exit %d, want 2", code)
	}
	out, stderr, code := run(t, "quit\n", "spider", "play", "--winnable", "--suits", "1")
	if code != 0 || !strings.Contains(out, "deal ") {
		t.Errorf("play --winnable: exit %d %s %s", code, out, stderr)
	}
}

func TestSpiderPlayHint(t *testing.T) {
	out, stderr, code := run(t, "hint\nquit\n", "spider", "play", "--deal", "5", "--suits", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var r struct {
		Message string `json:"message"`
	}
	if len(lines) < 2 || json.Unmarshal([]byte(lines[1]), &r) != nil {
		t.Fatalf("output:\n%s", out)
	}
	m, err := spider.ParseMove(r.Message)
	if err != nil {
		t.Fatalf("hint %q: %v", r.Message, err)
	}
	g, _ := spider.NewGame(5, spider.Options{Suits: 1})
	if err := g.Play(m); err != nil {
		t.Fatalf("hint %s is not legal: %v", m, err)
	}
	// Text mode prints the move on its own line before the tableau.
	out, _, _ = run(t, "hint\n", "spider", "play", "--deal", "5", "--suits", "1")
	if !strings.Contains(out, "\n"+r.Message+"\n") {
		t.Errorf("text hint missing %q:\n%s", r.Message, out)
	}
}

func TestParseRange(t *testing.T) {
	tests := []struct {
		in       string
		from, to uint64
		ok       bool
	}{
		{"1-200", 1, 200, true},
		{"7", 7, 7, true},
		{" 3 - 5 ", 3, 5, true},
		{"5-3", 0, 0, false},
		{"0-3", 0, 0, false},
		{"a-b", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			from, to, err := parseRange(tc.in)
			if (err == nil) != tc.ok || tc.ok && (from != tc.from || to != tc.to) {
				t.Fatalf("got %d-%d %v", from, to, err)
			}
		})
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"1-200", "7", "5-3", "-", "18446744073709551615-18446744073709551615"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		from, to, err := parseRange(s)
		if err == nil && (from == 0 || to < from) {
			t.Fatalf("%q gave %d-%d", s, from, to)
		}
	})
}

// TestSolveLayoutSuits: a layout does not say its suit count, so one of a
// 1- or 2-suit game read with the default 4 suits (or another wrong
// --suits) is told the --suits it needs, rather than listed every card
// wrong for 4 suits ("AC appears 0 times, ... and 46 more wrong cards");
// a fault left once --suits is right is told along with it. One card
// typed with a suit not in play, under the right --suits, keeps the
// error that names it.
func TestSolveLayoutSuits(t *testing.T) {
	layout := func(tb testing.TB, suits int, edit func(string) string) string {
		tb.Helper()
		g, err := spider.NewGame(617, spider.Options{Suits: suits})
		if err != nil {
			tb.Fatal(err)
		}
		pos := g.Position()
		path := filepath.Join(tb.TempDir(), fmt.Sprintf("s%d.txt", suits)) // a directory of each test's own
		if err := os.WriteFile(path, []byte(edit(pos.FormatLayout())), 0o644); err != nil {
			tb.Fatal(err)
		}
		return path
	}
	same := func(s string) string { return s }
	for _, tc := range []struct {
		name  string
		suits int // the layout's
		edit  func(string) string
		flags []string
		want  string // after "cardtable: spider solve: PATH"
	}{
		{"1 suit read as 4", 1, same, nil,
			" holds spades alone, the suits of a 1-suit game, not a 4-suit one: give --suits 1\n"},
		{"2 suits read as 4", 2, same, nil,
			" holds spades and hearts, the suits of a 2-suit game, not a 4-suit one: give --suits 2\n"},
		{"2 suits read as 1", 2, same, []string{"--suits", "1"},
			" holds spades and hearts, the suits of a 2-suit game, not a 1-suit one: give --suits 2\n"},
		{"4 suits read as 2", 4, same, []string{"--suits", "2"},
			" holds spades, hearts, diamonds and clubs, the suits of a 4-suit game, not a 2-suit one: give --suits 4\n"},
		{"2 suits with a card mistyped", 2, func(s string) string { return strings.Replace(s, "KS", "KH", 1) }, nil,
			" holds spades and hearts, the suits of a 2-suit game, not a 4-suit one: give --suits 2 " +
				"(with it, still: bad format: KH appears 5 times, KS appears 3 times; a 2-suit game has 4 of each heart and spade card and no other card)\n"},
		// One card mistyped as a suit not in play, with a wrong --suits:
		// the count with the fewest wrong cards is named, not the fewest
		// suits that hold every suit seen (4, fifty cards wrong).
		{"2 suits with a heart typed as a diamond, read as 1", 2, func(s string) string { return strings.Replace(s, "KH", "KD", 1) }, []string{"--suits", "1"},
			" holds spades, hearts and diamonds, but its cards fit a 2-suit game best, not a 1-suit one: give --suits 2 " +
				"(with it, still: bad format: KD appears 1 time, KH appears 3 times; a 2-suit game has 4 of each heart and spade card and no other card: diamonds are not in play)\n"},
		{"2 suits with a heart typed as a diamond, read as 4", 2, func(s string) string { return strings.Replace(s, "KH", "KD", 1) }, nil,
			" holds spades, hearts and diamonds, but its cards fit a 2-suit game best, not a 4-suit one: give --suits 2 " +
				"(with it, still: bad format: KD appears 1 time, KH appears 3 times; a 2-suit game has 4 of each heart and spade card and no other card: diamonds are not in play)\n"},
		{"1 suit with a spade typed as a heart, read as 4", 1, func(s string) string { return strings.Replace(s, "KS", "KH", 1) }, nil,
			" holds spades and hearts, but its cards fit a 1-suit game best, not a 4-suit one: give --suits 1 " +
				"(with it, still: bad format: KH appears 1 time, KS appears 7 times; a 1-suit game has 8 of each spade card and no other card: hearts are not in play)\n"},
		// A card mistyped as a suit not in play, with the right --suits:
		// the other count reads worse, so the error names the card.
		{"1 suit with a spade typed as a heart", 1, func(s string) string { return strings.Replace(s, "KS", "KH", 1) }, []string{"--suits", "1"},
			": bad format: KH appears 1 time, KS appears 7 times; a 1-suit game has 8 of each spade card and no other card: hearts are not in play\n"},
		{"2 suits with a heart typed as a diamond", 2, func(s string) string { return strings.Replace(s, "KH", "KD", 1) }, []string{"--suits", "2"},
			": bad format: KD appears 1 time, KH appears 3 times; a 2-suit game has 4 of each heart and spade card and no other card: diamonds are not in play\n"},
		{"no card at all", 1, func(string) string { return "# nothing yet\n" }, nil,
			": bad format: pile1 is missing\n"},
		// A file cut short mid-pile, under the right --suits: most of its
		// cards are missing, which made 1 suit seem to fit best ("give
		// --suits 1"); the fault is its shape, whatever the count.
		{"2 suits cut short", 2, func(s string) string { return s[:strings.Index(s, "pile4:")+14] }, []string{"--suits", "2"},
			": bad format: line 4: pile4: face-down cards need a face-up card after them\n"},
		{"2 suits cut short, read as 4", 2, func(s string) string { return s[:strings.Index(s, "pile4:")+14] }, nil,
			": bad format: line 4: pile4: face-down cards need a face-up card after them\n"},
		{"2 suits cut after a pile", 2, func(s string) string { return s[:strings.Index(s, "pile6:")] }, []string{"--suits", "2"},
			": bad format: pile6 is missing\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := layout(t, tc.suits, tc.edit)
			_, stderr, code := run(t, "", append([]string{"spider", "solve", "--layout", path}, tc.flags...)...)
			if want := "cardtable: spider solve: " + path + tc.want; code != exitUsage || stderr != want {
				t.Errorf("exit %d, stderr %q; want exit %d, %q", code, stderr, exitUsage, want)
			}
			if strings.Contains(tc.want, "still") {
				if _, err := readLayout(path, spider.Options{Suits: 4}); !errors.Is(err, spider.ErrFormat) {
					t.Errorf("the fault left with --suits lost its cause: %v", err)
				}
			}
			// With the --suits it names, the same file is read.
			if !strings.Contains(tc.want, "give --suits") || strings.Contains(tc.want, "still") {
				return
			}
			_, stderr, code = run(t, "", "spider", "solve", "--layout", path, "--suits", fmt.Sprint(tc.suits), "--nodes", "1000")
			if code != exitOK {
				t.Errorf("with --suits %d: exit %d, stderr %q", tc.suits, code, stderr)
			}
		})
	}
}

// TestSolveLayoutSuitsTie: where the suit counts leave as many wrong
// cards each (one of every card of the four suits: 52 wrong whatever
// the count) and none reads the layout, --suits is kept, with the error
// that lists the cards, rather than a count named that fits no better.
func TestSolveLayoutSuitsTie(t *testing.T) {
	var cards []string
	for _, s := range []string{"S", "H", "D", "C"} {
		for _, r := range []string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"} {
			cards = append(cards, r+s)
		}
	}
	path := filepath.Join(t.TempDir(), "each-once.txt")
	if err := os.WriteFile(path, []byte("pile1: "+strings.Join(cards, " ")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, suits := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(suits), func(t *testing.T) {
			_, err := readLayout(path, spider.Options{Suits: suits})
			if err == nil || strings.Contains(err.Error(), "give --suits") || !errors.Is(err, spider.ErrFormat) {
				t.Fatalf("read with --suits %d: %v; want the layout's own error, no other count named", suits, err)
			}
		})
	}
}
