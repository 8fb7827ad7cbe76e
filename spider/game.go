package spider

import (
	"errors"
	"fmt"
	"unsafe"

	"cardtable/card"
	"cardtable/internal/ascii"
)

// CheatLevel is the Amiga help's undo cheat detection for Arachnid.
type CheatLevel uint8

// Cheat detection levels.
const (
	// CheatNone: any undo is safe.
	CheatNone CheatLevel = iota
	// CheatNewCards: undoing a move that revealed a new card is cheating.
	CheatNewCards
	// CheatFull: any undo is cheating.
	CheatFull
)

func (c CheatLevel) String() string {
	switch c {
	case CheatNewCards:
		return "newcards"
	case CheatFull:
		return "full"
	}
	return "none"
}

// ParseCheatLevel reads "none", "newcards" or "full", in any case.
func ParseCheatLevel(s string) (CheatLevel, error) {
	switch ascii.Lower(s) {
	case "none", "":
		return CheatNone, nil
	case "newcards", "new", "new-cards":
		return CheatNewCards, nil
	case "full":
		return CheatFull, nil
	}
	return 0, fmt.Errorf("%w: cheat level must be none, newcards or full, not %q", ErrFormat, s)
}

// Options are a game's settings.
type Options struct {
	Variant Variant
	// Suits is 1, 2 or 4 (0 means 4).
	Suits int
	// Open shows every tableau card (Spider Help, "Variations"). The cards
	// that would be face down stay covered for play and scoring.
	Open bool
	// Relaxed allows dealing a row while a space exists.
	Relaxed bool
	// AutoRemove removes a completed suit as soon as it forms, instead of
	// waiting for the player.
	AutoRemove bool
	// Cheat is the Arachnid cheat detection level (ignored by Spider, whose
	// scoring simply stops at the first undo).
	Cheat CheatLevel
}

func (o Options) rules() Rules { return Rules{Suits: o.Suits, Relaxed: o.Relaxed} }

func (o *Options) normalize() error {
	if o.Suits == 0 {
		o.Suits = 4
	}
	if err := card.CheckSuits(o.Suits); err != nil {
		return err
	}
	if o.Variant > Spider {
		return fmt.Errorf("%w: unknown variant", ErrFormat)
	}
	if o.Cheat > CheatFull {
		return fmt.Errorf("%w: unknown cheat level", ErrFormat)
	}
	if o.Variant == Spider {
		// Spider stops scoring at the first undo instead (Spider Help, "Scoring");
		// a cheat level there would only mislead.
		o.Cheat = CheatNone
	}
	return nil
}

// step is one player action: a move, and the removals auto-remove made
// after it. Undo and redo take a step at a time.
type step struct {
	m       Move
	u       Undo
	autos   []Undo // one per automatic removal, from pile autoPile[i]
	autoK   []uint8
	reveals bool // it showed the player a card not seen before
}

// Game is a game being played: the starting position, the moves, undo and
// redo, and the scoring state. Its zero value is not usable; use NewGame or
// NewGameAt.
type Game struct {
	opts    Options
	deal    uint64 // 0 for a custom position
	start   Position
	pos     Position
	steps   []step
	cursor  int  // steps[:cursor] are played; the rest can be redone
	cheated bool // Arachnid: cheating detected, the score is halved
	stopped bool // Spider: scoring stopped at stoppedAt
	stopAt  int
	// actions counts what the player did, undos included, for the
	// Windows score (WindowsScore); it is not taken back by undo.
	actions int
}

// MaxSteps is the most steps a game holds, played and undone ones together:
// Play refuses a step past it and Load a save with more, so every game the
// engine makes can be saved and loaded back.
const MaxSteps = 100000

// MaxActions is the most actions a game counts (Actions): undo and redo
// can go on without end, and a save must load back (Load refuses more).
// The Windows score is 0 long before it.
const MaxActions = 10 * MaxSteps

// act counts one action, up to MaxActions.
func (g *Game) act() { g.actions = min(g.actions+1, MaxActions) }

// ErrLimit is returned by Play when the game already holds MaxSteps steps.
var ErrLimit = errors.New("game too long")

// ErrNothing is returned by Undo and Redo when there is nothing to take back
// or replay.
var ErrNothing = errors.New("nothing to do")

// NewGame starts deal number n.
func NewGame(n uint64, o Options) (*Game, error) {
	if err := o.normalize(); err != nil {
		return nil, err
	}
	p, err := NewDeal(n, o.Variant, o.rules())
	if err != nil {
		return nil, err
	}
	return &Game{opts: o, deal: n, start: *p, pos: *p}, nil
}

