// Package spider is the rules engine for Arachnid and Spider solitaire: the
// position and its legal moves (Position), scoring, auto-move, and the game
// record with undo, redo, restart, cheat detection and saving (Game).
//
// Position is the hot path the solver searches: a fixed-size value with
// allocation-free move generation, Do and Undo. Game wraps it for players.
package spider

import (
	"errors"
	"fmt"
	"strings"

	"cardtable/card"
	"cardtable/internal/ascii"
)

// Piles is the number of tableau piles.
const Piles = 10

// maxPile bounds a pile's height; 104 can never be exceeded.
const maxPile = 104

// Sentinel errors. Every refusal wraps ErrIllegal; errors about files and
// layouts wrap ErrFormat, and an illegal move in a save file wraps both.
var (
	ErrIllegal = errors.New("illegal move")
	ErrFormat  = errors.New("bad format")
)

// Variant names where the four extra face-down cards go and how scoring
// treats undo.
type Variant uint8

// Variants.
const (
	// Arachnid puts the extra face-down cards on piles 1-4 (the traditional
	// placement) and detects undo as cheating at the chosen level.
	Arachnid Variant = iota
	// Spider puts them on piles 1, 4, 7 and 10 and stops scoring once the
	// player undoes, restarts or loads.
	Spider
)

func (v Variant) String() string {
	if v == Spider {
		return "spider"
	}
	return "arachnid"
}

// ParseVariant reads "arachnid" or "spider", in any case: a flag, a save
// and the API take "Spider" as the page shows it.
func ParseVariant(s string) (Variant, error) {
	switch ascii.Lower(s) {
	case "arachnid", "":
		return Arachnid, nil
	case "spider":
		return Spider, nil
	}
	return 0, fmt.Errorf("%w: variant must be arachnid or spider, not %q", ErrFormat, s)
}

// extraPiles are the piles that get a fifth face-down card.
func (v Variant) extraPiles() [4]int {
	if v == Spider {
		return [4]int{0, 3, 6, 9}
	}
	return [4]int{0, 1, 2, 3}
}

// pile is one tableau pile: cards[0] is underneath all others, cards[n-1]
// is the "bottom" card of the texts (the last dealt or played), and the first
// down cards are face down.
type pile struct {
	n, down uint8
	cards   [maxPile]card.Card
}

func (p *pile) bottom() card.Card {
	if p.n == 0 {
		return card.None
	}
	return p.cards[p.n-1]
}

// run is the length of the same-suit descending run at the pile's bottom,
// among its face-up cards: the cards that may move together.
func (p *pile) run() int {
	if p.n == p.down {
		return 0
	}
	i := int(p.n) - 1
	for i > int(p.down) && p.cards[i-1] == p.cards[i]+1 {
		// Same suit and one rank higher: the byte encoding makes this one compare.
		i--
	}
	return int(p.n) - i
}

// Position is a Spider position: ten piles, the stock, and the suits removed.
// It is a plain value: copying it copies the position.
type Position struct {
	piles    [Piles]pile
	stock    [50]card.Card // dealing order: stock[dealt] is dealt next, to pile 1
	stockLen uint8
	dealt    uint8
	removed  [8]card.Suit
	nRemoved uint8
	suits    uint8
	relaxed  bool
	base     uint8 // face-down cards at the start, for scoring (at least 44)
}

// Rules are the options that change which moves are legal.
type Rules struct {
	// Suits is 1, 2 or 4.
	Suits int
	// Relaxed allows dealing a row while a pile is empty; every text forbids it.
	Relaxed bool
}

// NewDeal lays out deal number n: four face-down rows, one more face-down
// card on four piles (where depends on the variant), a face-up row, and the
// fifty cards left as the stock.
func NewDeal(n uint64, v Variant, r Rules) (*Position, error) {
	if n == 0 {
		return nil, fmt.Errorf("%w: deal numbers start at 1", card.ErrBadDeal)
	}
	if err := card.CheckSuits(r.Suits); err != nil {
		return nil, err
	}
	d := card.SpiderDeal(n, r.Suits)
	p := &Position{suits: uint8(r.Suits), relaxed: r.Relaxed, base: initialDown}
	i := 0
	put := func(k int) {
		pl := &p.piles[k]
		pl.cards[pl.n] = d[i]
		pl.n++
		i++
	}
	for range 4 {
		for k := range Piles {
			put(k)
		}
	}
	for _, k := range v.extraPiles() {
		put(k)
	}
	for k := range Piles {
		p.piles[k].down = p.piles[k].n
		put(k)
	}
	p.stockLen = uint8(copy(p.stock[:], d[i:]))
	return p, nil
}

// Suits is the number of suits in play: 1, 2 or 4.
func (p *Position) Suits() int { return int(p.suits) }

// Relaxed reports whether dealing onto a space is allowed.
func (p *Position) Relaxed() bool { return p.relaxed }

// Len is the number of cards in pile k (0-based).
func (p *Position) Len(k int) int { return int(p.piles[k].n) }

