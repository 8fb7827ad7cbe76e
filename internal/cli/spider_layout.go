package cli

import (
	"fmt"
	"regexp"
	"strings"

	"cardtable/card"
	"cardtable/spider"
)

// Reading a layout file (--layout of spider solve and autoplay), and
// telling what is wrong with one in words that lead to the fix.

// tableauHeader is the first line of the tableau the terminal prints
// ("Arachnid, 4 suits, deal 617   score 0   moves 0   stock 50 ...").
var tableauHeader = regexp.MustCompile(`^(Arachnid|Spider), .*   score -?\d+.*   moves \d+   stock \d+`)

// readLayout reads the position in the layout file path for a game of
// options o.
func readLayout(path string, o spider.Options) (*spider.Position, error) {
	b, err := readInputFile(path, maxLayout, "a layout file")
	if err != nil {
		return nil, err
	}
	text := string(b)
	p, err := spider.ParseLayout(text, spider.Rules{Suits: o.Suits, Relaxed: o.Relaxed})
	if err == nil {
		return p, nil
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(text, "\ufeff"), "\n")
	if strings.TrimSpace(first) == spider.SaveHeader {
		// A save given where a layout goes: say which flag reads it.
		return nil, fmt.Errorf("%w: %s is a saved game, not a layout: read it with --load", errUsage, path)
	}
	if tableauHeader.MatchString(first) {
		// The picture spider new and play print, kept in a file:
		// it hides the face-down cards, so it cannot be a layout.
		return nil, fmt.Errorf("%w: %s is the tableau as spider new and play print it, not a layout: "+
			"a layout lists every card, pile1: to pile10: and the stock's rows (docs/formats.md, \"Spider layout\")", errUsage, path)
	}
	// A layout does not say its suit count: one whose suits are another
	// count's needs --suits, and the list of every card wrong for this
	// count (fifty for a 1-suit layout read as 4 suits) would hide that.
	// The hint names the count that leaves the fewest wrong cards, not
	// the fewest suits that hold every suit named: one card mistyped as a
	// suit not in play would else ask for 4 suits, fifty cards wrong, for
	// a 2-suit layout with one. It is given only when that count reads
	// the layout, or leaves fewer wrong cards than --suits, so that a
	// right --suits keeps the error that names the card.
	// A fault that reads the same under the count named (a pile cut
	// short, a pile missing: a file cut short) is no matter of suits, and
	// its missing cards would make any count seem to fit better: it is
	// told alone.
	counts := layoutCards(text)
	if len(counts) > 0 {
		if best, err2 := bestSuits(text, counts, o); best != o.Suits && (err2 == nil || err2.Error() != err.Error()) {
			n, names := layoutSuits(counts)
			msg := fmt.Sprintf("%s holds %s, the suits of a %d-suit game, not a %d-suit one: give --suits %d", path, names, n, o.Suits, best)
			if n != best {
				msg = fmt.Sprintf("%s holds %s, but its cards fit a %d-suit game best, not a %d-suit one: give --suits %d", path, names, best, o.Suits, best)
			}
			if err2 == nil {
				return nil, fmt.Errorf("%w: %s", errUsage, msg)
			}
			return nil, fmt.Errorf("%w: %s (with it, still: %w)", errUsage, msg, err2)
		}
	}
	return nil, fmt.Errorf("%w: %s: %w", errUsage, path, err)
}

// bestSuits is the suit count (1, 2 or 4) the layout text, whose cards
// are counts, fits best, and the error reading it with that count gives
// (nil: none). Best is the fewest wrong cards; of counts as good, one
// that reads the layout, then --suits (o.Suits: no hint), then the
// fewest suits. A count other than o.Suits is named only if it reads
// the layout or leaves fewer wrong cards than o.Suits; else o.Suits.
func bestSuits(text string, counts map[card.Card]int, o spider.Options) (int, error) {
	best, bestWrong, bestErr := 0, 0, error(nil)
	for i, n := range []int{o.Suits, 1, 2, 4} {
		if i > 0 && n == o.Suits {
			continue // weighed first
		}
		_, err := spider.ParseLayout(text, spider.Rules{Suits: n, Relaxed: o.Relaxed})
		w := wrongCards(counts, n)
		if best == 0 || w < bestWrong || w == bestWrong && err == nil && bestErr != nil {
			best, bestWrong, bestErr = n, w, err
		}
	}
	return best, bestErr
}

// layoutCards counts the cards a layout's piles, rows and completed suits
// (thirteen cards each) name. A word that is no card is left to
// ParseLayout to refuse.
func layoutCards(text string) map[card.Card]int {
	counts := map[card.Card]int{}
	for line := range strings.Lines(text) {
		key, val, ok := strings.Cut(line, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || !strings.HasPrefix(key, "pile") && !strings.HasPrefix(key, "row") && key != "completed" {
			continue
		}
		for _, w := range strings.Fields(val) {
			if key == "completed" {
				// A suit alone: a run of it, ace to king.
				if c, err := card.Parse("A" + w); err == nil && !c.IsJoker() {
					for r := card.Ace; r <= card.King; r++ {
						counts[card.New(r, c.Suit())]++
					}
				}
				continue
			}
			if c, err := card.Parse(strings.TrimPrefix(w, "|")); err == nil && !c.IsJoker() {
				counts[c]++
			}
		}
	}
	return counts
}

// wrongCards is how many cards the counts hold a wrong number of for a
// game of suits suits, as spider's layout check counts them: each card of
// the game's deck as often as the deck has it, and no other card.
func wrongCards(counts map[card.Card]int, suits int) int {
	want := map[card.Card]int{}
	for _, c := range card.SpiderDeck(suits) {
		want[c]++
	}
	wrong := 0
	for _, s := range card.Suits {
		for r := card.Ace; r <= card.King; r++ {
			if c := card.New(r, s); counts[c] != want[c] {
				wrong++
			}
		}
	}
	return wrong
}

// layoutSuits is the fewest suits in play that hold every suit a layout's
// cards name (1: spades alone, 2: spades and hearts, else 4), and those
// suits in words; 0 when it names no card.
func layoutSuits(counts map[card.Card]int) (int, string) {
	var seen [4]bool
	for c, n := range counts {
		if n > 0 {
			seen[c.Suit()] = true
		}
	}
	var names []string
	for _, s := range []card.Suit{card.Spades, card.Hearts, card.Diamonds, card.Clubs} {
		if seen[s] {
			names = append(names, s.Name())
		}
	}
	switch {
	case len(names) == 0:
		return 0, ""
	case !seen[card.Clubs] && !seen[card.Diamonds] && !seen[card.Hearts]:
		return 1, "spades alone"
	case !seen[card.Clubs] && !seen[card.Diamonds]:
		return 2, inWords(names)
	}
	return 4, inWords(names)
}
