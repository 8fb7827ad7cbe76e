package spider

import (
	"fmt"
	"strconv"
	"strings"

	"cardtable/card"
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
func Load(text string) (*Game, error) {
	ln := 0
	rest := text
	long := false // line ln is over MaxSaveLine
	next := func() (string, bool) {
		for rest != "" && !long {
			var s string
			s, rest, _ = strings.Cut(rest, "\n")
			ln++
			if len(strings.TrimSuffix(s, "\r")) > MaxSaveLine {
				long = true
				break
			}
			s = strings.TrimSpace(s)
			if s != "" && !strings.HasPrefix(s, "#") {
				return s, true
			}
		}
		return "", false
	}
	tooLong := func() error { return lineErr(ln, "longer than %d bytes, the limit", MaxSaveLine) }
	first, ok := next()
	if !ok {
		if long {
			return nil, tooLong()
		}
		return nil, fmt.Errorf("%w: empty file", ErrFormat)
	}
	if first != SaveHeader {
		if strings.HasPrefix(first, "cardtable spider ") {
			return nil, lineErr(ln, "unsupported save version %q (this program reads %q)", first, SaveHeader)
		}
		return nil, lineErr(ln, "not a cardtable Spider save (want %q)", SaveHeader)
	}
	var (
		o        Options
		deal     uint64
		layout   []string
		layoutAt int
		cheated  bool
		stopped  = -1
		actions  = -1
		position = -1
		posLine  int
		count    = -1
		countAt  int
		seen     = map[string]bool{}
		inMoves  bool
		moves    []Move
		moveLine []int
	)
	yesNo := func(v string) (bool, error) {
		switch v {
		case "yes", "true":
			return true, nil
		case "no", "false":
			return false, nil
		}
		return false, fmt.Errorf("want yes or no, got %q", v)
	}
	for {
		line, ok := next()
		if !ok {
			break
		}
		if inMoves {
			if len(moves) >= MaxSteps {
				return nil, lineErr(ln, "more than %d moves", MaxSteps)
			}
			m, err := ParseMove(line)
			if err != nil {
				return nil, lineErr(ln, "%v", err)
			}
			moves = append(moves, m)
			moveLine = append(moveLine, ln)
			continue
		}
		if line == "moves:" || strings.HasPrefix(line, "moves: ") {
			inMoves, countAt = true, ln
			if v := strings.TrimSpace(strings.TrimPrefix(line, "moves:")); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 || n > MaxSteps {
					return nil, lineErr(ln, "moves: want the number of move lines, got %q", v)
				}
				count = n
			}
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, lineErr(ln, "want key: value, got %q", line)
		}
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		if strings.HasPrefix(key, "pile") || strings.HasPrefix(key, "row") || key == "completed" {
			if layout == nil {
				layoutAt = ln
			}
			for len(layout) < ln-layoutAt {
				layout = append(layout, "")
			}
			layout = append(layout, line)
			continue
		}
		if seen[key] {
			return nil, lineErr(ln, "%s given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "variant":
			o.Variant, err = ParseVariant(val)
		case "suits":
			o.Suits, err = strconv.Atoi(val)
			if err == nil {
				err = card.CheckSuits(o.Suits)
			}
		case "open":
			o.Open, err = yesNo(val)
		case "relaxed":
			o.Relaxed, err = yesNo(val)
		case "autoremove":
			o.AutoRemove, err = yesNo(val)
		case "cheat":
			o.Cheat, err = ParseCheatLevel(val)
		case "deal":
			deal, err = card.ParseDeal(val)
		case "cheated":
			cheated, err = yesNo(val)
		case "stopped":
			if val != "no" {
				stopped, err = strconv.Atoi(val)
				if err == nil && (stopped < 0 || stopped > 1000) {
					err = fmt.Errorf("score %d out of range", stopped)
				}
			}
		case "actions":
			actions, err = strconv.Atoi(val)
			if err == nil && (actions < 0 || actions > MaxActions) {
				err = fmt.Errorf("%d out of range (0 to %d)", actions, MaxActions)
			}
		case "position":
			position, err = strconv.Atoi(val)
			posLine = ln
			if err == nil && position < 0 {
				err = fmt.Errorf("negative position")
			}
		default:
			return nil, lineErr(ln, "unknown key %q", key)
		}
		if err != nil {
			return nil, lineErr(ln, "%s: %v", key, err)
		}
	}
	if long {
		return nil, tooLong()
	}
	// Errors found only at the end name the line after the last one read.
	eof := ln + 1
	for _, k := range []string{"variant", "suits"} {
		if !seen[k] {
			return nil, lineErr(eof, "end of file: missing \"%s:\" line", k)
		}
	}
	if !inMoves {
		return nil, lineErr(eof, "end of file: missing \"moves:\" line (the file may be cut short)")
	}
	if count >= 0 && count != len(moves) {
		return nil, lineErr(eof, "end of file: %s, but line %d says %d (the file may be cut short)", plural(len(moves), "move line"), countAt, count)
	}
	if stopped >= 0 && o.Variant != Spider {
		return nil, fmt.Errorf("%w: \"stopped:\" applies only to the spider variant", ErrFormat)
	}
	var g *Game
	var err error
	switch {
	case deal != 0 && layout != nil:
		return nil, fmt.Errorf("%w: line %d: a save has a deal number or a layout, not both", ErrFormat, layoutAt)
	case deal != 0:
		g, err = NewGame(deal, o)
	case layout != nil:
		var p *Position
		p, err = parseLayout(layout, layoutAt, Rules{Suits: o.Suits, Relaxed: o.Relaxed})
		if err == nil {
			g, err = NewGameAt(p, o)
		}
	default:
		return nil, lineErr(eof, "end of file: missing \"deal:\" line or layout")
	}
	if err != nil {
		if layout != nil && !strings.Contains(err.Error(), "line ") {
			return nil, lineErr(layoutAt, "layout: %v", err)
		}
		return nil, err
	}
	if position < 0 {
		position = len(moves)
	}
	if position > len(moves) {
		return nil, lineErr(posLine, "position %d is past the %s", position, plural(len(moves), "move"))
	}
	g.steps = make([]step, 0, len(moves))
	for i, m := range moves {
		if err := g.pos.CheckMove(m); err != nil {
			return nil, lineErr(moveLine[i], "%s: %v", m, err)
		}
		g.steps = append(g.steps, g.do(m))
		g.cursor++
	}
	for g.cursor > position {
		g.undoStep(g.steps[g.cursor-1])
		g.cursor--
	}
	g.cheated = cheated
	g.actions = g.cursor
	if actions >= 0 {
		g.actions = actions
	}
	if stopped >= 0 {
		g.stopped, g.stopAt = true, stopped
	}
	return g, nil
}
