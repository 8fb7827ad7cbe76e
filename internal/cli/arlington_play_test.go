package cli

// arlington play: a game at the terminal against bots, its narration, its
// input's end, saves and loads, the hidden seed and hints.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
)

// A person's seat played from a script: help, listing legal actions, a
// nonsense line, a refused action naming its rule, a numbered legal
// action, a typed action, then the greedy helper to the end; a seat past
// the table's size is refused by that size.
func TestArlingtonPlayScript(t *testing.T) {
	const seed = 12
	s, err := arlington.New(arlington.Config{Players: 3}, seed)
	if err != nil {
		t.Fatal(err)
	}
	me := s.ToMove() // the first to act, so the script's first lines apply
	first := s.Legal(me)[0]
	if err := s.Apply(me, first); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	saved := filepath.Join(dir, "game.txt")
	script := "help\nlegal\nfly away\nadd 7H 5/1\nkill\n1\nsave " + saved + "\n" + strings.Repeat("auto\n", 5000)
	out, errOut, code := arlRun(t, script, "arlington", "play", "--players", "3", "--seed", strconv.Itoa(seed), "--seat", strconv.Itoa(me+1), "--bots", "random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Type 'help' for commands",
		"commands (one a line)",
		"  1  " + arlActionText(first),
		`bad action "fly away"`,
		"seats are 1 to 3 at this table", // 5/1 at a table of three
		`refused, rule "The Hand"`,       // kill when leading
		arlTold(s, me, "random")[1],      // the typed action, in words
		"saved to " + saved,
		"your hand: ",
		"game over after",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in output:\n%s", want, out[:min(len(out), 3000)])
		}
	}
	// The saved record loads and its first move is the one typed.
	f, err := os.Open(saved)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, _, err := arlington.Load(f)
	if err != nil || len(rec.Moves) == 0 || rec.Moves[0].Action != first {
		t.Fatalf("saved record: %v %v", err, rec.Moves)
	}
}

// arlTold is every public event of s so far as arlington play tells it:
// seat me is "you", the others bots of level bots.
func arlTold(s *arlington.State, me int, bots string) []string {
	names := make([]string, s.Players())
	for i := range names {
		names[i] = fmt.Sprintf("seat %d (%s)", i+1, bots)
	}
	names[me] = fmt.Sprintf("seat %d (you)", me+1)
	n := arlington.NewNarrator(names)
	var out []string
	for _, e := range s.Events(0) {
		out = append(out, n.Tell(e))
	}
	return out
}

