package solver

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"cardtable/spider"
)

// replayLine takes a copy of g back to the position after k moves and
// plays line there as play commands, parsed by spider.ParseCommand, as a
// player typing them into `cardtable spider play` would; the game must
// end won.
func replayLine(tb testing.TB, g *spider.Game, k int, line []spider.Move) {
	tb.Helper()
	c := g.Clone()
	for c.MovesPlayed() > k {
		if err := c.Undo(); err != nil {
			tb.Fatal(err)
		}
	}
	for i, m := range line {
		cmd, err := spider.ParseCommand(m.String())
		if err != nil {
			tb.Fatalf("line move %d %q: %v", i+1, m, err)
		}
		if _, _, err := c.Apply(cmd); err != nil {
			tb.Fatalf("line move %d %q from point %d: %v", i+1, m, k, err)
		}
	}
	if !c.Won() {
		tb.Fatalf("the %d-move line from point %d does not win", len(line), k)
	}
}

// randomStock lays out the 26 diamonds and clubs at random as
// randomSmall does, but with ten of them as one row left in the stock:
// dealing it is the one move that cannot be taken back, so a game can
// throw its win away.
func randomStock(r *rand.Rand) string {
	var cards []string
	for _, su := range "DC" {
		for _, rk := range []string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"} {
			cards = append(cards, rk+string(su))
		}
	}
	r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	var b strings.Builder
	for k := range spider.Piles {
		fmt.Fprintf(&b, "pile%d:", k+1)
		n := 1
		if k < 6 {
			n = 2
		}
		for j, c := range cards[:n] {
			if j+1 < n {
				b.WriteString(" |" + c)
			} else {
				b.WriteString(" " + c)
			}
		}
		cards = cards[n:]
		b.WriteString("\n")
	}
	b.WriteString("row1: " + strings.Join(cards, " ") + "\n")
	b.WriteString("completed: S H D C S H\n")
	return b.String()
}

// smallGame is a game of up to 10 random moves on a random small
// position: randomStock's (with a stock row) when stock is set, else
// randomSmall's. A stock game starts from a position the solver wins and
// is kept only if a move throws the win away; ok is false when this try
// found none.
func smallGame(tb testing.TB, r *rand.Rand, o spider.Options, stock bool) (g *spider.Game, ok bool) {
	tb.Helper()
	ctx, lim := context.Background(), Limits{Nodes: 100_000}
	text := randomSmall(r)
	if stock {
		text = randomStock(r)
	}
	p := layout(tb, text, 4)
	if stock && Solve(ctx, p, lim).Status != Solved {
		return nil, false
	}
	g, err := spider.NewGameAt(p, o)
	if err != nil {
		tb.Fatal(err)
	}
	var buf [256]spider.Move
	lost := !stock
	for range 10 {
		var ms []spider.Move
		for _, m := range g.Pos().Legal(buf[:0]) {
			if !g.Pos().Null(m) {
				ms = append(ms, m)
			}
		}
		if len(ms) == 0 {
			break
		}
		if err := g.Play(ms[r.IntN(len(ms))]); err != nil {
			tb.Fatal(err)
		}
		if !lost {
			switch Solve(ctx, g.Pos(), lim).Status {
			case Unsolvable:
				lost = true
			case Unknown:
				return nil, false
			}
		}
	}
	return g, lost
}