// Down is the number of face-down cards in pile k.
func (p *Position) Down(k int) int { return int(p.piles[k].down) }

// Card is the j-th card of pile k, counting from the card underneath all
// others (0) to the bottom card (Len-1), face down or not.
func (p *Position) Card(k, j int) card.Card { return p.piles[k].cards[j] }

// Cards appends pile k's cards to dst, from underneath to bottom.
func (p *Position) Cards(dst []card.Card, k int) []card.Card {
	pl := &p.piles[k]
	return append(dst, pl.cards[:pl.n]...)
}

// Up appends pile k's face-up cards to dst.
func (p *Position) Up(dst []card.Card, k int) []card.Card {
	pl := &p.piles[k]
	return append(dst, pl.cards[pl.down:pl.n]...)
}

// Bottom is pile k's bottom card, or card.None for a space.
func (p *Position) Bottom(k int) card.Card { return p.piles[k].bottom() }

// Run is the length of the movable same-suit run at the bottom of pile k.
func (p *Position) Run(k int) int { return p.piles[k].run() }

// StockLen is the number of cards left in the stock.
func (p *Position) StockLen() int { return int(p.stockLen - p.dealt) }

// Stock appends the cards left in the stock to dst, in dealing order: the
// first ten are the next row, for piles 1 to 10.
func (p *Position) Stock(dst []card.Card) []card.Card {
	return append(dst, p.stock[p.dealt:p.stockLen]...)
}

// Removed appends the suits of the completed runs removed so far.
func (p *Position) Removed(dst []card.Suit) []card.Suit {
	return append(dst, p.removed[:p.nRemoved]...)
}

// NumRemoved is the number of complete suits removed.
func (p *Position) NumRemoved() int { return int(p.nRemoved) }

// Spaces is the number of empty piles.
func (p *Position) Spaces() int {
	n := 0
	for k := range p.piles {
		if p.piles[k].n == 0 {
			n++
		}
	}
	return n
}

// FaceDown is the number of face-down cards in the tableau.
func (p *Position) FaceDown() int {
	n := 0
	for k := range p.piles {
		n += int(p.piles[k].down)
	}
	return n
}

// completeAt reports whether pile k holds a complete K..A run of one suit at
// its bottom, all face up.
func (p *Position) completeAt(k int) bool {
	pl := &p.piles[k]
	if pl.n-pl.down < 13 || pl.bottom().Rank() != card.Ace {
		return false
	}
	return pl.run() >= 13
}

// CompleteRuns is the number of complete K..A runs standing in the tableau.
// A pile can hold more than one (a run can be dealt onto).
func (p *Position) CompleteRuns() int {
	n := 0
	for k := range p.piles {
		complete, _ := p.piles[k].runs()
		n += complete
	}
	return n
}

// runs splits the pile's face-up cards into maximal same-suit descending
// runs and returns how many are complete K..A runs and how many cards sit
// on the next-higher card of their suit outside those.
func (pl *pile) runs() (complete, builds int) {
	i := int(pl.down)
	for i < int(pl.n) {
		j := i + 1
		for j < int(pl.n) && pl.cards[j] == pl.cards[j-1]-1 {
			j++
		}
		if j-i == 13 {
			complete++
		} else {
			builds += j - i - 1
		}
		i = j
	}
	return complete, builds
}

// Won reports whether the game is won: the stock is empty and all 104 cards
// stand in complete K..A runs, removed or still in the tableau.
func (p *Position) Won() bool {
	if p.StockLen() != 0 {
		return false
	}
	return (int(p.nRemoved)+p.CompleteRuns())*13 == 104
}

// Equal reports whether two positions are the same.
func (p *Position) Equal(q *Position) bool {
	if p.StockLen() != q.StockLen() || p.nRemoved != q.nRemoved ||
		p.suits != q.suits || p.relaxed != q.relaxed || p.removed != q.removed || p.base != q.base {
		return false
	}
	for i := range p.StockLen() {
		if p.stock[int(p.dealt)+i] != q.stock[int(q.dealt)+i] {
			return false
		}
	}
	for k := range p.piles {
		a, b := &p.piles[k], &q.piles[k]
		if a.n != b.n || a.down != b.down {
			return false
		}
		for j := range a.n {
			if a.cards[j] != b.cards[j] {
				return false
			}
		}
	}
	return true
}

// counts tallies every card of the position, face down or up, in the stock
// and in removed suits, for checking that all 104 are accounted for. It is
// indexed by the card's byte, so that Check reads it in a fixed order.
func (p *Position) counts() *[256]int {
	var m [256]int
	for k := range p.piles {
		for _, c := range p.piles[k].cards[:p.piles[k].n] {
			m[c]++
		}
	}
	for _, c := range p.stock[p.dealt:p.stockLen] {
		m[c]++
	}
	for _, s := range p.removed[:p.nRemoved] {
		for r := card.Ace; r <= card.King; r++ {
			m[card.New(r, s)]++
		}
	}
	return &m
}

