package arlington

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"cardtable/card"
)

// Spectrum is one of the four categories of legal sets ("Sets"). The zero
// value, NoSpectrum, means "not named".
type Spectrum uint8

// The spectra, in the text's default order ("Leading a Set": Aces,
// Multiples, Couples, Runs).
const (
	NoSpectrum Spectrum = iota
	Aces
	Multiples
	Couples
	Runs
)

// Spectra lists the four spectra in the text's default order.
var Spectra = [4]Spectrum{Aces, Multiples, Couples, Runs}

var spectrumNames = [...]string{"none", "aces", "multiples", "couples", "runs"}

// String is the spectrum's lower-case name: aces, multiples, couples, runs.
func (sp Spectrum) String() string {
	if int(sp) < len(spectrumNames) {
		return spectrumNames[sp]
	}
	return "?"
}

// ParseSpectrum reads a spectrum name (any case; singular accepted).
func ParseSpectrum(s string) (Spectrum, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, sp := range Spectra {
		n := sp.String()
		if t == n || t+"s" == n {
			return sp, nil
		}
	}
	return NoSpectrum, fmt.Errorf("%w %q (want aces, multiples, couples or runs)", ErrUnknownSpectrum, s)
}

// ErrUnknownSpectrum is wrapped by ParseSpectrum's error: the name is the
// problem, not the cards.
var ErrUnknownSpectrum = errors.New("unknown spectrum")

// MarshalText writes the spectrum's name.
func (sp Spectrum) MarshalText() ([]byte, error) { return []byte(sp.String()), nil }

// UnmarshalText reads a spectrum's name.
func (sp *Spectrum) UnmarshalText(b []byte) error {
	t, err := ParseSpectrum(string(b))
	if err != nil {
		return err
	}
	*sp = t
	return nil
}

// Masks of ranks and suits by Index.
func rankMask(v int) uint64 { return 0xF << ((v - 2) * 4) }

func suitMask(s card.Suit) uint64 { return 0x1111111111111 << s }

func bit(v int, s card.Suit) uint64 { return 1 << ((v-2)*4 + int(s)) }

var (
	aceMask  = rankMask(14)
	h2Bit    = bit(2, card.Hearts)
	s2Card   = card.New(card.Two, card.Spades)
	kingMask = rankMask(13)
	qMask    = rankMask(12)
	jMask    = rankMask(11)
)

// S2 is the two of spades, the card that kills sets.
var S2 = s2Card

// Key orders the sets of one spectrum: a larger Key is a higher set. It is
// the key of the highest pure set the set can represent (see
// docs/rules-arlington.md): for Couples the class (same suit 2 > H2 1 >
// different suits 0), then for every spectrum the number of cards, then
// the suit-card mask, whose integer order is the text's "highest card found
// in only one of the sets".
type Key uint64

func makeKey(class, count int, rep uint64) Key {
	return Key(uint64(class)<<58 | uint64(count)<<52 | rep)
}

// rep reports whether s is a legal set in sp and, if so, the highest pure
// set it represents there (as a mask) and the ordering class (Couples only).
func rep(s Set, sp Spectrum) (mask uint64, class int, ok bool) {
	m, j := s.Mask(), s.Jokers()
	n := bits.OnesCount64(m)
	total := n + j
	if total == 0 {
		return 0, 0, false
	}
	switch sp {
	case Aces:
		if m&^aceMask != 0 || total > 4 {
			return 0, 0, false
		}
		return fillSuits(m, 14, j), 0, true
	case Multiples:
		if total < 2 {
			return 0, 0, false
		}
		if n == 0 { // two jokers: any pair; the highest is {SA, HA}
			return fillSuits(0, 14, j), 0, true
		}
		v := Index(cardAt(bits.TrailingZeros64(m)))/4 + 2
		if m&^rankMask(v) != 0 || total > 4 {
			return 0, 0, false
		}
		return fillSuits(m, v, j), 0, true
	case Couples:
		return couplesRep(m, n, j)
	case Runs:
		return runsRep(m, n, j)
	}
	return 0, 0, false
}

// fillSuits adds j cards of rank v to m, highest suits first.
func fillSuits(m uint64, v, j int) uint64 {
	for su := card.Spades; j > 0; su-- {
		if b := bit(v, su); m&b == 0 {
			m |= b
			j--
		}
		if su == card.Clubs {
			break
		}
	}
	return m
}

