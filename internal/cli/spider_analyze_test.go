package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/spider"
	"cardtable/spider/solver"
)

// deadEndLayout is a custom position (spider/solver's deadEnd) whose
// only move, 10C onto JD, leads nowhere: nothing moves after it.
const deadEndLayout = `pile1: |AD JD
pile2: |8D |AC 9C 2D
pile3: |5D 4C
pile4: KD
pile5: 3C 9D KC
pile6: |3D |6D 10C
pile7: 6C
pile8: 2C
pile9: QC 7C 10D 8C
pile10: JC 7D 5C QD 4D
completed: S H D C S H
`

// deadEndSave is deadEndLayout saved after its one move: both of its
// points are lost.
const deadEndSave = "cardtable spider 1\nvariant: arachnid\nsuits: 4\n" + deadEndLayout + "moves: 1\nmove 6 1 1\n"

func TestSpiderAnalyzeLost(t *testing.T) {
	save := filepath.Join(t.TempDir(), "lost.txt")
	write(t, save, deadEndSave)
	out, stderr, code := run(t, "", "spider", "analyze", "--load", save, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Moves  int
		Points []struct {
			Move          int
			Result, Basis string
		}
		LastWinnable *int
		FirstLost    *int
		Line         []string
		Complete     bool
		Exact        bool
		Band         *struct{ From, To int }
		Solves       int
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Moves != 1 || len(got.Points) != 2 || got.LastWinnable != nil || got.FirstLost == nil || *got.FirstLost != 0 ||
		len(got.Line) != 0 || !got.Complete || !got.Exact || got.Band != nil {
		t.Fatalf("got %+v", got)
	}
	for k, p := range got.Points {
		if p.Move != k || p.Result != "lost" {
			t.Errorf("point %d: %+v, want lost", k, p)
		}
	}
	if got.Points[1].Basis != "solve" {
		t.Errorf("the end was not solved first: %+v", got.Points)
	}
	out, _, code = run(t, "", "spider", "analyze", "--load", save)
	if code != 0 || !strings.Contains(out, "timeline from move 0: LL") || !strings.Contains(out, "cannot be won: its opening is proven lost (exact)") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// The summary for people is also a script for play: fed to `spider play
// --load FILE` it undoes the moves after the last winnable point and plays
// the line, which wins.
func TestSpiderAnalyzeTextReplaysInPlay(t *testing.T) {
	for _, autoRemove := range []bool{false, true} {
		g, err := spider.NewGame(5, spider.Options{Suits: 1, AutoRemove: autoRemove})
		if err != nil {
			t.Fatal(err)
		}
		solver.PlayGreedy(g, 6)
		save := filepath.Join(t.TempDir(), "game.txt")
		write(t, save, g.Save())

		// Analyze's own verdict (everything winnable: the line starts at
		// the end, no undo).
		out, stderr, code := run(t, "", "spider", "analyze", "--load", save)
		if code != 0 || !strings.Contains(out, "can still be won from its last position") {
			t.Fatalf("exit %d %s:\n%s", code, stderr, out)
		}
		if autoRemove && strings.Contains(out, "remove") {
			t.Error("with auto-remove on, removals must not be printed: play makes them")
		}
		played, _, _ := run(t, out, "spider", "play", "--load", save)
		if !strings.Contains(played, "You won!") || strings.Contains(played, "refused") {
			t.Fatalf("replay did not win:\n%s", played[max(0, len(played)-600):])
		}

		// An analysis whose last winnable point is two moves back: the
		// text undoes two moves first.
		c := g.Clone()
		for range 2 {
			if err := c.Undo(); err != nil {
				t.Fatal(err)
			}
		}
		r := solver.Solve(context.Background(), c.Pos(), solver.Limits{Nodes: 2_000_000})
		if r.Status != solver.Solved {
			t.Fatalf("move %d: %s", c.MovesPlayed(), r.Status)
		}
		a := &solver.Analysis{Moves: g.MovesPlayed(), LastWinnable: c.MovesPlayed(), Line: r.Moves,
			Points: make([]solver.Point, g.MovesPlayed()+1)}
		var b bytes.Buffer
		writeAnalysis(&b, g, a, playable(g, r.Moves), time.Minute)
		if !strings.Contains(b.String(), "\nundo 2\n") {
			t.Fatalf("no undo in:\n%s", b.String())
		}
		played, _, _ = run(t, b.String(), "spider", "play", "--load", save)
		if !strings.Contains(played, "You won!") || strings.Contains(played, "refused") {
			t.Fatalf("replay after undo 2 did not win:\n%s", played[max(0, len(played)-600):])
		}
	}
}

func TestSpiderAnalyzeUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	write(t, bad, "cardtable spider 1\nvariant: arachnid\nsuits: 4\ndeal: 1\nmoves: 1\nmove 1 2 9\n")
	ok := filepath.Join(dir, "ok.txt")
	write(t, ok, deadEndSave)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"spider", "analyze"}, 2, "--load FILE is required"},
		{[]string{"spider", "analyze", "--load", ok, "extra"}, 2, "unexpected argument"},
		{[]string{"spider", "analyze", "--load", ok, "--time", "-1s"}, 2, "at least 0"},
		{[]string{"spider", "analyze", "--load", ok, "--position-nodes", "x"}, 2, "position-nodes"},
		{[]string{"spider", "analyze", "--nope"}, 2, "nope"},
		{[]string{"spider", "analyze", "--load", bad}, 2, "line 6"},
		{[]string{"spider", "analyze", "--load", filepath.Join(dir, "none")}, 2, "no such file"},
		{[]string{"spider", "analyze", "bench", "--deals", "9-3"}, 2, "backwards"},
		{[]string{"spider", "analyze", "bench", "--max-moves", "0"}, 2, "max-moves"},
		{[]string{"spider", "analyze", "bench", "--suits", "3"}, 2, "suits"},
		{[]string{"spider", "analyze", "bench", "x"}, 2, "unexpected argument"},
		{[]string{"spider", "analyze", "bench", "--player", "human"}, 2, `--player "human": want greedy or fair`},
		{[]string{"spider", "analyze", "bench", "--player", "fair", "--samples", "0"}, 2, "--samples"},
	} {
		t.Run(strings.Join(tc.args[2:], " "), func(t *testing.T) {
			out, stderr, code := run(t, "", tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || out != "" {
				t.Fatalf("exit %d, stderr %q, out %q; want %d and %q", code, stderr, out, tc.code, tc.want)
			}
		})
	}
}