// maxWrongNamed bounds how many wrong cards Check names: a typed card in
// place of another makes two, a short pile a few; a layout far off gets
// the first ones and a count of the rest rather than a screenful.
const maxWrongNamed = 6

// Check verifies that the position holds exactly the 104 cards of its suit
// count: each card of the suits in play copiesEach(suits) times, and no
// other card.
//
// Its message names the wrong cards in one fixed order (clubs, diamonds,
// hearts, spades; ace to king in each), up to maxWrongNamed of them, so
// that the same layout always gets the same answer, and one edited by
// hand gets every card to look at; then, once, what the suit count wants
// and which suits found are not in play (docs/formats.md).
func (p *Position) Check() error {
	m := p.counts()
	for c, n := range m {
		if n > 0 && (!card.Card(c).Valid() || card.Card(c).IsJoker()) {
			return fmt.Errorf("%w: %s is not a Spider card", ErrFormat, card.Card(c))
		}
	}
	inPlay := suitsInPlay(int(p.suits))
	want := copiesEach(int(p.suits))
	var named []string
	var strays [4]bool // suits not in play of which a card was found
	wrong, total := 0, 0
	for _, s := range card.Suits {
		for r := card.Ace; r <= card.King; r++ {
			c := card.New(r, s)
			n := m[c]
			total += n
			if (inPlay[s] && n != want) || (!inPlay[s] && n > 0) {
				wrong++
				strays[s] = strays[s] || !inPlay[s]
				if len(named) < maxWrongNamed {
					named = append(named, fmt.Sprintf("%s appears %s", c, plural(n, "time")))
				}
			}
		}
	}
	if wrong == 0 {
		return nil
	}
	msg := strings.Join(named, ", ")
	if wrong > len(named) {
		msg += " and " + plural(wrong-len(named), "more wrong card")
	}
	msg += "; " + deckWords(int(p.suits))
	if out := suitNames(strays, ""); out != "" {
		msg += fmt.Sprintf(": %s are not in play", out)
	}
	if total != 104 {
		// Said first: it tells a card left out or added from one typed
		// for another.
		msg = fmt.Sprintf("%s, want 104; %s", plural(total, "card"), msg)
	}
	return fmt.Errorf("%w: %s", ErrFormat, msg)
}

// suitsInPlay is which suits a game of suits suits deals, read off its
// deck (card.SpiderDeck) so that the deck alone says which they are.
func suitsInPlay(suits int) [4]bool {
	var in [4]bool
	for _, c := range card.SpiderDeck(suits) {
		in[c.Suit()] = true
	}
	return in
}

// copiesEach is how many of each card of a suit in play a game of suits
// suits holds, and so how many runs of each such suit it completes: the
// two decks' 2 of each card, spread over 4/suits times fewer suits.
func copiesEach(suits int) int { return 8 / suits }

// suitNames names the suits marked in these, in card order ("clubs and
// hearts"), each as its plural name with suffix cut off its end.
func suitNames(these [4]bool, cut string) string {
	var names []string
	for _, s := range card.Suits {
		if these[s] {
			names = append(names, strings.TrimSuffix(s.Name(), cut))
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// suitsWords names the suits a game of suits suits is played with: "its
// suit is spades", "its suits are hearts and spades".
func suitsWords(suits int) string {
	if suits == 1 {
		return "its suit is " + suitNames(suitsInPlay(suits), "")
	}
	return "its suits are " + suitNames(suitsInPlay(suits), "")
}

// deckWords says what a game of suits suits holds, for a person putting a
// layout right: "a 1-suit game has 8 of each spade card and no other
// card", "a 4-suit game has 2 of each card".
func deckWords(suits int) string {
	if suits == 4 {
		return fmt.Sprintf("a 4-suit game has %d of each card", copiesEach(suits))
	}
	return fmt.Sprintf("a %d-suit game has %d of each %s card and no other card",
		suits, copiesEach(suits), suitNames(suitsInPlay(suits), "s"))
}

// WithHidden returns a copy of p whose face-down cards and stock are
// replaced: hidden[k] holds pile k's face-down cards, underneath first, and
// stock the stock in dealing order. The lengths must match p's. Fair-play
// search uses it to try out what the unseen cards could be; it does not
// check that the result holds the right 104 cards (call Check for that).
func (p *Position) WithHidden(hidden *[Piles][]card.Card, stock []card.Card) (Position, error) {
	q := *p
	if len(stock) != q.StockLen() {
		return q, fmt.Errorf("%w: stock of %s, want %d", ErrFormat, plural(len(stock), "card"), q.StockLen())
	}
	for k := range q.piles {
		pl := &q.piles[k]
		if len(hidden[k]) != int(pl.down) {
			return q, fmt.Errorf("%w: pile %d: %d face-down cards, want %d", ErrFormat, k+1, len(hidden[k]), pl.down)
		}
		copy(pl.cards[:pl.down], hidden[k])
	}
	copy(q.stock[q.dealt:q.stockLen], stock)
	return q, nil
}
