package card

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrBadDeal is wrapped by errors about deal numbers; ErrBadSuits by errors
// about Spider suit counts.
var (
	ErrBadDeal  = errors.New("bad deal")
	ErrBadSuits = errors.New("bad suit count")
)

// MaxDeal is the largest deal number.
const MaxDeal = ^uint64(0)

// ParseDeal reads a deal number, 1 to 2^64-1. A leading '#' is allowed.
func ParseDeal(s string) (uint64, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "#")
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%w %q: a deal number is a whole number from 1 to %d", ErrBadDeal, s, MaxDeal)
	}
	return n, nil
}

// CheckSuits reports an error unless n is a Spider suit count: 1, 2 or 4.
func CheckSuits(n int) error {
	if n != 1 && n != 2 && n != 4 {
		return fmt.Errorf("%w: suits must be 1, 2 or 4, not %d", ErrBadSuits, n)
	}
	return nil
}

// SpiderDeck is the 104 cards of two decks in PySolFC's unshuffled order:
// for each deck, for each suit slot, Ace to King. The slots are clubs,
// spades, hearts, diamonds for four suits; for fewer suits PySolFC repeats
// clubs where we use spades (spades, spades, hearts, hearts for two suits;
// spades only for one).
func SpiderDeck(suits int) [104]Card {
	var slots [4]Suit
	switch suits {
	case 1:
		slots = [4]Suit{Spades, Spades, Spades, Spades}
	case 2:
		slots = [4]Suit{Spades, Spades, Hearts, Hearts}
	default:
		slots = [4]Suit{Clubs, Spades, Hearts, Diamonds}
	}
	var d [104]Card
	i := 0
	for range 2 {
		for _, s := range slots {
			for r := Ace; r <= King; r++ {
				d[i] = New(r, s)
				i++
			}
		}
	}
	return d
}

// SpiderDeal returns the 104 cards of Spider deal n in the order they are
// dealt, first dealt first: the same cards as PySolFC's game n.
//
// PySolFC shuffles with Microsoft FreeCell's generator for numbers below
// 32000 and with Python's Mersenne Twister above; its Fisher-Yates runs from
// the end of the list, and cards are dealt from the end of the shuffled list.
func SpiderDeal(n uint64, suits int) [104]Card {
	d := SpiderDeck(suits)
	if n < 32000 {
		g := msRandom{seed: n}
		for i := 103; i > 0; i-- {
			j := g.next() % uint64(i+1)
			d[i], d[j] = d[j], d[i]
		}
	} else {
		g := newPythonRandom(n)
		for i := 103; i > 0; i-- {
			j := int(g.random() * float64(i+1))
			d[i], d[j] = d[j], d[i]
		}
	}
	var out [104]Card
	for i := range d {
		out[i] = d[103-i]
	}
	return out
}

// msRandom is Microsoft FreeCell's linear congruential generator as PySolFC
// runs it, with a 33-bit state.
type msRandom struct{ seed uint64 }

func (g *msRandom) next() uint64 {
	g.seed = (g.seed*214013 + 2531011) & (1<<33 - 1)
	return g.seed >> 16 & 0x7fff
}

// pythonRandom is MT19937 seeded the way CPython's random.Random(n) seeds
// it from a non-negative integer (init_by_array over its 32-bit words).
type pythonRandom struct {
	mt  [624]uint32
	idx int
}

func newPythonRandom(n uint64) *pythonRandom {
	key := []uint32{uint32(n)}
	if n>>32 != 0 {
		key = append(key, uint32(n>>32))
	}
	g := &pythonRandom{}
	g.initGenrand(19650218)
	i, j := 1, 0
	k := max(624, len(key))
	for ; k > 0; k-- {
		g.mt[i] = (g.mt[i] ^ ((g.mt[i-1] ^ g.mt[i-1]>>30) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= 624 {
			g.mt[0] = g.mt[623]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = 623; k > 0; k-- {
		g.mt[i] = (g.mt[i] ^ ((g.mt[i-1] ^ g.mt[i-1]>>30) * 1566083941)) - uint32(i)
		i++
		if i >= 624 {
			g.mt[0] = g.mt[623]
			i = 1
		}
	}
	g.mt[0] = 0x80000000
	return g
}

func (g *pythonRandom) initGenrand(s uint32) {
	g.mt[0] = s
	for i := 1; i < 624; i++ {
		g.mt[i] = 1812433253*(g.mt[i-1]^g.mt[i-1]>>30) + uint32(i)
	}
	g.idx = 624
}

func (g *pythonRandom) uint32() uint32 {
	if g.idx >= 624 {
		for i := range 624 {
			y := g.mt[i]&0x80000000 | g.mt[(i+1)%624]&0x7fffffff
			v := g.mt[(i+397)%624] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			g.mt[i] = v
		}
		g.idx = 0
	}
	y := g.mt[g.idx]
	g.idx++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// random is CPython's random(): 53 random bits in [0, 1).
func (g *pythonRandom) random() float64 {
	a := g.uint32() >> 5
	b := g.uint32() >> 6
	return (float64(a)*67108864 + float64(b)) * (1.0 / 9007199254740992.0)
}

// RandomDeal turns a random 64-bit value into the number of a new random
// deal: 1 to 999,999,999. Nine digits are easy to read out and share while
// giving a billion deals; any larger number can still be typed. The caller
// brings the randomness, so this package stays free of it.
func RandomDeal(r uint64) uint64 { return 1 + r%999_999_999 }
