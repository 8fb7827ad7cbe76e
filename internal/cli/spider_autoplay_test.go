package cli

// spider autoplay: its trace, the positions it plays from (a layout), and
// --seed in autoplay and bench.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cardtable/spider"
)

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
	if want := wonTrace(t, g, r.Moves); !g.Won() || r.Trace != want {
		t.Fatalf("won %v, trace %q, want %q", g.Won(), r.Trace, want)
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
	// In process and CPU-bound, with no environment, port or file shared:
	// it overlaps the other long spider tests.
	t.Parallel()
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
	if want := wonTrace(t, g, r.Moves); r.Trace != want {
		t.Fatalf("trace %q, want %q", r.Trace, want)
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
	// In process and CPU-bound, with no environment, port or file shared:
	// it overlaps the other long spider tests.
	t.Parallel()
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

// wonTrace plays moves on g and is the --trace of a game won by them: a
// checkpoint, winnable (W), after each card turned up, each row dealt
// (marked | before it) and the last move. Both trace tests use it, so
// TestSpiderAutoplayTrace also checks the |W of any row dealt, as
// TestLongSpiderAutoplayTrace did alone.
func wonTrace(tb testing.TB, g *spider.Game, moves []string) string {
	tb.Helper()
	var want strings.Builder
	down := g.Pos().FaceDown()
	for i, s := range moves {
		m, err := spider.ParseMove(s)
		if err != nil {
			tb.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			tb.Fatal(err)
		}
		d := g.Pos().FaceDown()
		if m.Kind == spider.Deal {
			want.WriteString("|")
		}
		if d < down || m.Kind == spider.Deal || i == len(moves)-1 {
			want.WriteString("W")
		}
		down = d
	}
	return want.String()
}