// TestSpiderAnalyzeBadSaveSaysItOnce: a save file analyze refuses is
// reported as spider play reports it, after the command's name: the file's
// name then the engine's message, with no stray "usage:" between (it once said "cardtable:
// usage: bad.txt: ...").
func TestSpiderAnalyzeBadSaveSaysItOnce(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	write(t, bad, "cardtable spider 1\nvariant: arachnid\nsuits: 4\ndeal: 1\nmoves: 1\nmove 1 2 9\n")
	want := "cardtable: spider analyze: " + bad + ": bad format: line 6: move 1 2 9: "
	_, analyzed, code := run(t, "", "spider", "analyze", "--load", bad)
	if code != exitUsage || !strings.HasPrefix(analyzed, want) || strings.Count(analyzed, "\n") != 1 {
		t.Errorf("analyze: exit %d, stderr %q; want %d and one line starting %q", code, analyzed, exitUsage, want)
	}
	if _, played, _ := run(t, "", "spider", "play", "--load", bad); strings.TrimPrefix(played, "cardtable: spider play: ") != strings.TrimPrefix(analyzed, "cardtable: spider analyze: ") {
		t.Errorf("play says %q, analyze %q: want the same", played, analyzed)
	}
}

// A short bench: each game's line replays (the command checks it) and the
// summary gives the median and p90.
func TestSpiderAnalyzeBench(t *testing.T) {
	out, stderr, code := run(t, "", "spider", "analyze", "bench", "--suits", "1", "--deals", "3-4", "--max-moves", "40")
	if code != 0 || !strings.Contains(out, "deal 3: ") || !strings.Contains(out, "deal 4: ") || !strings.Contains(out, "# 2 games") ||
		!strings.Contains(out, "median") || !strings.Contains(out, "p90") {
		t.Fatalf("exit %d %s:\n%s", code, stderr, out)
	}
}