// Terminal play tells every public event, the bots' moves and the
// player's own, in the words of the table page's log (arlington.Narrator),
// in order, and never as notation; a move made by 'auto' is marked.
func TestArlingtonPlayNarrates(t *testing.T) {
	script := strings.Repeat("auto\n", 12) + "quit\n"
	out, errOut, code := arlRun(t, script, "arlington", "play", "--players", "3", "--seed", "7", "--seat", "2", "--bots", "random", "--bot-seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	play, rec, ok := strings.Cut(out, "stopped; the record so far:\n")
	if !ok {
		t.Fatalf("the game ended before the script did:\n%s", out[max(0, len(out)-2000):])
	}
	_, s, err := arlington.Load(strings.NewReader(rec))
	if err != nil {
		t.Fatalf("record: %v\n%s", err, rec)
	}
	told := arlTold(s, 1, "random")
	if len(told) < 40 {
		t.Fatalf("only %d events in the record", len(told))
	}
	rest := play
	for i, w := range told {
		at := strings.Index(rest, w+"\n")
		if at < 0 {
			t.Fatalf("event %d %q not told (in order) in:\n%s", i, w, play[max(0, len(play)-len(rest)-500):])
		}
		rest = rest[at+len(w):]
	}
	for line := range strings.Lines(play) {
		for _, old := range []string{"seat 1 (random): ", "seat 3 (random): ", "you: ", "you (auto): "} {
			if strings.Contains(line, old) {
				t.Errorf("a move in notation: %q", line)
			}
		}
	}
	if !strings.Contains(play, "auto: seat 2 (you) ") {
		t.Errorf("no move marked as auto's in:\n%s", play[:min(len(play), 3000)])
	}
}

func TestArlingtonPlayInputEnds(t *testing.T) {
	out, _, code := arlRun(t, "show\n", "arlington", "play", "--players", "2", "--seed", "3")
	if code != 0 || !strings.Contains(out, "input ended before the game did") {
		t.Fatalf("exit %d: %s", code, out)
	}
	out, _, code = arlRun(t, "quit\n", "arlington", "play", "--players", "2", "--seed", "3")
	if code != 0 || !strings.Contains(out, "arlington record 1") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// A saved game continues with --load.
func TestArlingtonPlayLoad(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "g.txt")
	out, _, code := arlRun(t, "auto\nauto\nauto\nsave "+saved+"\nquit\n", "arlington", "play", "--players", "2", "--seed", "4", "--bots", "random")
	if code != 0 || !strings.Contains(out, "saved to") {
		t.Fatalf("exit %d: %s", code, out)
	}
	before, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(before), "\n") - 4
	out, errOut, code := arlRun(t, strings.Repeat("auto\n", 3000), "arlington", "play", "--load", saved, "--bots", "random")
	if code != 0 || !strings.Contains(out, "continuing after "+strconv.Itoa(n)+" actions") || !strings.Contains(out, "game over") {
		t.Fatalf("exit %d: %s %s", code, out[:min(len(out), 500)], errOut)
	}
	_, errOut, code = arlRun(t, "", "arlington", "play", "--load", filepath.Join(t.TempDir(), "none"))
	if code != 2 || errOut == "" {
		t.Fatalf("missing file: exit %d %q", code, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(bad, []byte("arlington record 1\nplayers 2\ntarget 32\nseed 4\n0 kill\n"), 0o644)
	_, errOut, code = arlRun(t, "", "arlington", "play", "--load", bad)
	if code != 2 || !strings.Contains(errOut, "line 5") {
		t.Fatalf("bad record: exit %d %q", code, errOut)
	}
}

// The seed determines every hand, so a live game never shows it unless
// the player chose it: not at the start, not in 'record', 'save' or
// 'quit'. It is shown at game over. The save file holds it (so the game
// can continue), and a game continued from that file keeps it hidden too.
func TestArlingtonPlayHidesSeed(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "g.txt")
	script := "show\nrecord\nauto\nauto\nrecord\nsave " + saved + "\n" + strings.Repeat("auto\n", 5000)
	out, errOut, code := arlRun(t, script, "arlington", "play", "--players", "3", "--bots", "random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	end := strings.Index(out, "game over after")
	if end < 0 {
		t.Fatalf("no game over in\n%s", out[max(0, len(out)-2000):])
	}
	var hands int
	var seed uint64
	if _, err := fmt.Sscanf(out[end:], "game over after %d hands (seed %d)", &hands, &seed); err != nil {
		t.Fatalf("game over line %q: %v", out[end:min(len(out), end+80)], err)
	}
	seedText := strconv.FormatUint(seed, 10)
	if i := strings.Index(out[:end], seedText); i >= 0 {
		t.Fatalf("seed %s shown during the game: %q", seedText, out[max(0, i-200):i+len(seedText)])
	}
	for _, want := range []string{"seed shown at the end", "# seed hidden until the game is over", "do not read it while you play on"} {
		if !strings.Contains(out[:end], want) {
			t.Fatalf("no %q before game over", want)
		}
	}
	file, err := os.ReadFile(saved)
	if err != nil || !strings.Contains(string(file), "\nseed "+seedText+"\n") {
		t.Fatalf("saved file lacks the seed %s: %v\n%s", seedText, err, file)
	}

	// Continue the saved game: the seed stays hidden in record and quit.
	out, errOut, code = arlRun(t, "record\nauto\nrecord\nquit\n", "arlington", "play", "--load", saved, "--bots", "random")
	if code != 0 || !strings.Contains(out, "continuing after") || !strings.Contains(out, "stopped;") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if strings.Contains(out, seedText) {
		t.Fatalf("loaded game shows its seed %s:\n%s", seedText, out)
	}

	// A seed the player gave is theirs to see.
	out, _, code = arlRun(t, "record\nquit\n", "arlington", "play", "--players", "2", "--seed", "424242")
	if code != 0 || !strings.Contains(out, "seed 424242, target 32") || strings.Count(out, "\nseed 424242\n") != 2 {
		t.Fatalf("exit %d: %s", code, out)
	}
	// The record counts seats from 0 among lines that count from 1: each
	// printed record says so on a line of its own, which loads as a comment.
	if n := strings.Count(out, recordNote); n != 2 {
		t.Fatalf("%d notes that the record counts seats from 0, want 2:\n%s", n, out)
	}
}

// A saved game fixes players, target and seed: giving them with --load is
// refused rather than silently ignored. --seat and --bots still apply.
func TestArlingtonPlayLoadRefusesFixedFlags(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "g.txt")
	if _, _, code := arlRun(t, "auto\nsave "+saved+"\nquit\n", "arlington", "play", "--players", "3", "--seed", "8"); code != 0 {
		t.Fatal("could not save a game")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--players", "5"}, "--players and --load do not go together"},
		{[]string{"--target", "50"}, "--target and --load do not go together"},
		{[]string{"--seed", "8"}, "--seed and --load do not go together"},
		{[]string{"--players", "3", "--target", "50"}, "--players, --target and --load do not go together"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := arlRun(t, "quit\n", append([]string{"arlington", "play", "--load", saved}, tc.args...)...)
			if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "fixes its players, target and seed") {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
	out, errOut, code := arlRun(t, "quit\n", "arlington", "play", "--load", saved, "--seat", "2", "--bots", "random")
	if code != 0 || !strings.Contains(out, "you are seat 2") {
		t.Fatalf("--seat with --load: exit %d %q %q", code, out, errOut)
	}
}

// --load of something that is not a readable file says so, naming no line.
func TestArlingtonPlayLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, path, want string
	}{
		{"directory", dir, "cannot read " + dir + ": it is a directory"},
		{"missing", filepath.Join(dir, "none"), "cannot read " + filepath.Join(dir, "none") + ": no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := arlRun(t, "", "arlington", "play", "--load", tc.path)
			if code != 2 || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "line") {
				t.Fatalf("exit %d, stderr %q; want %q", code, errOut, tc.want)
			}
		})
	}
}

