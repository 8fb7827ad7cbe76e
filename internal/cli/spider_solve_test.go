package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
	// 10C onto JD is the only move, and then nothing moves.
	if err := os.WriteFile(lay, []byte(`pile1: |AD JD
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
`), 0o644); err != nil {
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

// splitLayout is a 1-suit position with 17 cards face down that a small
// fair player wins in a few dozen moves (spider/solver's needSplit).
const splitLayout = `pile1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
pile2: |AS |KS |QS |TS |8S |6S |4S |3S |2S |AS |KS |QS |TS |8S |6S |4S |3S 2S AS
pile3: JS
pile4: JS
pile5: 9S
pile6: 9S
pile7: 7S
pile8: 7S
pile9: 5S
pile10: 5S
completed: S S S S S
`

// TestSpiderAutoplayTrace is the short form of TestLongSpiderAutoplayTrace:
// a won game from a constructed position is winnable at every card turned,
// in JSON and text output alike.
func TestSpiderAutoplayTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "split.txt")
	if err := os.WriteFile(path, []byte(splitLayout), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"spider", "autoplay", "--layout", path, "--suits", "1", "--samples", "1", "--nodes", "5000", "--judge-nodes", "0",
		"--endgame-worlds", "0", "--endgame-nodes", "0", "--deep-cands", "0", "--trace"}
	out, stderr, code := run(t, "", append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Won   bool     `json:"won"`
		Moves []string `json:"moves"`
		Trace string   `json:"trace"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Won {
		t.Fatal("the position was lost; the test wants a won game")
	}
	pos, err := spider.ParseLayout(splitLayout, spider.Rules{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := spider.NewGameAt(pos, spider.Options{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	down := g.Pos().FaceDown()
	for i, s := range r.Moves {
		m, err := spider.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		if d := g.Pos().FaceDown(); d < down || i == len(r.Moves)-1 {
			want.WriteString("W")
			down = d
		}
	}
	if !g.Won() || r.Trace != want.String() {
		t.Fatalf("won %v, trace %q, want %q", g.Won(), r.Trace, want.String())
	}
	text, _, code := run(t, "", args...)
	if lines := strings.Split(text, "\n"); code != 0 || len(lines) < 2 || lines[1] != "# trace: "+r.Trace {
		t.Fatalf("exit %d, text output without the same trace line:\n%s", code, text[:min(len(text), 400)])
	}
}

// TestLongSpiderAutoplayTrace checks --trace: a won game is winnable at every
// checkpoint and its letters match the cards turned and rows dealt, in
// text, JSON and bench output alike.
func TestLongSpiderAutoplayTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	args := []string{"--deal", "6", "--suits", "1", "--samples", "4", "--nodes", "30000", "--judge-nodes", "5000", "--trace"}
	out, stderr, code := run(t, "", append([]string{"spider", "autoplay", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Won     bool     `json:"won"`
		Moves   []string `json:"moves"`
		Seconds *float64 `json:"seconds"`
		Trace   string   `json:"trace"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Won {
		t.Fatal("deal 6 was lost; the test wants a won game")
	}
	if r.Seconds == nil || *r.Seconds <= 0 {
		t.Errorf("seconds %v: the JSON must give the time taken", r.Seconds)
	}
	// Count the events by replaying the moves.
	g, err := spider.NewGame(6, spider.Options{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	down := g.Pos().FaceDown()
	for i, s := range r.Moves {
		m, err := spider.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		d := g.Pos().FaceDown()
		if m.Kind == spider.Deal {
			want.WriteString("|")
		}
		if d < down || m.Kind == spider.Deal || i == len(r.Moves)-1 {
			want.WriteString("W")
		}
		down = d
	}
	if r.Trace != want.String() {
		t.Fatalf("trace %q, want %q", r.Trace, want.String())
	}
	played, _, _ := run(t, strings.Join(r.Moves, "\n"), "spider", "play", "--deal", "6", "--suits", "1")
	if !strings.Contains(played, "You won!") {
		t.Fatal("the autoplayed moves do not replay to a win")
	}

	// Text and bench output, from a weak player (any result will do).
	weak := []string{"--deal", "2", "--suits", "1", "--samples", "1", "--nodes", "2000", "--judge-nodes", "0", "--rollouts=false", "--trace"}
	traceRE := regexp.MustCompile(`^\|?[WL?](\|?[WL?])*$`)
	text, stderr, code := run(t, "", append([]string{"spider", "autoplay"}, weak...)...)
	lines := strings.Split(text, "\n")
	if code != 0 || len(lines) < 3 || !strings.HasPrefix(lines[1], "# trace: ") || !traceRE.MatchString(strings.TrimPrefix(lines[1], "# trace: ")) {
		t.Fatalf("exit %d %s, text output without a trace line:\n%s", code, stderr, text[:min(len(text), 400)])
	}
	bench, stderr, code := run(t, "", append([]string{"spider", "bench", "--mode", "autoplay", "--deals", "2"}, weak[2:]...)...)
	first, _, _ := strings.Cut(bench, "\n")
	_, tr, ok := strings.Cut(first, " trace ")
	if code != 0 || !strings.HasPrefix(first, "deal 2: ") || !ok || tr != strings.TrimPrefix(lines[1], "# trace: ") {
		t.Fatalf("exit %d %s, bench line %q; autoplay's trace line %q", code, stderr, first, lines[1])
	}
	// The same game: bench counts the suits completed as autoplay does.
	done := regexp.MustCompile(`(\d) of 8 suits complete`).FindStringSubmatch(lines[0])
	if done == nil || !strings.Contains(first, " "+done[1]+"/8 suits trace ") {
		t.Fatalf("bench line %q; autoplay's summary %q", first, lines[0])
	}
}

// TestSpiderSeed: --seed reaches the player in autoplay and bench alike,
// and another seed samples other worlds (with this weak player, deal 3 at
// 2 suits is played differently under seeds 0 and 1). It plays four whole
// games, so it is long.
func TestLongSpiderSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	weak := []string{"--suits", "2", "--samples", "2", "--nodes", "20000", "--judge-nodes", "0"}
	moves := func(tb testing.TB, seed string) string {
		tb.Helper()
		bench, stderr, code := run(tb, "", append([]string{"spider", "bench", "--mode", "autoplay", "--deals", "3", "--seed", seed}, weak...)...)
		first, _, _ := strings.Cut(bench, "\n")
		m := regexp.MustCompile(`^deal 3: (won|lost) (\d+) moves `).FindStringSubmatch(first)
		if code != 0 || m == nil {
			tb.Fatalf("bench --seed %s: exit %d %s, first line %q", seed, code, stderr, first)
		}
		out, stderr, code := run(tb, "", append([]string{"spider", "autoplay", "--deal", "3", "--json", "--seed", seed}, weak...)...)
		var r struct {
			Won   bool     `json:"won"`
			Moves []string `json:"moves"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
			tb.Fatalf("autoplay --seed %s: exit %d %s", seed, code, stderr)
		}
		if (m[1] == "won") != r.Won || m[2] != strconv.Itoa(len(r.Moves)) {
			tb.Fatalf("seed %s: bench %q, autoplay won %v in %d moves", seed, first, r.Won, len(r.Moves))
		}
		return strings.Join(r.Moves, ",")
	}
	if a, b := moves(t, "0"), moves(t, "1"); a == b {
		t.Fatal("seeds 0 and 1 played the same game")
	}
}

// TestSpiderBench: bench solves deals and records the winnable ones;
// TestLongSpiderBench adds a whole game of fair play.
func TestSpiderBench(t *testing.T) { spiderBench(t, false) }

func TestLongSpiderBench(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	spiderBench(t, true)
}

func spiderBench(t *testing.T, autoplay bool) {
	rec := filepath.Join(t.TempDir(), "won.txt")
	out, stderr, code := run(t, "", "spider", "bench", "--mode", "solve", "--suits", "1", "--deals", "1-4", "--jobs", "2", "--record", rec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("want 4 deal lines and a summary:\n%s", out)
	}
	lineRe := regexp.MustCompile(` (\d+) moves \(found (\d+), (\d+) by hand\)$`)
	timeRe := regexp.MustCompile(`: solved ([\d.]+)s \(verdict ([\d.]+)s, CPU [\d.]+s\) `)
	for i, l := range lines[:4] {
		if !strings.HasPrefix(l, "deal "+string(rune('1'+i))+": solved") {
			t.Errorf("line %d: %q", i+1, l)
		}
		// The verdict comes before the searches for a shorter line.
		if m := timeRe.FindStringSubmatch(l); m == nil {
			t.Errorf("line %d: no time, verdict and CPU: %q", i+1, l)
		} else if atof(m[1]) < atof(m[2]) {
			t.Errorf("line %d: the verdict after the whole solve: %q", i+1, l)
		}
		// The line as shortened, then as the search found it.
		m := lineRe.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("line %d: no moves and found: %q", i+1, l)
			continue
		}
		moves, _ := strconv.Atoi(m[1])
		found, _ := strconv.Atoi(m[2])
		hand, _ := strconv.Atoi(m[3])
		if moves == 0 || found < moves {
			t.Errorf("line %d: %s moves, found %s: %q", i+1, m[1], m[2], l)
		}
		// A won line removes all eight suits, and a player makes none of
		// those removals on a page that removes suits itself.
		if hand != moves-8 {
			t.Errorf("line %d: %d by hand, want %d (every move but 8 removals): %q", i+1, hand, moves-8, l)
		}
	}
	if !strings.HasPrefix(lines[4], "solved 4/4 (100.0%), time median") || !strings.Contains(lines[4], "nodes/s") ||
		!regexp.MustCompile(`, verdict median [\d.]+s p90 [\d.]+s, CPU median [\d.]+s p90 [\d.]+s`).MatchString(lines[4]) ||
		!regexp.MustCompile(`, line median \d+ moves p90 \d+ \(as found: median \d+; by hand: median \d+ p90 \d+\)`).MatchString(lines[4]) {
		t.Errorf("summary %q", lines[4])
	}
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "arachnid 1 1\narachnid 1 2\narachnid 1 3\narachnid 1 4\n" {
		t.Errorf("record:\n%s", b)
	}
	if !autoplay {
		return
	}
	out, stderr, code = run(t, "", "spider", "bench", "--mode", "autoplay", "--suits", "1", "--deals", "2", "--samples", "4", "--nodes", "30000", "--judge-nodes", "0")
	if code != 0 || !strings.Contains(out, "deal 2: won") || !strings.Contains(out, " 8/8 suits\n") || !strings.Contains(out, "won 1/1 (100.0%, 95% interval 20.7-100.0%)") ||
		!strings.Contains(out, "8.00 of 8 suits completed on average") {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
}

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi string
	}{
		{117, 200, "51.6", "65.1"}, // the 2-suit figure of docs/solver.md
		{0, 10, "0.0", "27.8"},
		{10, 10, "72.2", "100.0"},
		{1, 1, "20.7", "100.0"},
	} {
		t.Run(fmt.Sprintf("%d/%d", c.k, c.n), func(t *testing.T) {
			lo, hi := wilson(c.k, c.n)
			if got := fmt.Sprintf("%.1f %.1f", 100*lo, 100*hi); got != c.lo+" "+c.hi {
				t.Errorf("wilson(%d, %d) = %s, want %s %s", c.k, c.n, got, c.lo, c.hi)
			}
		})
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

// atof is s as a number, 0 when it is none.
func atof(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