// NewGameAt starts a game from a custom position. Its rules (suits, relaxed)
// follow o.
func NewGameAt(p *Position, o Options) (*Game, error) {
	if err := o.normalize(); err != nil {
		return nil, err
	}
	if p.Suits() != o.Suits {
		return nil, fmt.Errorf("%w: the position has %s, the options %d", ErrFormat, plural(p.Suits(), "suit"), o.Suits)
	}
	q := *p
	q.relaxed = o.Relaxed
	if err := q.Check(); err != nil {
		return nil, err
	}
	return &Game{opts: o, start: q, pos: q}, nil
}

// Options returns the game's settings.
func (g *Game) Options() Options { return g.opts }

// Deal is the deal number, 0 for a custom position.
func (g *Game) Deal() uint64 { return g.deal }

// Position returns a copy of the current position.
func (g *Game) Position() Position { return g.pos }

// Start returns a copy of the starting position.
func (g *Game) Start() Position { return g.start }

// Pos is the current position, read-only: for callers that must not copy.
func (g *Game) Pos() *Position { return &g.pos }

// MovesPlayed is the number of steps played (not counting undone ones).
func (g *Game) MovesPlayed() int { return g.cursor }

// History returns every step's move, including those undone and available
// to redo; the first MovesPlayed of them are played.
func (g *Game) History() []Move {
	out := make([]Move, len(g.steps))
	for i, s := range g.steps {
		out[i] = s.m
	}
	return out
}

// Played returns the moves played from the start, automatic removals
// included, in order: a line that replays the game on a fresh position.
func (g *Game) Played() []Move {
	var out []Move
	for _, s := range g.steps[:g.cursor] {
		out = append(out, s.m)
		for _, k := range s.autoK {
			out = append(out, RemoveFrom(int(k)))
		}
	}
	return out
}

// Steps is the number of steps the game holds: those played and those
// undone that can be redone (the move lines of its save).
func (g *Game) Steps() int { return len(g.steps) }

// Footprint estimates the bytes the game holds in memory, for callers
// that keep many games and bound them by size. It is O(1).
func (g *Game) Footprint() int {
	// Automatic removals add at most one Undo and one pile per completed
	// suit along the line of play: a few bytes, left out.
	return int(unsafe.Sizeof(*g)) + cap(g.steps)*int(unsafe.Sizeof(step{}))
}

// CanUndo and CanRedo report whether Undo and Redo would do anything.
func (g *Game) CanUndo() bool { return g.cursor > 0 }

// CanRedo reports whether an undone step can be replayed.
func (g *Game) CanRedo() bool { return g.cursor < len(g.steps) }

// Play checks m and plays it, or returns why it is illegal (wrapping
// ErrIllegal) and changes nothing. It discards any steps available to redo.
func (g *Game) Play(m Move) error {
	if err := g.pos.CheckMove(m); err != nil {
		return err
	}
	if g.cursor >= MaxSteps {
		return fmt.Errorf("%w: this game has reached %d moves, the most one game can hold; undo or restart to play on, or start a new game",
			ErrLimit, MaxSteps)
	}
	g.steps = append(g.steps[:g.cursor], g.do(m))
	g.cursor++
	g.act()
	return nil
}

// do applies a legal move and the removals auto-remove makes after it.
func (g *Game) do(m Move) step {
	s := step{m: m}
	s.u = g.pos.Do(m)
	s.reveals = m.Kind == Deal || (s.u.Flipped() && !g.opts.Open)
	if g.opts.AutoRemove {
		for {
			k := -1
			for i := range Piles {
				if g.pos.completeAt(i) {
					k = i
					break
				}
			}
			if k < 0 {
				break
			}
			u := g.pos.Do(RemoveFrom(k))
			s.autoK = append(s.autoK, uint8(k))
			s.autos = append(s.autos, u)
			if u.Flipped() && !g.opts.Open {
				s.reveals = true
			}
		}
	}
	return s
}

func (g *Game) undoStep(s step) {
	for i := len(s.autoK) - 1; i >= 0; i-- {
		g.pos.Undo(RemoveFrom(int(s.autoK[i])), s.autos[i])
	}
	g.pos.Undo(s.m, s.u)
}

// Undo takes back the last step. In Arachnid it may count as cheating
// (the cheat level); in Spider it stops scoring.
func (g *Game) Undo() error {
	if g.cursor == 0 {
		return fmt.Errorf("%w: no move to undo", ErrNothing)
	}
	s := g.steps[g.cursor-1]
	g.noteTakeBack(s.reveals)
	g.undoStep(s)
	g.cursor--
	g.act()
	return nil
}

