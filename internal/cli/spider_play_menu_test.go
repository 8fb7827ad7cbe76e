package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// playLines runs spider play with --json and the given input, and returns
// its lines read as JSON objects.
func playLines(t *testing.T, stdin string, args ...string) []map[string]any {
	t.Helper()
	out, errOut, code := run(t, stdin, append([]string{"spider", "play", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var lines []map[string]any
	for l := range strings.Lines(out) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines
}

// TestSpiderPlayReplay: replay, the Amiga Arachnid's Move menu name for
// starting the deal again, is restart: the moves go, and under full cheat
// detection the score is halved as restart halves it.
func TestSpiderPlayReplay(t *testing.T) {
	l := playLines(t, "move 6 1 1\nreplay\n", "--deal", "1", "--cheat", "full")
	if len(l) != 3 || l[2]["error"] != nil || l[2]["moves"] != 0.0 {
		t.Fatalf("after replay: %v", l[len(l)-1])
	}
	if bd := l[2]["breakdown"].(map[string]any); bd["cheated"] != true {
		t.Errorf("replay under full detection: breakdown %v, want cheated", bd)
	}
	// An argument is refused under the name typed, not restart's.
	l = playLines(t, "replay 3\n", "--deal", "1")
	if e, _ := l[1]["error"].(string); !strings.Contains(e, "replay takes no arguments") {
		t.Errorf("replay 3: %v; want it refused as replay's", l[1])
	}
}

// TestSpiderPlayCheatWords: what the cheat command says each level counts
// is what the game counts: restart halves the score as an undo does
// (under newcards, after a card was turned up), and with the tableau open
// newcards counts only a deal.
func TestSpiderPlayCheatWords(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--cheat", "none"}, []string{"none (any undo or restart is safe)"}},
		{[]string{"--cheat", "newcards"}, []string{"halves the score, and so does a restart after one", "with the tableau open, only a deal"}},
		{[]string{"--cheat", "full"}, []string{"full (any undo or restart halves the score)"}},
	} {
		out, errOut, code := run(t, "cheat\n", append([]string{"spider", "play", "--deal", "1"}, tc.args...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s%s", code, out, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: want %q in:\n%s", tc.args, w, out)
			}
		}
	}
	// The words' claims, played: on deal 1, move 6 1 1 turns a card up.
	for _, tc := range []struct {
		input   string
		args    []string
		cheated bool
	}{
		{"move 6 1 1\nreplay\n", []string{"--cheat", "newcards"}, true},
		{"move 6 1 1\nreplay\n", []string{"--cheat", "newcards", "--open"}, false},
		{"deal\nreplay\n", []string{"--cheat", "newcards", "--open"}, true},
		{"move 6 1 1\nreplay\n", []string{"--cheat", "none"}, false},
	} {
		l := playLines(t, tc.input, append([]string{"--deal", "1"}, tc.args...)...)
		last := l[len(l)-1]
		if bd, _ := last["breakdown"].(map[string]any); bd == nil || bd["cheated"] != tc.cheated {
			t.Errorf("%q with %v: %v; want cheated %v", tc.input, tc.args, last, tc.cheated)
		}
	}
}

// TestSpiderPlayNew: new (the Amiga's Game menu New) starts another deal
// with the game's options, the one named or a random one, and the cheat
// level chosen with cheat LEVEL applies from there, not to the game in
// play.
func TestSpiderPlayNew(t *testing.T) {
	l := playLines(t, "move 6 1 1\ncheat full\nnew 5\nnew\n", "--deal", "1", "--variant", "spider", "--suits", "2", "--open")
	if len(l) != 5 {
		t.Fatalf("%d lines: %v", len(l), l)
	}
	if l[2]["cheat"] != "none" || l[2]["newGamesCheat"] != "full" || l[2]["moves"] != 1.0 {
		t.Errorf("after cheat full: %v; want this game's level none, new games' full, the game kept", l[2])
	}
	for i, want := range []float64{5, -1} {
		g := l[3+i]
		if g["error"] != nil || g["moves"] != 0.0 || g["variant"] != "spider" || g["suits"] != 2.0 || g["open"] != true {
			t.Errorf("new game %d: %v; want a fresh spider game, 2 suits, open", i+1, g)
		}
		if want > 0 && g["deal"] != want {
			t.Errorf("new 5 dealt %v", g["deal"])
		}
		// The Spider variant has no cheat detection (docs/rules-spider.md #23).
		if g["cheat"] != "none" {
			t.Errorf("new game %d in the Spider variant: cheat %v", i+1, g["cheat"])
		}
	}
	if l[3]["deal"] == l[4]["deal"] {
		t.Errorf("new without a number dealt deal %v again", l[4]["deal"])
	}
	l = playLines(t, "cheat newcards\nnew 7\ncheat\n", "--deal", "1")
	if l[2]["deal"] != 7.0 || l[2]["cheat"] != "newcards" || l[3]["cheat"] != "newcards" {
		t.Errorf("Arachnid: new after cheat newcards: %v, then %v", l[2], l[3])
	}
	l = playLines(t, "new 0\ncheat sometimes\n", "--deal", "1")
	if l[1]["error"] == nil || l[2]["error"] == nil {
		t.Errorf("deal 0 and a level that is none: %v, %v; want both refused", l[1], l[2])
	}
}

// TestSpiderPlaySaveAgain: save without a name writes the file last saved
// or loaded (the Amiga's Save beside its Save As), --load's file too;
// before any, it is refused with what it needs.
func TestSpiderPlaySaveAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	l := playLines(t, "save\nsave "+path+"\nmove 6 1 1\nsave\n", "--deal", "1")
	if l[1]["error"] == nil || !strings.Contains(l[1]["error"].(string), "save takes a file name") {
		t.Errorf("save before any file: %v", l[1])
	}
	if l[4]["saved"] != path {
		t.Fatalf("save alone after save FILE: %v", l[4])
	}
	l = playLines(t, "move 4 7 1\nsave\n", "--load", path)
	if l[2]["saved"] != path {
		t.Fatalf("save alone after --load: %v", l[2])
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "move 6 1 1") || !strings.Contains(string(b), "move 4 7 1") {
		t.Errorf("the file saved again lacks a move:\n%s", b)
	}
}