// The fair player's games, at a small budget so that its 4-suit game is
// quick: it loses, the analysis runs and its line replays. The game
// analysed is the one solver.Autoplay plays with those options, not the
// greedy player's (the control: of another length).
func TestSpiderAnalyzeBenchFair(t *testing.T) {
	out, stderr, code := run(t, "", "spider", "analyze", "bench", "--player", "fair", "--suits", "4", "--variant", "spider",
		"--deals", "3-3", "--samples", "1", "--nodes", "2000", "--judge-nodes", "0", "--rollouts=false",
		"--endgame-worlds", "0", "--endgame-nodes", "0", "--deep-cands", "0", "--time", "1s")
	if code != 0 || !strings.Contains(out, "deal 3: ") || !strings.Contains(out, "(1 not won)") || !strings.Contains(out, "lost games") {
		t.Fatalf("exit %d %s:\n%s", code, stderr, out)
	}
	newGame := func() *spider.Game {
		g, err := spider.NewGame(3, spider.Options{Variant: spider.Spider, Suits: 4})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	fair, greedy := newGame(), newGame()
	o := solver.AutoplayOptions
	o.Samples, o.Nodes, o.JudgeNodes, o.Rollouts, o.EndgameWorlds, o.EndgameNodes, o.DeepCands = 1, 2000, 0, false, 0, 0, 0
	if _, _, err := solver.Autoplay(context.Background(), fair, o); err != nil {
		t.Fatal(err)
	}
	solver.PlayGreedy(greedy, 2000)
	if fair.MovesPlayed() == greedy.MovesPlayed() {
		t.Fatalf("both players make %d moves of deal 3: the test cannot tell them apart", fair.MovesPlayed())
	}
	if want := fmt.Sprintf("deal 3: %d moves,", fair.MovesPlayed()); !strings.Contains(out, want) {
		t.Fatalf("want %q (the fair player's game):\n%s", want, out)
	}
}

// verdicts makes an analysis of len(v) points from letters: W winnable,
// L lost, ? unknown.
func verdicts(v string, stopped solver.Limit) *solver.Analysis {
	a := &solver.Analysis{Moves: len(v) - 1, LastWinnable: strings.LastIndexByte(v, 'W'), StoppedBy: stopped}
	for k, c := range v {
		p := solver.Point{Move: k}
		switch c {
		case 'W':
			p.Verdict = solver.Winnable
		case 'L':
			p.Verdict = solver.Lost
		}
		a.Points = append(a.Points, p)
	}
	return a
}

// The summary says how sure it is: exact only with a proven winnable
// point next to a proven lost one, otherwise the band and why it is open.
func TestSpiderAnalyzeBoundaryText(t *testing.T) {
	for _, tc := range []struct {
		points  string
		stopped solver.Limit
		exact   bool
		want    string
	}{
		{"WWWLL", solver.NoLimit, true, "Lost at move 3 (exact): the game could still be won after move 2, and from move 3 no line wins."},
		{"WWWWW", solver.NoLimit, true, "can still be won from its last position (move 4) (exact)"},
		{"LLL", solver.NoLimit, true, "its opening is proven lost (exact)"},
		{"WW???LL", solver.TimeLimit, false, "Lost somewhere between moves 1 and 5: the search could not decide within 1m (moves 2 to 4 are unknown)."},
		{"WW?LL", solver.NoLimit, false, "Lost somewhere between moves 1 and 3: the search could not decide within its limits (move 2 is unknown)."},
		{"WW???", solver.TimeLimit, false, "Lost somewhere after move 1, if at all: the search could not decide within 1m (moves 2 to 4 are unknown)."},
		{"???LL", solver.TimeLimit, false, "Lost somewhere between the start and move 3"},
	} {
		t.Run(tc.points, func(t *testing.T) {
			a := verdicts(tc.points, tc.stopped)
			if a.Exact() != tc.exact {
				t.Fatalf("exact %v, want %v", a.Exact(), tc.exact)
			}
			got := boundaryText(a, time.Minute)
			if !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if strings.Contains(got, "exact") != tc.exact {
				t.Errorf("%q: says exact %v", got, !tc.exact)
			}
			j := analysisJSON(&spider.Game{}, a, nil)
			if j["exact"] != tc.exact || (j["band"] == nil) != tc.exact {
				t.Errorf("JSON exact %v band %v", j["exact"], j["band"])
			}
		})
	}
}
