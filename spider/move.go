package spider

import (
	"fmt"
	"strconv"
	"strings"

	"cardtable/card"
	"cardtable/internal/ascii"
)

// Kind is what a move does.
type Kind uint8

// Move kinds.
const (
	// MoveCards moves Count cards from the bottom of pile From to pile To.
	MoveCards Kind = iota
	// Deal deals a row of ten from the stock, one card on each pile.
	Deal
	// Remove takes a complete K..A run off the bottom of pile From.
	Remove
)

// Move is one move. Piles are 0-based here and 1-based in the notation.
type Move struct {
	Kind     Kind
	From, To uint8
	Count    uint8
}

// Cards returns the move of n cards from pile from to pile to (0-based).
func Cards(from, to, n int) Move {
	return Move{Kind: MoveCards, From: uint8(from), To: uint8(to), Count: uint8(n)}
}

// DealMove is the move that deals a row.
var DealMove = Move{Kind: Deal}

// RemoveFrom returns the move that removes the complete run at the bottom of
// pile k (0-based).
func RemoveFrom(k int) Move { return Move{Kind: Remove, From: uint8(k)} }

// String is the move in the project's notation, which is also the command
// line that terminal play accepts: "move 3 7 2", "deal", "remove 4".
func (m Move) String() string {
	switch m.Kind {
	case Deal:
		return "deal"
	case Remove:
		return "remove " + strconv.Itoa(int(m.From)+1)
	}
	return fmt.Sprintf("move %d %d %d", m.From+1, m.To+1, m.Count)
}

// ParseMove reads a move in the notation of String. "move FROM TO" without a
// count is not a complete move: it needs a position (see Position.Resolve).
func ParseMove(s string) (Move, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return Move{}, fmt.Errorf("%w: empty move", ErrFormat)
	}
	switch ascii.Lower(f[0]) {
	case "deal", "d":
		if len(f) != 1 {
			return Move{}, fmt.Errorf("%w: %q: deal takes no arguments", ErrFormat, s)
		}
		return DealMove, nil
	case "remove", "r":
		if len(f) != 2 {
			return Move{}, fmt.Errorf("%w: %q: want remove PILE", ErrFormat, s)
		}
		k, err := parsePile(f[1])
		if err != nil {
			return Move{}, err
		}
		return RemoveFrom(k), nil
	case "move", "m":
		if len(f) != 4 {
			return Move{}, fmt.Errorf("%w: %q: want move FROM TO COUNT", ErrFormat, s)
		}
		from, err := parsePile(f[1])
		if err != nil {
			return Move{}, err
		}
		to, err := parsePile(f[2])
		if err != nil {
			return Move{}, err
		}
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 1 || n > 13 {
			return Move{}, fmt.Errorf("%w: count %q: want 1 to 13 cards", ErrFormat, f[3])
		}
		return Cards(from, to, n), nil
	}
	return Move{}, fmt.Errorf("%w: %q is not a move (want move, deal or remove)", ErrFormat, s)
}

func parsePile(s string) (int, error) {
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > Piles {
		return 0, fmt.Errorf("%w: pile %q: piles are 1 to 10", ErrFormat, s)
	}
	return k - 1, nil
}

// Legal appends every legal move to dst and returns it. It allocates nothing
// when dst has room (cap 256 is always enough in practice).
//
// Order: removals, then card moves by source pile and target pile, then the
// deal. Moves into a space come in every length of the movable run.
func (p *Position) Legal(dst []Move) []Move {
	for k := range p.piles {
		if p.completeAt(k) {
			dst = append(dst, RemoveFrom(k))
		}
	}
	spaces := false
	for s := range p.piles {
		src := &p.piles[s]
		r := src.run()
		if r == 0 {
			if src.n == 0 {
				spaces = true
			}
			continue
		}
		low := src.bottom().Rank()
		for t := range p.piles {
			if t == s {
				continue
			}
			dst2 := &p.piles[t]
			if dst2.n == 0 {
				for n := r; n >= 1; n-- {
					dst = append(dst, Cards(s, t, n))
				}
				continue
			}
			n := int(dst2.bottom().Rank()) - int(low)
			if n >= 1 && n <= r {
				dst = append(dst, Cards(s, t, n))
			}
		}
	}
	if p.dealt < p.stockLen && (!spaces || p.relaxed) {
		dst = append(dst, DealMove)
	}
	return dst
}

// Null reports whether a legal move changes nothing that matters: a whole
// pile (with nothing face down) moved from one space into another.
func (p *Position) Null(m Move) bool {
	if m.Kind != MoveCards {
		return false
	}
	src := &p.piles[m.From]
	return src.down == 0 && int(m.Count) == int(src.n) && p.piles[m.To].n == 0
}

// Stuck reports whether no move is left but null ones. A won game is not stuck.
func (p *Position) Stuck() bool {
	if p.Won() {
		return false
	}
	var buf [256]Move
	for _, m := range p.Legal(buf[:0]) {
		if !p.Null(m) {
			return false
		}
	}
	return true
}

