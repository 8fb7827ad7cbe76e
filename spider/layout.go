package spider

import (
	"fmt"
	"strconv"
	"strings"

	"cardtable/card"
	"cardtable/internal/ascii"
)

// Layout format (that of the golden layouts in docs/deals.md, plus completed
// suits), one line each, in any order:
//
//	pile1: |3D |AS |KD |7D |3S 8H     pile 1 from underneath; '|' marks face down
//	...                               all ten piles, an empty pile as "pile7:"
//	row1: QH 9S 2S QH 3C AS 4S KS 6D TD   rows still in the stock, row1 dealt next
//	completed: S H                    suits already removed (optional)
//
// Blank lines and lines starting with '#' are ignored.

// FormatLayout writes the whole position, hidden cards included.
func (p *Position) FormatLayout() string {
	var b strings.Builder
	for k := range p.piles {
		pl := &p.piles[k]
		fmt.Fprintf(&b, "pile%d:", k+1)
		for j := range int(pl.n) {
			b.WriteByte(' ')
			if j < int(pl.down) {
				b.WriteByte('|')
			}
			b.WriteString(pl.cards[j].String())
		}
		b.WriteByte('\n')
	}
	st := p.Stock(nil)
	for r := 0; r*10 < len(st); r++ {
		fmt.Fprintf(&b, "row%d: %s\n", r+1, card.Format(st[r*10:r*10+10]))
	}
	if p.nRemoved > 0 {
		b.WriteString("completed:")
		for _, s := range p.removed[:p.nRemoved] {
			b.WriteString(" " + s.String())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseLayout reads a position in the layout format. A leading UTF-8
// byte-order mark is dropped, as Load drops it from a save.
func ParseLayout(text string, r Rules) (*Position, error) {
	return parseLayout(strings.Split(strings.TrimPrefix(text, "\ufeff"), "\n"), 1, r)
}

// parseLayout reads layout lines; first is the line number of lines[0], for
// error messages. Each line is read on its own (pile, row or completed
// suits), then the whole is checked: every pile given, no stock row
// missing, and the right cards (Check).
func parseLayout(lines []string, first int, r Rules) (*Position, error) {
	if err := card.CheckSuits(r.Suits); err != nil {
		return nil, err
	}
	lp := &layoutParse{p: &Position{suits: uint8(r.Suits), relaxed: r.Relaxed}, rowLine: map[int]int{}}
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := lp.readLine(first+i, line); err != nil {
			return nil, err
		}
	}
	return lp.finish()
}

// layoutParse is a layout being read: the position so far and what is
// needed to check the whole once every line is in.
type layoutParse struct {
	p       *Position
	seen    [Piles]bool   // piles given
	rows    [][]card.Card // stock rows by number, nil for one not (yet) given
	rowLine map[int]int   // the line of each row given, to refuse a second
}

// readLine reads one layout line, ln being its number.
func (lp *layoutParse) readLine(ln int, line string) error {
	key, val, ok := strings.Cut(line, ":")
	if !ok {
		return lineErr(ln, "want pileK:, rowK: or completed:, got %q", line)
	}
	key = strings.TrimSpace(ascii.Lower(key))
	switch {
	case strings.HasPrefix(key, "pile"):
		return lp.readPile(ln, key, val)
	case strings.HasPrefix(key, "row"):
		return lp.readRow(ln, key, val)
	case key == "completed":
		return lp.readCompleted(ln, val)
	}
	return lineErr(ln, "unknown line %q: want pileK:, rowK: or completed:", key)
}

// readPile reads "pileK: cards", underneath first, '|' marking a face-down
// card. Face-down cards come first and at least one card is face up, as in
// play: a pile's top card is always turned.
func (lp *layoutParse) readPile(ln int, key, val string) error {
	k, err := strconv.Atoi(key[4:])
	if err != nil || k < 1 || k > Piles {
		return lineErr(ln, "%q: piles are pile1 to pile10", key)
	}
	if lp.seen[k-1] {
		return lineErr(ln, "pile%d given twice", k)
	}
	lp.seen[k-1] = true
	pl := &lp.p.piles[k-1]
	for _, f := range strings.Fields(val) {
		down := strings.HasPrefix(f, "|")
		c, err := card.Parse(strings.TrimPrefix(f, "|"))
		if err != nil || c.IsJoker() {
			return withCause(lineErr(ln, "pile%d: %q is not a card", k, f), card.ErrBadCard)
		}
		if down && pl.down != pl.n {
			return lineErr(ln, "pile%d: face-down card %s after a face-up card", k, f)
		}
		if pl.n == maxPile {
			return lineErr(ln, "pile%d: too many cards", k)
		}
		pl.cards[pl.n] = c
		pl.n++
		if down {
			pl.down++
		}
	}
	if pl.n > 0 && pl.down == pl.n {
		return lineErr(ln, "pile%d: face-down cards need a face-up card after them", k)
	}
	return nil
}

// readRow reads "rowK: cards", a stock row of one card per pile; rows may
// come in any order, and finish checks that none is left out.
func (lp *layoutParse) readRow(ln int, key, val string) error {
	k, err := strconv.Atoi(key[3:])
	if err != nil || k < 1 || k > 5 {
		return lineErr(ln, "%q: rows are row1 to row5", key)
	}
	cs, err := card.ParseList(val)
	if err != nil {
		return lineErr(ln, "row%d: %v", k, err)
	}
	if len(cs) != Piles {
		return lineErr(ln, "row%d has %s, want 10", k, plural(len(cs), "card"))
	}
	if _, dup := lp.rowLine[k]; dup {
		return lineErr(ln, "row%d given twice", k)
	}
	for len(lp.rows) < k {
		lp.rows = append(lp.rows, nil)
	}
	lp.rows[k-1] = cs
	lp.rowLine[k] = ln
	return nil
}

// readCompleted reads "completed: S H ...", the suits already removed, by
// their suit letters. A suit not in play, or removed more often than the
// game holds it, is refused here, on this line, rather than by Check,
// which names no line. Each refusal names the suit by its letter, as
// FormatLayout writes it; the suit's name is left to the words that
// explain.
func (lp *layoutParse) readCompleted(ln int, val string) error {
	p := lp.p
	inPlay := suitsInPlay(int(p.suits))
	most := copiesEach(int(p.suits))
	var times [4]int // counted over every completed: line, so the eight places hold
	for _, s := range p.removed[:p.nRemoved] {
		times[s]++
	}
	for _, f := range strings.Fields(val) {
		c, err := card.Parse("A" + f)
		if err != nil || len(f) != 1 || c.IsJoker() {
			return withCause(lineErr(ln, "completed: %q is not a suit (S, H, D or C)", f), card.ErrBadCard)
		}
		s := c.Suit()
		if !inPlay[s] {
			return lineErr(ln, "completed: %s: a %d-suit game has no %s (%s)", s, p.suits, s.Name(), suitsWords(int(p.suits)))
		}
		if times[s] == most {
			return lineErr(ln, "completed: %s given more than %d times, the most a %d-suit game holds", s, most, p.suits)
		}
		times[s]++
		p.removed[p.nRemoved] = s
		p.nRemoved++
	}
	return nil
}

// finish checks the layout as a whole and builds the stock from its rows.
// These errors belong to no one line, so they name none.
func (lp *layoutParse) finish() (*Position, error) {
	p := lp.p
	for k, ok := range lp.seen {
		if !ok {
			return nil, fmt.Errorf("%w: pile%d is missing", ErrFormat, k+1)
		}
	}
	for k, row := range lp.rows {
		if row == nil {
			return nil, fmt.Errorf("%w: row%d is missing", ErrFormat, k+1)
		}
		copy(p.stock[p.stockLen:], row)
		p.stockLen += Piles
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	// A custom position may hold more face-down cards than a deal; Score
	// counts turned cards from the larger number, so each still scores.
	p.base = uint8(max(initialDown, p.FaceDown()))
	return p, nil
}

// plural is "1 card", "2 cards": messages name counts that may be 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// lineErr is a fault on line ln of a file or layout, for format and a,
// as fmt.Sprintf reads them. Each error among a is wrapped, not only said,
// so that errors.Is finds ErrIllegal in a save's illegal move and
// card.ErrBadCard in a bad card; the error is always ErrFormat too, as
// the file is what is refused.
func lineErr(ln int, format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	// Inner errors often carry the same sentinel; say it once.
	for _, s := range []error{ErrFormat, ErrIllegal} {
		msg = strings.ReplaceAll(msg, s.Error()+": ", "")
	}
	e := &lineError{msg: fmt.Sprintf("%v: line %d: %s", ErrFormat, ln, msg), errs: []error{ErrFormat}}
	for _, x := range a {
		if err, ok := x.(error); ok {
			e.errs = append(e.errs, err)
		}
	}
	return e
}

// withCause is e, a lineErr error, wrapping cause as well, whose text the
// message does not repeat (a card the message names in its own words).
func withCause(e, cause error) error {
	le := e.(*lineError)
	le.errs = append(le.errs, cause)
	return le
}

// lineError is lineErr's error: its text is its own, as the texts of the
// errors it wraps are said once, without their repeated sentinels.
type lineError struct {
	msg  string
	errs []error // ErrFormat, then the errors the message was made from
}

func (e *lineError) Error() string { return e.msg }

// Unwrap lets errors.Is and errors.As look into every error wrapped.
func (e *lineError) Unwrap() []error { return e.errs }