func couplesRep(m uint64, n, j int) (uint64, int, bool) {
	switch {
	case n+j == 1:
		if m == h2Bit || (n == 0 && j == 1) {
			return h2Bit, 1, true
		}
		return 0, 0, false
	case n+j != 2:
		return 0, 0, false
	case j == 2: // any king and queen: the highest is {SK, SQ}
		return bit(13, card.Spades) | bit(12, card.Spades), 2, true
	case j == 1:
		c := cardAt(bits.TrailingZeros64(m))
		var partner int
		switch value(c) {
		case 13, 11:
			partner = 12
		case 12:
			partner = 13 // a queen with a king of her suit beats one with a jack
		default:
			return 0, 0, false
		}
		return m | bit(partner, c.Suit()), 2, true
	}
	// Two suit cards: a king and a queen, or a queen and a jack.
	kq := m&kingMask != 0 && m&qMask != 0
	qj := m&qMask != 0 && m&jMask != 0
	if !kq && !qj {
		return 0, 0, false
	}
	lo := cardAt(bits.TrailingZeros64(m))
	hi := cardAt(63 - bits.LeadingZeros64(m))
	if lo.Suit() == hi.Suit() {
		return m, 2, true
	}
	return m, 0, true
}

func runsRep(m uint64, n, j int) (uint64, int, bool) {
	total := n + j
	if total < 2 || total > 13 {
		return 0, 0, false
	}
	if n == 0 { // two jokers: any two-card run; the highest is {SA, SK}
		return bit(14, card.Spades) | bit(13, card.Spades), 0, true
	}
	lowC := cardAt(bits.TrailingZeros64(m))
	su := lowC.Suit()
	if m&^suitMask(su) != 0 {
		return 0, 0, false
	}
	lo := value(lowC)
	hi := value(cardAt(63 - bits.LeadingZeros64(m)))
	gaps := hi - lo + 1 - n
	if gaps > j {
		return 0, 0, false
	}
	// Spare jokers extend the run upward as far as the ace allows: the
	// highest representation.
	top := min(14, hi+j-gaps)
	var r uint64
	for v := top - total + 1; v <= top; v++ {
		r |= bit(v, su)
	}
	return r, 0, true
}

// In reports whether s is a legal set in spectrum sp.
func In(s Set, sp Spectrum) bool {
	_, _, ok := rep(s, sp)
	return ok
}

// KeyIn is s's ordering key in sp; ok is false when s is not in sp.
func KeyIn(s Set, sp Spectrum) (Key, bool) {
	m, class, ok := rep(s, sp)
	if !ok {
		return 0, false
	}
	return makeKey(class, bits.OnesCount64(m), m), true
}

// PointsIn is what s scores in spectrum sp with its best representation
// there ("Scoring"), or 0 when s is not in sp.
func PointsIn(s Set, sp Spectrum) int {
	m, class, ok := rep(s, sp)
	if !ok {
		return 0
	}
	n := s.Len()
	switch sp {
	case Aces, Multiples:
		return 1 << (n - 1)
	case Runs:
		return 2 * (n - 1)
	}
	// Couples: the highest representation is also the best scoring one,
	// since the classes and ranks order the points the same way.
	kq := m&kingMask != 0
	switch {
	case class == 1:
		return 2
	case class == 2 && kq:
		return 8
	case class == 2:
		return 4
	case kq:
		return 2
	}
	return 1
}

// Points is what s scores on a table: its best spectrum with its best
// representation ("Scoring"); 0 for an illegal set.
func Points(s Set) int {
	best := 0
	for _, sp := range Spectra {
		best = max(best, PointsIn(s, sp))
	}
	return best
}

// Legal reports whether s is a legal set in some spectrum.
func Legal(s Set) bool {
	for _, sp := range Spectra {
		if In(s, sp) {
			return true
		}
	}
	return false
}

// SpectraOf lists the spectra s belongs to, in the default order.
func SpectraOf(s Set) []Spectrum {
	out := []Spectrum{}
	for _, sp := range Spectra {
		if In(s, sp) {
			out = append(out, sp)
		}
	}
	return out
}

// DefaultSpectrum is the spectrum assumed for a led set of two or more
// cards when none is named: the first it belongs to among Aces, Multiples,
// Couples, Runs ("Leading a Set"). It is NoSpectrum for an illegal set.
func DefaultSpectrum(s Set) Spectrum {
	for _, sp := range Spectra {
		if In(s, sp) {
			return sp
		}
	}
	return NoSpectrum
}

// SetInfo is the analysis of a group of cards.
type SetInfo struct {
	Legal   bool       `json:"legal"`
	Spectra []Spectrum `json:"spectra"`
	Points  int        `json:"points"`
}

