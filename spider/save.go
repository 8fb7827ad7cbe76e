package spider

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"cardtable/card"
	"cardtable/internal/ascii"
)

// SaveHeader is the first line of every save file; the number is the format
// version.
const SaveHeader = "cardtable spider 1"

// Save writes the game in the save format (docs/formats.md):
//
//	cardtable spider 1
//	variant: arachnid          arachnid or spider
//	suits: 4                   1, 2 or 4
//	open: no                   yes or no
//	relaxed: no
//	autoremove: no
//	cheat: none                none, newcards or full
//	deal: 617                  or, for a custom position, its layout lines
//	cheated: no                Arachnid cheat detection has fired
//	stopped: no                Spider scoring stopped: no, or the frozen score
//	actions: 5                 optional: actions for the Windows score, when not the position
//	position: 2                moves played; the moves after it can be redone
//	moves: 2                   how many move lines follow (catches a cut file)
//	move 3 7 2
//	deal
//
// The moves are the player's steps; removals made by auto-remove are not
// written, as replaying with the same option makes them again. A file
// written by hand may leave out the count after "moves:".
func (g *Game) Save() string {
	var b strings.Builder
	yn := func(v bool) string {
		if v {
			return "yes"
		}
		return "no"
	}
	fmt.Fprintln(&b, SaveHeader)
	fmt.Fprintf(&b, "variant: %s\nsuits: %d\nopen: %s\nrelaxed: %s\nautoremove: %s\ncheat: %s\n",
		g.opts.Variant, g.opts.Suits, yn(g.opts.Open), yn(g.opts.Relaxed), yn(g.opts.AutoRemove), g.opts.Cheat)
	if g.deal != 0 {
		fmt.Fprintf(&b, "deal: %d\n", g.deal)
	} else {
		b.WriteString(g.start.FormatLayout())
	}
	fmt.Fprintf(&b, "cheated: %s\n", yn(g.cheated))
	if g.stopped {
		fmt.Fprintf(&b, "stopped: %d\n", g.stopAt)
	} else {
		b.WriteString("stopped: no\n")
	}
	if g.actions != g.cursor {
		fmt.Fprintf(&b, "actions: %d\n", g.actions)
	}
	fmt.Fprintf(&b, "position: %d\nmoves: %d\n", g.cursor, len(g.steps))
	for _, s := range g.steps {
		b.WriteString(s.m.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// MaxSaveLine is the longest line Load accepts, in bytes (without the line
// ending). A real line is at most a few hundred bytes (a layout line);
// the bound is the same as for terminal input (docs/formats.md, "Line
// length").
const MaxSaveLine = 64 << 10

// Load reads a save file, replaying and checking every move. Any error names
// the line; the caller's current game is never touched.
//
// It reads in steps: the header line, then the key lines, layout lines and
// move lines (readSaveBody), then the checks only the whole file allows
// (complete), then builds the game and replays its moves (startGame,
// replay). Nothing is built before the whole file has been read, so a
// refused file costs no game.
func Load(text string) (*Game, error) {
	// A UTF-8 byte-order mark, which some editors put first (Windows
	// Notepad's "UTF-8 with BOM"), is no part of the text: the page's
	// file reader drops it too, so every way of loading agrees.
	text = strings.TrimPrefix(text, "\ufeff")
	r := &saveLines{rest: text}
	if err := readSaveHeader(r); err != nil {
		return nil, err
	}
	f, err := readSaveBody(r)
	if err != nil {
		return nil, err
	}
	// Errors found only at the end name the line after the last one read.
	eof := r.ln + 1
	if err := f.complete(eof); err != nil {
		return nil, err
	}
	g, err := f.startGame(eof)
	if err != nil {
		return nil, err
	}
	return f.replay(g)
}

// saveLines hands out a save file's lines with content, one at a time,
// skipping blank lines and comments but counting them, so that errors name
// the line in the file.
type saveLines struct {
	rest string // the text not yet read
	ln   int    // the number of the last line read, from 1
	long bool   // line ln is over MaxSaveLine: reading stops there
}

// next is the next line with content, trimmed, or false at the end of the
// text or at a line over MaxSaveLine (then long is set). The limit is
// checked before trimming, so a long run of spaces is refused too.
func (r *saveLines) next() (string, bool) {
	for r.rest != "" && !r.long {
		var s string
		s, r.rest, _ = strings.Cut(r.rest, "\n")
		r.ln++
		if len(strings.TrimSuffix(s, "\r")) > MaxSaveLine {
			r.long = true
			break
		}
		s = strings.TrimSpace(s)
		if s != "" && !strings.HasPrefix(s, "#") {
			return s, true
		}
	}
	return "", false
}

// tooLong is the error for the line over MaxSaveLine that stopped reading.
func (r *saveLines) tooLong() error {
	return lineErr(r.ln, "longer than %d bytes, the limit", MaxSaveLine)
}

// readSaveHeader reads the first line with content, which must be
// SaveHeader; another version is named as such, so that an old program
// says it is too old rather than that the file is not a save.
func readSaveHeader(r *saveLines) error {
	first, ok := r.next()
	if !ok {
		if r.long {
			return r.tooLong()
		}
		return fmt.Errorf("%w: empty file", ErrFormat)
	}
	if first != SaveHeader {
		if strings.HasPrefix(first, "cardtable spider ") {
			return lineErr(r.ln, "unsupported save version %q (this program reads %q)", first, SaveHeader)
		}
		return lineErr(r.ln, "not a cardtable Spider save (want %q)", SaveHeader)
	}
	return nil
}

// saveFields is what a save's lines say, as read, before any game is built.
// The -1s mean "not given"; the line numbers are kept for errors found
// later, when the game is built or replayed.
type saveFields struct {
	o        Options
	deal     uint64
	layout   []string // layout lines, one per file line from layoutAt ("" between)
	layoutAt int
	cheated  bool
	stopped  int    // the frozen Spider score, or -1
	stopLine string // the "stopped:" line as written, for its error
	stopAt   int
	actions  int // the Windows action count, or -1
	position int // moves played, or -1 for all of them
	posLine  int
	count    int // the count after "moves:", or -1 when left out
	countAt  int
	seen     map[string]bool // keys given, to refuse one given twice
	inMoves  bool            // past the "moves:" line: every line is a move
	moves    []Move
	moveLine []int // the file line of each move
}

// readSaveBody reads every line after the header. Until the "moves:" line
// a line is a key line or a layout line; after it, every line is a move.
func readSaveBody(r *saveLines) (*saveFields, error) {
	f := &saveFields{stopped: -1, actions: -1, position: -1, count: -1, seen: map[string]bool{}}
	for {
		line, ok := r.next()
		if !ok {
			break
		}
		var err error
		switch {
		case f.inMoves:
			err = f.addMove(line, r.ln)
		case isMovesLine(line):
			err = f.startMoves(line, r.ln)
		default:
			err = f.addKeyLine(line, r.ln)
		}
		if err != nil {
			return nil, err
		}
	}
	if r.long {
		return nil, r.tooLong()
	}
	return f, nil
}

// addMove reads one move line; the move is checked against the position
// only in replay, once the game is built.
func (f *saveFields) addMove(line string, ln int) error {
	if len(f.moves) >= MaxSteps {
		return lineErr(ln, "more than %d moves", MaxSteps)
	}
	m, err := ParseMove(line)
	if err != nil {
		return lineErr(ln, "%v", err)
	}
	f.moves = append(f.moves, m)
	f.moveLine = append(f.moveLine, ln)
	return nil
}

// isMovesLine reports whether line is the "moves:" line, its key written
// in any case and spaced as any other key ("Moves:3" too), as a person
// editing the file may write it.
func isMovesLine(line string) bool {
	key, _, ok := strings.Cut(line, ":")
	return ok && ascii.Lower(strings.TrimSpace(key)) == "moves"
}

// startMoves reads the "moves:" line and its count, if given: the count
// lets complete tell a file cut short at a line end from a whole one.
func (f *saveFields) startMoves(line string, ln int) error {
	f.inMoves, f.countAt = true, ln
	_, v, _ := strings.Cut(line, ":")
	if v = strings.TrimSpace(v); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > MaxSteps {
			return lineErr(ln, "moves: want the number of move lines, got %q", v)
		}
		f.count = n
	}
	return nil
}

// addKeyLine reads a "key: value" line before the moves: a layout line
// (pileK:, rowK:, completed:) is kept for parseLayout, any other key is a
// setting.
func (f *saveFields) addKeyLine(line string, ln int) error {
	key, val, ok := strings.Cut(line, ":")
	if !ok {
		if _, err := ParseMove(line); err == nil {
			// A move where the keys are: the "moves:" line is missing,
			// and saying so is what gets the file read.
			return lineErr(ln, "%q is a move, but moves come after a \"moves:\" line: put one above the first move", line)
		}
		return lineErr(ln, "want key: value, got %q", line)
	}
	key, val = ascii.Lower(strings.TrimSpace(key)), strings.TrimSpace(val)
	if strings.HasPrefix(key, "pile") || strings.HasPrefix(key, "row") || key == "completed" {
		f.addLayoutLine(line, ln)
		return nil
	}
	if key == "stopped" {
		f.stopLine, f.stopAt = strings.TrimSpace(line), ln
	}
	return f.setKey(key, val, ln)
}

// addLayoutLine keeps a layout line at its offset from the first one, with
// "" for the file lines between, so that parseLayout's errors name the
// line in the save file.
func (f *saveFields) addLayoutLine(line string, ln int) {
	if f.layout == nil {
		f.layoutAt = ln
	}
	for len(f.layout) < ln-f.layoutAt {
		f.layout = append(f.layout, "")
	}
	f.layout = append(f.layout, line)
}

// setKey reads one setting; each may be given once. Its value is read
// in any case, as its key is ("Variant: Arachnid", "open: No"): a file
// edited by hand means the same thing either way. An error quotes the
// value as the file writes it.
func (f *saveFields) setKey(key, val string, ln int) error {
	if f.seen[key] {
		return lineErr(ln, "%s given twice", key)
	}
	f.seen[key] = true
	var err error
	switch key {
	case "variant":
		f.o.Variant, err = ParseVariant(val)
	case "suits":
		f.o.Suits, err = atoi(val)
		if err == nil {
			err = card.CheckSuits(f.o.Suits)
		}
	case "open":
		f.o.Open, err = parseYesNo(val)
	case "relaxed":
		f.o.Relaxed, err = parseYesNo(val)
	case "autoremove":
		f.o.AutoRemove, err = parseYesNo(val)
	case "cheat":
		f.o.Cheat, err = ParseCheatLevel(val)
	case "deal":
		f.deal, err = card.ParseDeal(val)
	case "cheated":
		f.cheated, err = parseYesNo(val)
	case "stopped":
		if ascii.Lower(val) != "no" {
			f.stopped, err = atoi(val)
			if err == nil && (f.stopped < 0 || f.stopped > 1000) {
				err = fmt.Errorf("score %d out of range", f.stopped)
			}
		}
	case "actions":
		f.actions, err = atoi(val)
		if err == nil && (f.actions < 0 || f.actions > MaxActions) {
			err = fmt.Errorf("%d out of range (0 to %d)", f.actions, MaxActions)
		}
	case "position":
		f.position, err = atoi(val)
		f.posLine = ln
		if err == nil && f.position < 0 {
			err = fmt.Errorf("negative position")
		}
	default:
		return lineErr(ln, "unknown key %q", key)
	}
	if err != nil {
		return lineErr(ln, "%s: %v", key, err)
	}
	return nil
}

// atoi reads a setting's number. Its error says what is wrong in plain
// words (`"x" is not a whole number`), for a person editing the file, not
// strconv's; it wraps strconv's error, for errors.Is and errors.As.
func atoi(val string) (int, error) {
	n, err := strconv.Atoi(val)
	if err != nil {
		return n, &numberError{val, err}
	}
	return n, nil
}

// numberError is atoi's error.
type numberError struct {
	val string
	err error // strconv's
}

func (e *numberError) Error() string {
	if errors.Is(e.err, strconv.ErrRange) {
		return fmt.Sprintf("%q is too large a number", e.val)
	}
	return fmt.Sprintf("%q is not a whole number", e.val)
}

func (e *numberError) Unwrap() error { return e.err }

// parseYesNo reads a yes/no setting; Save writes yes and no, and true and
// false are taken too for files written by hand.
func parseYesNo(v string) (bool, error) {
	switch ascii.Lower(v) {
	case "yes", "true":
		return true, nil
	case "no", "false":
		return false, nil
	}
	return false, fmt.Errorf("want yes or no, got %q", v)
}

// complete checks what only the whole file can tell: the required lines
// are there, the move count matches (a file cut at a line end) and the
// settings agree. eof is the line after the last one read.
func (f *saveFields) complete(eof int) error {
	for _, k := range []string{"variant", "suits"} {
		if !f.seen[k] {
			return lineErr(eof, "end of file: missing \"%s:\" line", k)
		}
	}
	if !f.inMoves {
		return lineErr(eof, "end of file: missing \"moves:\" line (the file may be cut short)")
	}
	if f.count >= 0 && f.count < len(f.moves) {
		// More lines than the count: not a file cut short, but one
		// edited by hand; say how to put it right. A position at the old
		// count (as every written save has) would load the added moves
		// as undone, so it needs changing too.
		fix := fmt.Sprintf("make it \"moves: %d\" (or \"moves:\" alone)", len(f.moves))
		if f.position == f.count {
			fix += fmt.Sprintf(", and line %d \"position: %d\" (or remove that line) so that they are played", f.posLine, len(f.moves))
		}
		return lineErr(eof, "end of file: %s, but line %d says %d: if every move line is meant, %s",
			plural(len(f.moves), "move line"), f.countAt, f.count, fix)
	}
	if f.count >= 0 && f.count != len(f.moves) {
		return lineErr(eof, "end of file: %s, but line %d says %d (the file may be cut short)", plural(len(f.moves), "move line"), f.countAt, f.count)
	}
	if f.stopped >= 0 && f.o.Variant != Spider {
		return lineErr(f.stopAt, "%q: a frozen score applies only to the spider variant", f.stopLine)
	}
	if f.o.Variant == Spider {
		// Spider has no cheat detection (its scoring stops instead): a
		// halving mark there would only mislead, so it is read as no, as
		// "cheat:" is (Options). Refusing it would lose files stored
		// before: it was once kept.
		f.cheated = false
	}
	return nil
}

// startGame builds the game at its start, from the deal number or the
// layout (exactly one of them). A layout error that names no line of its
// own (a missing pile, a wrong card count) is put on the layout's first
// line.
func (f *saveFields) startGame(eof int) (*Game, error) {
	var g *Game
	var err error
	switch {
	case f.deal != 0 && f.layout != nil:
		return nil, fmt.Errorf("%w: line %d: a save has a deal number or a layout, not both", ErrFormat, f.layoutAt)
	case f.deal != 0:
		g, err = NewGame(f.deal, f.o)
	case f.layout != nil:
		var p *Position
		p, err = parseLayout(f.layout, f.layoutAt, Rules{Suits: f.o.Suits, Relaxed: f.o.Relaxed})
		if err == nil {
			g, err = NewGameAt(p, f.o)
		}
	default:
		return nil, lineErr(eof, "end of file: missing \"deal:\" line or layout")
	}
	if err != nil {
		if f.layout != nil && !strings.Contains(err.Error(), "line ") {
			return nil, lineErr(f.layoutAt, "layout: %v", err)
		}
		return nil, err
	}
	return g, nil
}

// replay plays every move on g, checking each, then undoes back to the
// saved position, so that the moves after it can be redone; last it sets
// the counters the file gives.
func (f *saveFields) replay(g *Game) (*Game, error) {
	position := f.position
	if position < 0 {
		position = len(f.moves)
	}
	if position > len(f.moves) {
		return nil, lineErr(f.posLine, "position %d is past the %s", position, plural(len(f.moves), "move"))
	}
	g.steps = make([]step, 0, len(f.moves))
	for i, m := range f.moves {
		if err := g.pos.CheckMove(m); err != nil {
			return nil, lineErr(f.moveLine[i], "%s: %v", m, err)
		}
		g.steps = append(g.steps, g.do(m))
		g.cursor++
	}
	for g.cursor > position {
		g.undoStep(g.steps[g.cursor-1])
		g.cursor--
	}
	g.cheated = f.cheated
	g.actions = g.cursor
	if f.actions >= 0 {
		g.actions = f.actions
	}
	if f.stopped >= 0 {
		g.stopped, g.stopAt = true, f.stopped
	}
	return g, nil
}