// noteTakeBack applies the scoring consequences of taking back moves, one of
// which revealed new cards if reveals is set.
func (g *Game) noteTakeBack(reveals bool) {
	if g.opts.Variant == Spider {
		g.stopScoring()
		return
	}
	switch g.opts.Cheat {
	case CheatFull:
		g.cheated = true
	case CheatNewCards:
		if reveals {
			g.cheated = true
		}
	}
}

func (g *Game) stopScoring() {
	if !g.stopped {
		g.stopped = true
		g.stopAt = g.Score().Total
	}
}

// Redo replays the last undone step.
func (g *Game) Redo() error {
	if g.cursor == len(g.steps) {
		return fmt.Errorf("%w: no move to redo", ErrNothing)
	}
	g.steps[g.cursor] = g.do(g.steps[g.cursor].m)
	g.cursor++
	g.act()
	return nil
}

// Restart returns to the starting position of the same deal, forgetting the
// moves. Taking back every move counts as undoing them for cheat detection,
// and stops Spider scoring.
func (g *Game) Restart() {
	if g.cursor > 0 {
		reveals := false
		for _, s := range g.steps[:g.cursor] {
			reveals = reveals || s.reveals
		}
		g.noteTakeBack(reveals)
		g.act()
	}
	g.pos = g.start
	g.steps = nil
	g.cursor = 0
}

// Auto plays the auto-move for the bottom n cards of pile k (n = 0: the
// whole movable run) and returns the move made.
func (g *Game) Auto(k, n int) (Move, error) {
	m, err := g.pos.Auto(k, n)
	if err != nil {
		return Move{}, err
	}
	return m, g.Play(m)
}

// GameScore is the score a player sees.
type GameScore struct {
	Score
	// Counted is the score that counts: Total, halved when cheating was
	// detected, or frozen where Spider scoring stopped.
	Counted int  `json:"counted"`
	Cheated bool `json:"cheated"`
	Stopped bool `json:"stopped"`
	// Windows is the familiar Microsoft Spider score (WindowsScore), which
	// the page offers as an option.
	Windows int `json:"windows"`
}

// Actions is how many actions the player made in this game: moves, deals,
// undos, redos and restarts, none taken back, up to MaxActions.
func (g *Game) Actions() int { return g.actions }

// Score is the current score with the game's cheat and scoring state.
func (g *Game) Score() GameScore {
	s := GameScore{Score: g.pos.Score(), Cheated: g.cheated, Stopped: g.stopped}
	s.Windows = WindowsScore(g.actions, s.Complete/50)
	switch {
	case g.stopped:
		s.Counted = g.stopAt
	case g.cheated:
		s.Counted = s.Total / 2
	default:
		s.Counted = s.Total
	}
	return s
}

// Won reports whether the game is won.
func (g *Game) Won() bool { return g.pos.Won() }

// Stuck reports whether no move is left but null ones.
func (g *Game) Stuck() bool { return g.pos.Stuck() }

// Locate lists where copies of c are visible.
func (g *Game) Locate(c card.Card) []Location { return g.pos.Locate(c, g.opts.Open) }

// Column lists the visible cards of pile k.
func (g *Game) Column(k int) []card.Card { return g.pos.Column(k, g.opts.Open) }

// Cheated reports whether Arachnid cheat detection has fired.
func (g *Game) Cheated() bool { return g.cheated }

// ScoringStopped reports whether Spider scoring has stopped.
func (g *Game) ScoringStopped() bool { return g.stopped }

// MarkLoaded records that the game was loaded from a save: Spider stops
// scoring (Spider Help, "Scoring": "discontinued once you choose to ... load").
func (g *Game) MarkLoaded() {
	if g.opts.Variant == Spider {
		g.stopScoring()
	}
}

// Clone returns an independent copy of g (its position, history, undo
// state and scoring), for work such as a hint search that must not touch
// the game being played.
func (g *Game) Clone() *Game {
	c := *g
	c.steps = make([]step, len(g.steps))
	for i, s := range g.steps {
		s.autos = append([]Undo(nil), s.autos...)
		s.autoK = append([]uint8(nil), s.autoK...)
		c.steps[i] = s
	}
	return &c
}

// Outcome is the rule statistics count a game by: over once it is won or
// once no move is left (stuck counts as a loss); won tells which.
func (g *Game) Outcome() (over, won bool) {
	switch {
	case g.Won():
		return true, true
	case g.Stuck():
		return true, false
	}
	return false, false
}