// TestAnalyzeKnownGames: games on the known small positions of
// solver_test.go, where brute force (an exhaustive search over every
// legal move, without the solver's simplifications) decides every point:
// the analysis must decide every point the same way, and its line must
// replay as a win from the last winnable point.
func TestAnalyzeKnownGames(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 3))
	for _, tc := range []struct {
		name  string
		text  string
		suits int
		moves []spider.Move // nil: random moves
	}{
		{"dead end", deadEnd, 4, []spider.Move{mustMove(t, "move 6 1 1")}},
		{"jams, random moves", jams, 4, nil},
		{"one move to win, not played", oneMove, 1, []spider.Move{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := spider.NewGameAt(layout(t, tc.text, tc.suits), spider.Options{Suits: tc.suits})
			if err != nil {
				t.Fatal(err)
			}
			moves := tc.moves
			var buf [256]spider.Move
			for i := 0; moves == nil && i < 6; i++ {
				var ms []spider.Move
				for _, m := range g.Pos().Legal(buf[:0]) {
					if !g.Pos().Null(m) {
						ms = append(ms, m)
					}
				}
				if len(ms) == 0 {
					break
				}
				if err := g.Play(ms[r.IntN(len(ms))]); err != nil {
					t.Fatal(err)
				}
			}
			for _, m := range moves {
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			n := g.MovesPlayed()
			truth := make([]bool, n+1)
			c := g.Clone()
			last := -1
			for k := n; k >= 0; k-- {
				win, ok := bruteWinnable(t, c.Position(), 200_000)
				if !ok {
					t.Fatalf("point %d: too big for brute force", k)
				}
				truth[k] = win
				if win && last < 0 {
					last = k
				}
				if k > 0 {
					if err := c.Undo(); err != nil {
						t.Fatal(err)
					}
				}
			}
			a := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: 2_000_000}})
			checkAnalysis(t, a, n, last)
			if !a.Complete() || a.LastWinnable != last {
				t.Fatalf("last winnable %d, complete %v; brute force: %v", a.LastWinnable, a.Complete(), truth)
			}
			if last >= 0 {
				replayLine(t, g, last, a.Line)
			}
		})
	}
}

// TestLongAnalyzeSmallGames checks the analysis of 15 games on random
// small positions (randomSmall's, and two in three randomStock's, with a
// stock row, kept only if a random move throws the win away) against
// brute force at the points that matter. Every point must be decided,
// brute force must agree wherever it finishes (on a position with a
// stock it often does not, and the solver's own exhaustive proof
// stands), and the line must replay. The games are read from
// testdata/small-games.json: finding them takes about 1 300 tries and
// five minutes of processor time, so they were found once (-update finds
// them again) and the test spends its time on the checks.
func TestLongAnalyzeSmallGames(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	t.Parallel()
	games := smallGames(t, 15)
	var mu sync.Mutex
	var bruteWin, bruteLost, turned int // points checked by brute force; games lost on the way
	t.Run("games", func(t *testing.T) {
		for i, g := range games {
			t.Run(fmt.Sprint(i+1), func(t *testing.T) {
				t.Parallel()
				win, lost, turn := analyzeSmallGame(t, i+1, g)
				mu.Lock()
				defer mu.Unlock()
				bruteWin, bruteLost, turned = bruteWin+win, bruteLost+lost, turned+turn
			})
		}
	})
	if t.Failed() {
		return
	}
	t.Logf("%d games, %d lost on the way; brute force confirmed %d winnable and %d lost points", len(games), turned, bruteWin, bruteLost)
	// Winnable points need no brute force: the line replayed from the
	// last winnable one proves it, and the points before it follow.
	if bruteLost == 0 || turned == 0 {
		t.Fatalf("want %d games, some lost on the way, and losses confirmed by brute force", len(games))
	}
}

var update = flag.Bool("update", false, "find the games of testdata/small-games.json again")

const smallGamesFile = "testdata/small-games.json"

// storedGame is a game of smallGamesFile: its options, the layout it
// starts from and the moves played, in play notation.
type storedGame struct {
	Spider     bool     `json:"spider"`
	AutoRemove bool     `json:"autoRemove"`
	Layout     string   `json:"layout"`
	Moves      []string `json:"moves"`
}