// save replaces the file by renaming a complete temporary file over it:
// another name for the old file (a hard link) keeps the old contents,
// which an in-place write would overwrite. The file keeps its mode (0600
// here), no temporary file is left, and errors name the file asked for, never the temporary.
func TestArlingtonPlaySaveAtomic(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "g.txt")
	link := filepath.Join(dir, "old.txt")
	if err := os.WriteFile(saved, []byte("old game\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(saved, link); err != nil {
		t.Skip("no hard links here:", err)
	}
	missing := filepath.Join(dir, "no", "such", "dir", "g.txt")
	script := "save " + saved + "\nsave " + dir + "\nsave " + missing + "\nquit\n"
	out, errOut, code := arlRun(t, script, "arlington", "play", "--players", "2", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"saved to " + saved,
		"cannot save to " + dir + ": it is a directory",
		"cannot save to " + missing + ": cannot create a file in " + filepath.Dir(missing) + ": no such file or directory",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, ".cardtable") {
		t.Fatalf("output names a temporary file:\n%s", out)
	}
	if old, _ := os.ReadFile(link); string(old) != "old game\n" {
		t.Fatalf("the old file was written in place: %q", old)
	}
	got, err := os.ReadFile(saved)
	if err != nil || !strings.HasPrefix(string(got), "arlington record 1\n") {
		t.Fatalf("saved: %v %q", err, got)
	}
	if fi, err := os.Stat(saved); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600, the mode it had", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("files left in the directory: %v", entries)
	}
}

// 'hint' names the hard bot's choice from the player's own view: a legal
// action, and the game goes on unchanged until the player acts.
func TestArlingtonPlayHint(t *testing.T) {
	out, errOut, code := arlRun(t, "hint\nrecord\nquit\n", "arlington", "play", "--players", "2", "--seed", "4", "--bots", "random", "--bot-seed", "1", "--seat", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, after, ok := strings.Cut(out, "the hard bot would play: ")
	if !ok {
		t.Fatalf("no hint in\n%s", out)
	}
	line, _, _ := strings.Cut(after, "\n")
	a, err := arlParseAction(line, 0) // seats and sets counted from 1
	if err != nil {
		t.Fatalf("hint %q: %v", line, err)
	}
	rec := out[strings.Index(out, "arlington record"):]
	rec = rec[:strings.Index(rec, "stopped; ")] // quit's words follow
	_, st, err := arlington.Load(strings.NewReader(rec))
	if err != nil {
		t.Fatalf("record: %v", err)
	}
	if err := st.Check(1, a); err != nil || st.ToMove() != 1 {
		t.Fatalf("hint %v is not legal for seat 1 now: %v", a, err)
	}
}

// A set refused because its cards are no set is told why, in the words
// of 'arlington set' and the page, under the engine's reason.
func TestArlingtonPlaySetWhy(t *testing.T) {
	const seed = 12
	s, err := arlington.New(arlington.Config{Players: 3}, seed)
	if err != nil {
		t.Fatal(err)
	}
	me := s.ToMove() // has the lead, so may lead a set
	var bad arlington.Set
	hand := s.Hand(me).Cards()
	for i, c := range hand {
		for _, d := range hand[i+1:] {
			if two, _ := arlington.SetOf([]card.Card{c, d}); bad.Empty() && !arlington.Legal(two) {
				bad = two
			}
		}
	}
	if bad.Empty() {
		t.Fatalf("seed %d: every pair of seat %d's hand is a set", seed, me+1)
	}
	typed := "set " + card.Format(bad.Cards())
	out, errOut, code := arlRun(t, typed+"\nquit\n", "arlington", "play", "--players", "3", "--seed", strconv.Itoa(seed), "--seat", strconv.Itoa(me+1), "--bots", "random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "refused, rule \"Sets\": " + bad.String() + " is not a legal set\nwhy: " + arlington.WhyNotSet(bad) + "\n"
	if !strings.Contains(out, want) {
		t.Fatalf("%q: no %q in output:\n%s", typed, want, out)
	}
}