// TestSpiderPlayNewForgetsFile: after new, save without a name asks for
// one: the new game has no file, and the file of the game left (loaded
// or saved) keeps that game. Before, it was written over with the new
// game.
func TestSpiderPlayNewForgetsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	l := playLines(t, "move 6 1 1\nsave "+path+"\nnew 5\nsave\n", "--deal", "1")
	if e, _ := l[4]["error"].(string); !strings.Contains(e, "save takes a file name") {
		t.Errorf("save alone after new: %v; want a name asked for", l[4])
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l = playLines(t, "new 5\nsave\n", "--load", path)
	if e, _ := l[2]["error"].(string); !strings.Contains(e, "save takes a file name") {
		t.Errorf("save alone after --load and new: %v; want a name asked for", l[2])
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) || !strings.Contains(string(after), "move 6 1 1") {
		t.Errorf("the saved game was changed:\n%s\nwas:\n%s", after, before)
	}
}

// TestSpiderPlayLoadKeepsCheat: the level chosen for new games with cheat
// LEVEL is a setting, as on the page: loading a game saved under another
// level shows that game's own, and the next new takes the one chosen.
func TestSpiderPlayLoadKeepsCheat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.txt")
	playLines(t, "save "+path+"\n", "--deal", "1")
	l := playLines(t, "cheat full\nload "+path+"\ncheat\nnew 7\n", "--deal", "2", "--cheat", "newcards")
	if l[3]["cheat"] != "none" || l[3]["newGamesCheat"] != "full" {
		t.Errorf("cheat after load: %v; want the loaded game's none, new games' full", l[3])
	}
	if l[4]["deal"] != 7.0 || l[4]["cheat"] != "full" {
		t.Errorf("new after load: %v; want deal 7 under full detection", l[4])
	}
}

// TestSpiderPlayLocateCompleted: locate counts the copies of a card in
// the completed suits, as the page's Locate card does, so "not visible"
// tells a card still to come from one out of play.
func TestSpiderPlayLocateCompleted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "near.txt")
	save := `cardtable spider 1
variant: arachnid
suits: 4
pile1: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
pile2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
pile3: AC
pile4: 3D 2D AD
pile5:
pile6:
pile7:
pile8:
pile9:
pile10:
row1: KD QD JD TD 9D 8D 7D 6D 5D 4D
completed: S S H H D
moves: 0
`
	if err := os.WriteFile(path, []byte(save), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "locate AC\nlocate AH\nlocate AD\n", "spider", "play", "--load", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{"AC: visible in pile 1, pile 3\n", "AH: not visible; 2 in a completed suit\n", "AD: visible in pile 4; 1 in a completed suit\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	// In JSON the count has a key of its own, beside the game's list of
	// completed suits.
	l := playLines(t, "locate AD\n", "--load", path)
	if l[1]["completedCopies"] != 1.0 || len(l[1]["completed"].([]any)) != 5 {
		t.Errorf("locate AD in JSON: %v", l[1])
	}
}

// TestSpiderPlayScore: score breaks the Arachnid count down into its
// parts (Arachnid.help 1.8), as the page's end screen does, with the
// halving once cheating was detected.
func TestSpiderPlayScore(t *testing.T) {
	// Deal 1: 7H onto 8H turns a card up and builds in suit.
	out, errOut, code := run(t, "move 6 1 1\nundo\nredo\nscore\n", "spider", "play", "--deal", "1", "--cheat", "full")
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	want := "cards turned up (10 each)                  10\n" +
		"piles with no face-down cards (15 each)     0\n" +
		"same-suit builds (2 each)                   2\n" +
		"complete suits (50 each)                    0\n" +
		"total                                      12\n" +
		"cheating detected: halved                   6\n"
	if !strings.Contains(out, want) {
		t.Errorf("want\n%s\nin:\n%s", want, out)
	}
}
