package spider

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"cardtable/card"
)

// Layout format (the same as shared/deals/spider-deals.txt, plus completed
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

// ParseLayout reads a position in the layout format.
func ParseLayout(text string, r Rules) (*Position, error) {
	return parseLayout(strings.Split(text, "\n"), 1, r)
}

// parseLayout reads layout lines; first is the line number of lines[0], for
// error messages.
func parseLayout(lines []string, first int, r Rules) (*Position, error) {
	if err := card.CheckSuits(r.Suits); err != nil {
		return nil, err
	}
	p := &Position{suits: uint8(r.Suits), relaxed: r.Relaxed}
	var seen [Piles]bool
	var rows [][]card.Card
	rowLine := map[int]int{}
	for i, raw := range lines {
		ln := first + i
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, lineErr(ln, "want pileK:, rowK: or completed:, got %q", line)
		}
		key = strings.TrimSpace(strings.ToLower(key))
		switch {
		case strings.HasPrefix(key, "pile"):
			k, err := strconv.Atoi(key[4:])
			if err != nil || k < 1 || k > Piles {
				return nil, lineErr(ln, "%q: piles are pile1 to pile10", key)
			}
			if seen[k-1] {
				return nil, lineErr(ln, "pile%d given twice", k)
			}
			seen[k-1] = true
			pl := &p.piles[k-1]
			for _, f := range strings.Fields(val) {
				down := strings.HasPrefix(f, "|")
				c, err := card.Parse(strings.TrimPrefix(f, "|"))
				if err != nil || c.IsJoker() {
					return nil, lineErr(ln, "pile%d: %q is not a card", k, f)
				}
				if down && pl.down != pl.n {
					return nil, lineErr(ln, "pile%d: face-down card %s after a face-up card", k, f)
				}
				if pl.n == maxPile {
					return nil, lineErr(ln, "pile%d: too many cards", k)
				}
				pl.cards[pl.n] = c
				pl.n++
				if down {
					pl.down++
				}
			}
			if pl.n > 0 && pl.down == pl.n {
				return nil, lineErr(ln, "pile%d: face-down cards need a face-up card after them", k)
			}
		case strings.HasPrefix(key, "row"):
			k, err := strconv.Atoi(key[3:])
			if err != nil || k < 1 || k > 5 {
				return nil, lineErr(ln, "%q: rows are row1 to row5", key)
			}
			cs, err := card.ParseList(val)
			if err != nil {
				return nil, lineErr(ln, "row%d: %v", k, err)
			}
			if len(cs) != Piles {
				return nil, lineErr(ln, "row%d has %s, want 10", k, plural(len(cs), "card"))
			}
			if _, dup := rowLine[k]; dup {
				return nil, lineErr(ln, "row%d given twice", k)
			}
			for len(rows) < k {
				rows = append(rows, nil)
			}
			rows[k-1] = cs
			rowLine[k] = ln
		case key == "completed":
			for _, f := range strings.Fields(val) {
				c, err := card.Parse("A" + f)
				if err != nil || len(f) != 1 || c.IsJoker() {
					return nil, lineErr(ln, "completed: %q is not a suit (S, H, D or C)", f)
				}
				if p.nRemoved == 8 {
					return nil, lineErr(ln, "completed: more than eight suits")
				}
				p.removed[p.nRemoved] = c.Suit()
				p.nRemoved++
			}
		default:
			return nil, lineErr(ln, "unknown line %q", key)
		}
	}
	for k, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("%w: pile%d is missing", ErrFormat, k+1)
		}
	}
	for k, row := range rows {
		if row == nil {
			return nil, fmt.Errorf("%w: row%d is missing", ErrFormat, k+1)
		}
		copy(p.stock[p.stockLen:], row)
		p.stockLen += Piles
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
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

func lineErr(ln int, format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	// Inner errors often carry the same sentinel; say it once.
	for _, s := range []error{ErrFormat, ErrIllegal} {
		msg = strings.ReplaceAll(msg, s.Error()+": ", "")
	}
	if errors.Is(fmt.Errorf(format, a...), ErrIllegal) {
		return fmt.Errorf("%w: line %d: %s", ErrIllegal, ln, msg)
	}
	return fmt.Errorf("%w: line %d: %s", ErrFormat, ln, msg)
}