// smallGames returns the want games of smallGamesFile, after finding
// them again with findSmallGames under -update.
func smallGames(tb testing.TB, want int) []*spider.Game {
	tb.Helper()
	if *update {
		var stored []storedGame
		for _, g := range findSmallGames(tb, want) {
			o, start := g.Options(), g.Start()
			s := storedGame{Spider: o.Variant == spider.Spider, AutoRemove: o.AutoRemove, Layout: start.FormatLayout()}
			for _, m := range g.History()[:g.MovesPlayed()] {
				s.Moves = append(s.Moves, m.String())
			}
			stored = append(stored, s)
		}
		b, err := json.MarshalIndent(stored, "", "  ")
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(smallGamesFile, append(b, '\n'), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	b, err := os.ReadFile(smallGamesFile)
	if err != nil {
		tb.Fatal(err)
	}
	var stored []storedGame
	if err := json.Unmarshal(b, &stored); err != nil {
		tb.Fatalf("%s: %v", smallGamesFile, err)
	}
	if len(stored) != want {
		tb.Fatalf("%s holds %d games, want %d (-update finds them again)", smallGamesFile, len(stored), want)
	}
	games := make([]*spider.Game, len(stored))
	for i, s := range stored {
		o := spider.Options{Suits: 4, AutoRemove: s.AutoRemove}
		if s.Spider {
			o.Variant = spider.Spider
		}
		g, err := spider.NewGameAt(layout(tb, s.Layout, 4), o)
		if err != nil {
			tb.Fatalf("game %d: %v", i+1, err)
		}
		for j, text := range s.Moves {
			m, err := spider.ParseMove(text)
			if err == nil {
				err = g.Play(m)
			}
			if err != nil {
				tb.Fatalf("game %d move %d %q: %v", i+1, j+1, text, err)
			}
		}
		games[i] = g
	}
	return games
}

// findSmallGames finds want games for TestLongAnalyzeSmallGames. They
// come from one generator, in turn, so the same games every time.
func findSmallGames(tb testing.TB, want int) []*spider.Game {
	tb.Helper()
	r := rand.New(rand.NewPCG(24, 24))
	opts := []spider.Options{{Suits: 4}, {Suits: 4, Variant: spider.Spider, AutoRemove: true}}
	var games []*spider.Game
	tries := 0
	for len(games) < want && tries < 200*want {
		tries++
		o := opts[len(games)%len(opts)]
		stock := len(games)%3 != 0
		if g, ok := smallGame(tb, r, o, stock); ok {
			games = append(games, g)
		}
	}
	if len(games) < want {
		tb.Fatalf("%d games in %d tries, want %d", len(games), tries, want)
	}
	tb.Logf("%d games in %d tries", len(games), tries)
	return games
}

// analyzeSmallGame checks game number found of TestLongAnalyzeSmallGames: it
// returns the points brute force confirmed winnable and lost, and 1 if
// the game threw its win away.
func analyzeSmallGame(t *testing.T, found int, g *spider.Game) (bruteWin, bruteLost, turned int) {
	n := g.MovesPlayed()
	a := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: 2_000_000}})
	if !a.Complete() {
		t.Fatalf("game %d (%d moves): not complete: %+v", found, n, a.Points)
	}
	last := a.LastWinnable
	checkAnalysis(t, a, n, last)
	if a.Solves > logBound(n) {
		t.Errorf("game %d: %d solves for %d points", found, a.Solves, n+1)
	}
	// Brute force at the points that matter: the opening, the last
	// winnable point, the first lost one and the end (every point
	// would take too long: a lost position is searched to its end).
	c := g.Clone()
	for k := n; k >= 0; k-- {
		if k != 0 && k != last && k != last+1 && k != n {
			if err := c.Undo(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		win, ok := bruteWinnable(t, c.Position(), 100_000)
		switch {
		case ok && win != (k <= last):
			t.Fatalf("game %d point %d: brute force says winnable=%v, the analysis %s", found, k, win, a.Points[k].Verdict)
		case ok && win:
			bruteWin++
		case ok:
			bruteLost++
		}
		if k > 0 {
			if err := c.Undo(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if last >= 0 && last < n {
		turned = 1
	}
	if last >= 0 {
		replayLine(t, g, last, a.Line)
	}
	if g.Options().AutoRemove {
		for _, m := range a.Line {
			if m.Kind == spider.Remove {
				t.Fatalf("game %d: a removal in the line of an auto-remove game", found)
			}
		}
	}
	return bruteWin, bruteLost, turned
}

// TestAnalyzeWonGame: a won game is decided by one solve of its end.
func TestAnalyzeWonGame(t *testing.T) {
	p := layout(t, needSplit, 1)
	r := Solve(context.Background(), p, Limits{Nodes: 1_000_000})
	g, err := spider.NewGameAt(p, spider.Options{Suits: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.Moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	a := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: 1_000_000}})
	if a.Solves != 1 || a.LastWinnable != len(r.Moves) || len(a.Line) != 0 || !a.Complete() {
		t.Fatalf("%d solves, last winnable %d of %d, line %v", a.Solves, a.LastWinnable, len(r.Moves), a.Line)
	}
	for _, pt := range a.Points[:len(a.Points)-1] {
		if pt.Verdict != Winnable || pt.Basis != Implied {
			t.Fatalf("point %d: %s by %s, want winnable, implied", pt.Move, pt.Verdict, pt.Basis)
		}
	}
}

// TestAnalyzeWinnableEnd: a game abandoned with its stock dealt and its
// end still winnable, on a position whose win the loss prover does not
// find within its share (spaces and free cards make a large space to
// search depth-first): the end is decided in one solve all the same (the
// solver takes the rest of the limit), and the line wins from it.
func TestAnalyzeWinnableEnd(t *testing.T) {
	// One of randomSmall's positions: the solver wins it in 2 000 nodes.
	const open = `pile1: |QC |6C |3D |10C 8C
pile2: AD
pile3: |7C 10D
pile4: |9D 2C
pile5: 7D
pile6: |5D |KD |8D 5C
pile7: QD JC
pile8: KC 3C 4D
pile9: |4C 9C
pile10: |2D |JD |6D AC
completed: S H D C S H
`
	p := layout(t, open, 4)
	lim := Limits{Nodes: 1_000_000}
	if r := prove(context.Background(), p, Limits{Nodes: lim.Nodes / endShare}, nil); r.Status != Unknown {
		t.Fatalf("the prover decides the position (%s): the test needs one it does not", r.Status)
	}
	g, err := spider.NewGameAt(p, spider.Options{Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	a := Analyze(context.Background(), g, AnalyzeLimits{Position: lim})
	if a.Solves != 1 || a.LastWinnable != 0 || !a.Exact() {
		t.Fatalf("%d solves, last winnable %d, exact %v; want 1 solve, winnable", a.Solves, a.LastWinnable, a.Exact())
	}
	replayLine(t, g, 0, a.Line)
}

// TestAnalyzeDealtGame: a 1-suit deal played by PlayGreedy; the analysis
// takes about log2 of its moves in solves, and its line wins from its
// point.
func TestAnalyzeDealtGame(t *testing.T) {
	for _, deal := range []uint64{1, 2} {
		g, err := spider.NewGame(deal, spider.Options{Suits: 1})
		if err != nil {
			t.Fatal(err)
		}
		PlayGreedy(g, 2000)
		a := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: 1_000_000}, Total: Limits{Nodes: 40_000_000}})
		t.Logf("deal %d: %d moves, won %v, last winnable %d, first lost %d, %d solves", deal, a.Moves, g.Won(), a.LastWinnable, a.FirstLost(), a.Solves)
		if a.LastWinnable < 0 {
			t.Fatalf("deal %d: nothing winnable", deal)
		}
		if a.Solves > 2*logBound(a.Moves) {
			t.Errorf("%d solves for %d points", a.Solves, a.Moves+1)
		}
		replayLine(t, g, a.LastWinnable, a.Line)
	}
}

// TestLongAnalyzeFourSuitGames analyses lost 4-suit games of PlayGreedy:
// few solves for their length, something proven winnable, and lines that
// win from their point.
func TestLongAnalyzeFourSuitGames(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	t.Parallel()
	for _, deal := range []uint64{1, 11} {
		g, err := spider.NewGame(deal, spider.Options{Suits: 4})
		if err != nil {
			t.Fatal(err)
		}
		PlayGreedy(g, 2000)
		if g.Won() {
			t.Fatalf("deal %d: the greedy player won", deal)
		}
		a := Analyze(context.Background(), g, AnalyzeLimits{Position: Limits{Nodes: 1_000_000}, Total: Limits{Nodes: 40_000_000}})
		t.Logf("deal %d: %d moves, last winnable %d, first lost %d, %d solves, %d nodes", deal, a.Moves, a.LastWinnable, a.FirstLost(), a.Solves, a.Nodes)
		if a.LastWinnable < 0 || a.LastWinnable >= a.Moves {
			t.Fatalf("deal %d: last winnable %d of %d moves", deal, a.LastWinnable, a.Moves)
		}
		if bound := (1 + a.Rounds) * 2 * logBound(a.Moves); a.Solves > bound {
			t.Errorf("deal %d: %d solves for %d points, want at most %d", deal, a.Solves, a.Moves+1, bound)
		}
		replayLine(t, g, a.LastWinnable, a.Line)
	}
}