// Check reports why m is illegal here, naming the rule, or nil if it is legal.
func (p *Position) CheckMove(m Move) error {
	switch m.Kind {
	case Deal:
		if p.dealt >= p.stockLen {
			return fmt.Errorf("%w: the stock is empty", ErrIllegal)
		}
		if !p.relaxed {
			for k := range p.piles {
				if p.piles[k].n == 0 {
					return fmt.Errorf("%w: you may not deal while pile %d is a space; fill every space first", ErrIllegal, k+1)
				}
			}
		}
		return nil
	case Remove:
		if m.From >= Piles {
			return fmt.Errorf("%w: no pile %d", ErrIllegal, int(m.From)+1)
		}
		if !p.completeAt(int(m.From)) {
			return fmt.Errorf("%w: pile %d has no complete King-to-Ace run of one suit at its bottom", ErrIllegal, m.From+1)
		}
		return nil
	case MoveCards:
	default:
		return fmt.Errorf("%w: unknown move kind %d", ErrIllegal, m.Kind)
	}
	if m.From >= Piles || m.To >= Piles {
		return errPiles
	}
	if m.From == m.To {
		return fmt.Errorf("%w: a pile cannot move onto itself", ErrIllegal)
	}
	src, dst := &p.piles[m.From], &p.piles[m.To]
	if src.n == src.down {
		return errEmpty(int(m.From))
	}
	if m.Count == 0 {
		return fmt.Errorf("%w: a move takes at least one card", ErrIllegal)
	}
	if r := src.run(); int(m.Count) > r {
		return errRun(int(m.From), r, int(m.Count))
	}
	if dst.n == 0 {
		return nil
	}
	top := src.cards[int(src.n)-int(m.Count)]
	if dst.bottom().Rank() != top.Rank()+1 {
		if top.Rank() == card.King {
			return fmt.Errorf("%w: a king (or a run headed by one) moves only into a space", ErrIllegal)
		}
		return fmt.Errorf("%w: %s goes only on a card one rank higher or into a space, not on %s", ErrIllegal, top, dst.bottom())
	}
	return nil
}

// Play checks m and applies it, or returns why it is illegal and changes
// nothing. It returns what Undo needs.
func (p *Position) Play(m Move) (Undo, error) {
	if err := p.CheckMove(m); err != nil {
		return 0, err
	}
	return p.Do(m), nil
}

// Undo is what reverses one move: whether it turned a face-down card up.
type Undo uint8

const undoFlipped Undo = 1

// Flipped reports whether the move turned a face-down card up.
func (u Undo) Flipped() bool { return u&undoFlipped != 0 }

// Do applies a legal move without checking it. The search uses it with
// moves from Legal; anything else must go through Play.
func (p *Position) Do(m Move) Undo {
	switch m.Kind {
	case Deal:
		for k := range p.piles {
			pl := &p.piles[k]
			pl.cards[pl.n] = p.stock[p.dealt]
			pl.n++
			p.dealt++
		}
		return 0
	case Remove:
		pl := &p.piles[m.From]
		p.removed[p.nRemoved] = pl.bottom().Suit()
		p.nRemoved++
		pl.n -= 13
		return p.flip(pl)
	}
	src, dst := &p.piles[m.From], &p.piles[m.To]
	n := m.Count
	copy(dst.cards[dst.n:dst.n+n], src.cards[src.n-n:src.n])
	dst.n += n
	src.n -= n
	return p.flip(src)
}

// flip turns up the face-down card a move has exposed.
func (p *Position) flip(pl *pile) Undo {
	if pl.n > 0 && pl.down == pl.n {
		pl.down--
		return undoFlipped
	}
	return 0
}

// Undo reverses m, which must be the last move done, with what Do returned.
func (p *Position) Undo(m Move, u Undo) {
	switch m.Kind {
	case Deal:
		for k := Piles - 1; k >= 0; k-- {
			p.dealt--
			p.piles[k].n--
		}
		return
	case Remove:
		pl := &p.piles[m.From]
		if u.Flipped() {
			pl.down++
		}
		p.nRemoved--
		s := p.removed[p.nRemoved]
		p.removed[p.nRemoved] = 0
		for r := card.King; r >= card.Ace; r-- {
			pl.cards[pl.n] = card.New(r, s)
			pl.n++
		}
		return
	}
	src, dst := &p.piles[m.From], &p.piles[m.To]
	if u.Flipped() {
		src.down++
	}
	n := m.Count
	copy(src.cards[src.n:src.n+n], dst.cards[dst.n-n:dst.n])
	src.n += n
	dst.n -= n
}

// Resolve completes a "move FROM TO" without a count: the longest part of
// the movable run that pile to accepts. It reports an error naming the rule
// when no part fits.
func (p *Position) Resolve(from, to int) (Move, error) {
	if from < 0 || from >= Piles || to < 0 || to >= Piles {
		return Move{}, errPiles
	}
	src, dst := &p.piles[from], &p.piles[to]
	r := src.run()
	if r == 0 {
		return Move{}, errEmpty(from)
	}
	if from == to {
		return Move{}, fmt.Errorf("%w: a pile cannot move onto itself", ErrIllegal)
	}
	if dst.n == 0 {
		m := Cards(from, to, r)
		return m, p.CheckMove(m)
	}
	n := int(dst.bottom().Rank()) - int(src.bottom().Rank())
	if n < 1 || n > r {
		n = r
	}
	m := Cards(from, to, n)
	return m, p.CheckMove(m)
}

var errPiles = fmt.Errorf("%w: piles are 1 to 10", ErrIllegal)

func errEmpty(k int) error {
	return fmt.Errorf("%w: pile %d has no face-up card to move", ErrIllegal, k+1)
}

func errRun(k, run, n int) error {
	return fmt.Errorf("%w: only a same-suit descending run moves together; the run at the bottom of pile %d is %s, not %d", ErrIllegal, k+1, plural(run, "card"), n)
}

func errNoAuto(k, n int) error {
	return fmt.Errorf("%w: no legal place for the %s at the bottom of pile %d", ErrIllegal, plural(n, "card"), k+1)
}