// Analyze says whether cards form a legal set, every spectrum it belongs
// to and the points it would score on a table. Cards that cannot come from
// one deck (a suit card twice, three jokers) are not a legal set.
func Analyze(cards []card.Card) SetInfo {
	s, err := SetOf(cards)
	if err != nil || s.Empty() {
		return SetInfo{Spectra: []Spectrum{}}
	}
	return AnalyzeSet(s)
}

// AnalyzeSet is Analyze for a Set.
func AnalyzeSet(s Set) SetInfo {
	sp := SpectraOf(s)
	return SetInfo{Legal: len(sp) > 0, Spectra: sp, Points: Points(s)}
}

// Compare orders a against b in spectrum sp: 1 if a is higher, -1 if
// lower, 0 if equal (both represent the same highest pure set). It is an
// error for either set not to be in sp.
func Compare(sp Spectrum, a, b Set) (int, error) {
	ka, ok := KeyIn(a, sp)
	if !ok {
		return 0, fmt.Errorf("%w: %v is not a legal set in %v", ErrBadSet, a, sp)
	}
	kb, ok := KeyIn(b, sp)
	if !ok {
		return 0, fmt.Errorf("%w: %v is not a legal set in %v", ErrBadSet, b, sp)
	}
	switch {
	case ka > kb:
		return 1, nil
	case ka < kb:
		return -1, nil
	}
	return 0, nil
}

// setsIn calls f for every legal set in spectrum sp that can be made from
// the cards of hand (each distinct set once).
func setsIn(hand Set, sp Spectrum, f func(Set)) {
	m, hj := hand.Mask(), hand.Jokers()
	emit := func(sm uint64, j int) {
		s := Set(sm) | Set(j)<<jokerShift
		if In(s, sp) {
			f(s)
		}
	}
	switch sp {
	case Aces:
		forSubsets(m&aceMask, func(sub uint64) {
			for j := 0; j <= hj; j++ {
				emit(sub, j)
			}
		})
	case Multiples:
		if hj == 2 {
			emit(0, 2)
		}
		for v := 2; v <= 14; v++ {
			forSubsets(m&rankMask(v), func(sub uint64) {
				if sub == 0 {
					return
				}
				for j := 0; j <= hj; j++ {
					emit(sub, j)
				}
			})
		}
	case Couples:
		if m&h2Bit != 0 {
			emit(h2Bit, 0)
		}
		for j := 1; j <= hj; j++ {
			emit(0, j)
		}
		faces := m & (kingMask | qMask | jMask)
		forBits(faces, func(a uint64) {
			if hj > 0 {
				emit(a, 1)
			}
			forBits(faces, func(b uint64) {
				if a < b {
					emit(a|b, 0)
				}
			})
		})
	case Runs:
		if hj == 2 {
			emit(0, 2)
		}
		for _, su := range card.Suits {
			runsFrom(m&suitMask(su), hj, emit)
		}
	}
}

// runsFrom emits candidate runs from the cards sm of one suit: every span
// from a held low card to a held high card, leaving out up to the jokers'
// worth of inner cards, with jokers for the gaps and optionally more.
func runsFrom(sm uint64, hj int, emit func(uint64, int)) {
	var idx []int
	for x := sm; x != 0; x &= x - 1 {
		idx = append(idx, bits.TrailingZeros64(x))
	}
	for a := range idx {
		for b := a; b < len(idx); b++ {
			span := (idx[b]-idx[a])/4 + 1
			held := b - a + 1
			missing := span - held
			if missing > hj {
				break
			}
			base := uint64(0)
			for k := a; k <= b; k++ {
				base |= 1 << idx[k]
			}
			inner := idx[a+1 : max(a+1, b)]
			spare := hj - missing
			emitJ := func(t uint64, holes int) {
				for j := holes; j <= hj; j++ {
					emit(t, j)
				}
			}
			emitJ(base, missing)
			if spare >= 1 {
				for x := range inner {
					emitJ(base&^(1<<inner[x]), missing+1)
					if spare >= 2 {
						for y := x + 1; y < len(inner); y++ {
							emitJ(base&^(1<<inner[x])&^(1<<inner[y]), missing+2)
						}
					}
				}
			}
		}
	}
}

func forSubsets(m uint64, f func(uint64)) {
	sub := uint64(0)
	for {
		f(sub)
		if sub == m {
			return
		}
		sub = (sub - m) & m
	}
}

func forBits(m uint64, f func(uint64)) {
	for x := m; x != 0; x &= x - 1 {
		f(x & -x)
	}
}
