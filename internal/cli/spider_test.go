package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cardtable/spider"
)

// run runs cardtable with args and stdin, returning stdout, stderr and the
// exit status.
func run(tb testing.TB, stdin string, args ...string) (string, string, int) {
	tb.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestSpiderNewJSON(t *testing.T) {
	out, stderr, code := run(t, "", "spider", "new", "--deal", "1", "--variant", "spider", "--json", "--reveal")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v spider.View
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	// Deal 1, 4 suits, as in card/testdata/spider-deals.txt (docs/deals.md).
	if v.Deal != 1 || v.Variant != "spider" || v.Suits != 4 || v.Stock != 50 || len(v.Piles) != 10 {
		t.Fatalf("header: %+v", v)
	}
	if got := strings.Join(v.Piles[0].Hidden, " ") + " / " + strings.Join(v.Piles[0].Up, " "); got != "3D AS KD 7D 3S / 8H" {
		t.Errorf("pile 1 = %s", got)
	}
	if got := strings.Join(v.StockRows[0], " "); got != "QH 9S 2S QH 3C AS 4S KS 6D TD" {
		t.Errorf("row 1 = %s", got)
	}
	// Without --reveal nothing hidden is printed.
	out, _, _ = run(t, "", "spider", "new", "--deal", "1", "--variant", "spider", "--json")
	if strings.Contains(out, "hidden") || strings.Contains(out, "stockRows") || strings.Contains(out, "3D") {
		t.Errorf("hidden cards leak without --reveal: %s", out)
	}
}

func TestSpiderNewText(t *testing.T) {
	out, _, code := run(t, "", "spider", "new", "--deal", "617", "--suits", "2")
	if code != 0 || !strings.Contains(out, "Arachnid, 2 suits, deal 617") || !strings.Contains(out, "##") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	// A random deal is shown so it can be replayed.
	out, _, _ = run(t, "", "spider", "new")
	if !strings.Contains(out, "deal ") {
		t.Errorf("random deal not shown:\n%s", out)
	}
}

func TestSpiderBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"spider", "new", "--suits", "3"},
		{"spider", "new", "--deal", "0"},
		{"spider", "new", "--deal", "x"},
		{"spider", "new", "--variant", "klondike"},
		{"spider", "new", "--cheat", "sometimes"},
		{"spider", "new", "--nosuch"},
		{"spider", "play", "--deal", "1", "--load", "x.save"},
		{"spider", "frobnicate"},
		{"nosuch"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, stderr, code := run(t, "", args...)
			if code != 2 || stderr == "" {
				t.Errorf("exit %d, stderr %q; want 2 and a message", code, stderr)
			}
		})
	}
}

func TestSpiderPlayScript(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "g.save")
	script := strings.Join([]string{
		"move 6 1",     // 7H onto 8H (count resolved: 1)
		"move 9 6 1",   // 7C onto 2D? refused
		"move 12 1",    // no pile 12: refused
		"locate 8H",    // visible on pile 1
		"column 1",     // 8H 7H
		"undo", "redo", // back and forth
		"deal",
		"bogus",
		"save " + save,
		"quit",
		"deal", // never read
	}, "\n")
	out, stderr, code := run(t, script, "spider", "play", "--deal", "1", "--variant", "spider", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 11 { // start + 10 commands before quit
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	var states []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %s", l)
		}
		states = append(states, m)
	}
	if states[1]["moves"] != 1.0 {
		t.Errorf("after move: %v", states[1]["moves"])
	}
	for _, i := range []int{2, 3, 9} {
		if _, ok := states[i]["error"]; !ok || len(states[i]) != 1 {
			t.Errorf("line %d should be an error only: %v", i, states[i])
		}
	}
	if !strings.Contains(states[2]["error"].(string), "one rank higher") {
		t.Errorf("refusal does not name the rule: %v", states[2]["error"])
	}
	if locs := states[4]["locations"].([]any); len(locs) != 1 {
		t.Errorf("locate: %v", states[4])
	}
	if cards := states[5]["cards"].([]any); len(cards) != 2 {
		t.Errorf("column: %v", states[5])
	}
	// column says how many cards are face down, as the page's pile label.
	if down := states[5]["piles"].([]any)[0].(map[string]any)["down"]; states[5]["down"] != down || down != 5.0 {
		t.Errorf("column 1: down %v, want the pile's %v (5)", states[5]["down"], down)
	}
	// Every move, deal and removal carries the move played, as the API's
	// answer does; undo and redo carry none.
	for i, want := range map[int]any{1: "move 6 1 1", 6: nil, 7: nil, 8: "deal"} {
		if got := states[i]["move"]; got != want {
			t.Errorf("line %d: move %v, want %v", i, got, want)
		}
	}
	if states[8]["stock"] != 40.0 {
		t.Errorf("after deal stock = %v", states[8]["stock"])
	}
	// The save loads back to the same state.
	b, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	g, err := spider.Load(string(b))
	if err != nil || g.MovesPlayed() != 2 {
		t.Fatalf("saved game: %v, %v", g, err)
	}
	out, _, code = run(t, "show\n", "spider", "play", "--load", save, "--json")
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, `"moves":2`) {
		t.Errorf("play --load: %d\n%s", code, out)
	}
}

func TestSpiderPlayText(t *testing.T) {
	out, _, code := run(t, "help\nmove 9 6\nauto 6\ncolumn 1\nlocate QS\nundo\nundo\nundo\n", "spider", "play", "--deal", "1", "--variant", "spider")
	if code != 0 {
		t.Fatal(code)
	}
	for _, want := range []string{"commands, one a line (piles are 1 to 10", "refused: illegal move: 7C goes only on", "auto: move 6 1 1",
		"pile 1 (5 face down): 8H 7H", "QS: visible in pile 7", "refused: nothing to do: no move to undo"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestSpiderPlayLoadBadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.save")
	if err := os.WriteFile(path, []byte("cardtable spider 1\nvariant: spider\nsuits: 4\ndeal: 1\nmoves:\nmove 1 1 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, "", "spider", "play", "--load", path)
	if code != exitUsage || !strings.Contains(stderr, "line 6") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	// During play a bad load is refused and the game goes on.
	out, _, _ := run(t, "move 6 1\nload "+path+"\nshow\n", "spider", "play", "--deal", "1", "--variant", "spider", "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.Contains(lines[2], "line 6") || !strings.Contains(lines[3], `"moves":1`) {
		t.Errorf("bad load during play:\n%s", out)
	}
}

// TestSpiderPlaySaveNameWithSpaces: save and load take the rest of the
// line as the file's name, spaces included, as Arlington's terminal play
// does; "save my game.txt" was refused with "save takes a file name".
func TestSpiderPlaySaveNameWithSpaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my game.txt")
	out, _, code := run(t, "deal\nsave  "+path+" \nrestart\nload "+path+"\nshow\n", "spider", "play", "--deal", "3", "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != 6 || !strings.Contains(lines[2], `"saved":"`+path+`"`) || !strings.Contains(lines[5], `"moves":1`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// TestSpiderVariantAnyCase: --variant and --cheat take their words in any
// case ("Spider", as the page writes it), as the API and a save do.
func TestSpiderVariantAnyCase(t *testing.T) {
	out, stderr, code := run(t, "", "spider", "new", "--deal", "3", "--variant", "Spider", "--cheat", "FULL", "--json")
	if code != exitOK || !strings.Contains(out, `"variant":"spider"`) {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
}

// TestSpiderPlayLocateBadCard: locate names Spider's cards in its
// refusal, not the joker the card notation also has, and takes no
// look-alike letter for a card's ("Qſ", a long s, was read as QS).
func TestSpiderPlayLocateBadCard(t *testing.T) {
	out, _, _ := run(t, "locate XX\nlocate Qſ\n", "spider", "play", "--deal", "3")
	for _, bad := range []string{"XX", "Qſ"} {
		if want := "refused: bad card \"" + bad + "\": want a rank and a suit, such as QH, TS or 10S\n"; !strings.Contains(out, want) {
			t.Errorf("want %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "JK") {
		t.Errorf("the refusal offers a joker:\n%s", out)
	}
}

// TestSpiderPlayLoadMissingFile: during play, loading a file that is not
// there is refused as a file that cannot be read, not as a save in a bad
// format, and the game goes on.
func TestSpiderPlayLoadMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent")
	out, _, code := run(t, "load "+missing+"\nquit\n", "spider", "play", "--deal", "1")
	if want := "refused: cannot read " + missing + ": no such file or directory\n"; code != exitOK || !strings.Contains(out, want) || strings.Contains(out, "bad format") {
		t.Errorf("exit %d, want %q in\n%s", code, want, out)
	}
}

// TestSpiderLoadByteOrderMark: a save file an editor wrote with a UTF-8
// byte-order mark first loads in spider play (--load and load) and spider
// analyze as it does on the page.
func TestSpiderLoadByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	plain, marked := filepath.Join(dir, "g.save"), filepath.Join(dir, "bom.save")
	if _, _, code := run(t, "deal\nsave "+plain+"\n", "spider", "play", "--deal", "3", "--variant", "spider"); code != 0 {
		t.Fatal(code)
	}
	b, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(marked, append([]byte("\ufeff"), b...), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := run(t, "show\n", "spider", "play", "--load", marked, "--json"); code != exitOK || !strings.Contains(out, `"moves":1`) {
		t.Errorf("play --load: exit %d, %s %s", code, out, errOut)
	}
	if out, _, _ := run(t, "load "+marked+"\nquit\n", "spider", "play", "--deal", "1"); !strings.Contains(out, "loaded "+marked) {
		t.Errorf("load in play:\n%s", out)
	}
	if out, errOut, code := run(t, "", "spider", "analyze", "--load", marked, "--time", "300ms"); code != exitOK {
		t.Errorf("analyze --load: exit %d, %s %s", code, out, errOut)
	}
}

func TestSpiderPlayLoadRefusesGameFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.save")
	if _, _, code := run(t, "save "+path+"\n", "spider", "play", "--deal", "3"); code != 0 {
		t.Fatal(code)
	}
	for _, flag := range []string{"--suits=2", "--variant=spider", "--open", "--relaxed", "--autoremove", "--cheat=full", "--deal=4"} {
		_, stderr, code := run(t, "", "spider", "play", "--load", path, flag)
		name, _, _ := strings.Cut(flag, "=")
		if code != 2 || !strings.Contains(stderr, name+" does not go with --load") {
			t.Errorf("%s with --load: exit %d, %q", flag, code, stderr)
		}
	}
	// --json and --reveal are about output and still apply.
	if _, stderr, code := run(t, "", "spider", "play", "--load", path, "--json", "--reveal"); code != 0 {
		t.Errorf("--json --reveal with --load: %d %s", code, stderr)
	}
}

func TestSpiderSaveFile(t *testing.T) {
	dir := t.TempDir()
	out, _, _ := run(t, "save "+dir+"\nlocate JK\n", "spider", "play", "--deal", "3")
	if !strings.Contains(out, "cannot save to "+dir+": it is a directory") || strings.Contains(out, ".cardtable-save") {
		t.Errorf("save to a directory:\n%s", out)
	}
	if !strings.Contains(out, "no jokers in Spider") {
		t.Errorf("locate JK:\n%s", out)
	}
	path := filepath.Join(dir, "g.save")
	run(t, "save "+path+"\n", "spider", "play", "--deal", "3")
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("save file mode: %v %v", fi, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

// Every command and short form spider play's help lists is one the game
// knows (no "unknown command"), and the quitting ones stop it.
func TestSpiderPlayHelpListsRealCommands(t *testing.T) {
	verb := regexp.MustCompile(`^  ([a-z]+)`)
	short := regexp.MustCompile(`\(([^)]*)\)`)
	var verbs []string
	for line := range strings.Lines(spiderPlayHelp) {
		m := verb.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		verbs = append(verbs, m[1])
		// The short forms: "(m)", "(q, exit)"; not "(default 1)".
		if s := short.FindStringSubmatch(line); s != nil && !strings.Contains(strings.ReplaceAll(s[1], ", ", ""), " ") {
			verbs = append(verbs, strings.Split(s[1], ", ")...)
		}
	}
	if len(verbs) < 20 {
		t.Fatalf("only %d commands read from the help: %v", len(verbs), verbs)
	}
	for _, v := range verbs {
		t.Run(v, func(t *testing.T) {
			out, errOut, code := run(t, v+"\ndeal\nquit\n", "spider", "play", "--deal", "1")
			if code != 0 || strings.Contains(out, "unknown command") {
				t.Fatalf("exit %d: %s%s", code, out, errOut)
			}
			quits := v == "quit" || v == "q" || v == "exit"
			if dealt := strings.Contains(out, "stock 40"); dealt == quits {
				t.Errorf("%s: the deal after it was taken: %v", v, dealt)
			}
		})
	}
}

// TestSpiderPlayScoreMark: the terminal says when an undo or a restart
// halves an Arachnid score (cheat detection) or stops a Spider one, and
// its header keeps saying so, as the page's status bar does: a score
// that merely stops moving or drops tells the player nothing of why.
func TestSpiderPlayScoreMark(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		said, bar string
	}{
		{[]string{"--cheat", "full"}, "cheating detected (full detection): the score is halved from now on", "score 6 (halved)"},
		{[]string{"--variant", "spider"}, "scoring stopped: in Spider an undo, restart or load ends this game's scoring at 12", "score 12 (frozen)"},
	} {
		args := append([]string{"spider", "play", "--deal", "1"}, tc.args...)
		// Deal 1, either layout: 7H onto 8H turns a card up and builds in
		// suit (12 points).
		out, _, code := run(t, "move 6 1 1\nundo\nredo\n", args...)
		if code != 0 {
			t.Fatal(code)
		}
		if strings.Count(out, tc.said) != 1 {
			t.Errorf("%v: want %q said once in:\n%s", tc.args, tc.said, out)
		}
		last := out[strings.LastIndex(out, "score "):]
		if !strings.HasPrefix(last, tc.bar) {
			t.Errorf("%v: header after the redo reads %q, want %q", tc.args, strings.SplitN(last, "\n", 2)[0], tc.bar)
		}
	}
	// A Spider game loaded in play stops its scoring too, and says so.
	file := filepath.Join(t.TempDir(), "g.txt")
	out, _, code := run(t, "move 6 1 1\nsave "+file+"\nload "+file+"\n", "spider", "play", "--deal", "1", "--variant", "spider")
	if code != 0 {
		t.Fatal(code)
	}
	if want := "loaded " + file + "\nscoring stopped: in Spider an undo, restart or load ends this game's scoring at 12\n"; !strings.Contains(out, want) {
		t.Errorf("want %q in:\n%s", want, out)
	}
}
