package leakscan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
)

// cardWords maps each card's words (arlington.CardWords: "A♦", "10♠",
// "joker"), in lower case, to the card.
var cardWords = func() map[string]card.Card {
	words := map[string]card.Card{"joker": card.Joker}
	for s := range 4 {
		for r := card.Ace; r <= card.King; r++ {
			c := card.New(r, card.Suit(s))
			words[strings.ToLower(arlington.CardWords(c))] = c
		}
	}
	return words
}()

// cardNames calls yield with each card named in s, left to right, in
// either form a message may use: the code ("AD", "TS", "JK", as JSON
// carries cards, a word of its own) or the words people read
// (arlington.CardWords: "A♦", "10♠", anywhere; "joker" or "jokers", a
// word of its own in any case). It reads decoded strings, so a name right
// after an escape (\n, \u003c) is found. It finds what a regular
// expression of those names would (the test holds one to compare), by a
// hand-written scan: the expression took most of a leak scan's time.
func cardNames(s string, yield func(name string) bool) {
	for i := 0; i < len(s); {
		n := nameAt(s, i)
		if n == 0 {
			i++
			continue
		}
		if !yield(s[i : i+n]) {
			return
		}
		i += n
	}
}

// nameAt is the length in bytes of the card name starting at s[i], or 0.
func nameAt(s string, i int) int {
	if wordAt(s, i-1) {
		// A code or "joker" needs a word's start; the words people read do not.
		return wordsAt(s, i)
	}
	if i+2 <= len(s) && !wordAt(s, i+2) {
		r, su := s[i], s[i+1]
		if strings.IndexByte("23456789TJQKA", r) >= 0 && strings.IndexByte("CDHS", su) >= 0 || r == 'J' && su == 'K' {
			return 2
		}
	}
	if n := jokerAt(s, i); n > 0 {
		return n
	}
	return wordsAt(s, i)
}

// wordAt reports whether s[j] is an ASCII word character, as regexp's
// \b reads one; outside s is not.
func wordAt(s string, j int) bool {
	if j < 0 || j >= len(s) {
		return false
	}
	b := s[j]
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// suitWords are the suits' symbols as arlington.CardWords writes them.
var suitWords = func() (out [4]string) {
	for s := range out {
		out[s] = strings.TrimPrefix(arlington.CardWords(card.New(card.Ace, card.Suit(s))), "A")
	}
	return out
}()

// wordsAt is the length of a card's words ("10♠", "A♦") at s[i], or 0.
func wordsAt(s string, i int) int {
	r := 1
	if strings.HasPrefix(s[i:], "10") {
		r = 2
	} else if strings.IndexByte("A23456789JQK", s[i]) < 0 {
		return 0
	}
	for _, sym := range suitWords {
		if strings.HasPrefix(s[i+r:], sym) {
			return r + len(sym)
		}
	}
	return 0
}

// jokerAt is the length of "joker" or "jokers" at s[i] in any case, as
// regexp's (?i) folds letters (the Kelvin sign for k, the long s for s),
// with a word ending after it, or 0.
func jokerAt(s string, i int) int {
	j := i
	for _, want := range "joker" {
		r, n := utf8.DecodeRuneInString(s[j:])
		if n == 0 || !strings.EqualFold(string(r), string(want)) {
			return 0
		}
		j += n
	}
	if r, n := utf8.DecodeRuneInString(s[j:]); n > 0 && strings.EqualFold(string(r), "s") {
		// A word ends after the s if what follows differs in being a word
		// character (the long s is not one).
		if (r < utf8.RuneSelf) != wordAt(s, j+n) {
			return j + n - i
		}
	}
	if wordAt(s, j) {
		return 0
	}
	return j - i
}

// namedCard is the card a cardNames match names.
func namedCard(m string) (card.Card, bool) {
	low := strings.ToLower(m)
	if strings.HasPrefix(low, "joker") {
		return card.Joker, true
	}
	if c, ok := cardWords[low]; ok {
		return c, true
	}
	c, err := card.Parse(m)
	return c, err == nil
}

// scanRaw: every card named in any string of the message (keys too)
// must be one the receiver has seen in some hand, and the seed is in no
// string or number before the game is over. Three things are left out:
// the chat (people may type card names), each event's cut and, in the
// first deal's log line, the words of that cut (checkCut checks the cut,
// seat by seat, and cutWords that the line tells that cut). A message
// with a key twice in one object is refused: a decoder keeps one of the
// two, and the other would go unchecked.
func (k *Knowledge) scanRaw(seat int, m Moment, u table.Update, raw []byte) error {
	if raw == nil {
		u.Chat = nil
		var err error
		if raw, err = json.Marshal(u); err != nil {
			return err
		}
	}
	firstDeal := -1
	for i, e := range u.View.Events {
		if e.Kind == arlington.EventDeal && e.Hand == 1 {
			firstDeal = i
		}
	}
	sc := &rawScan{dec: json.NewDecoder(strings.NewReader(string(raw))), ever: m.Ever(seat), seat: seat}
	if !m.Over {
		sc.seed = strconv.FormatUint(k.Seed, 10)
	}
	sc.dec.UseNumber()
	sc.text = func(path []string, s string) error {
		if firstDeal >= 0 && slices.Equal(path, []string{"log", strconv.Itoa(firstDeal)}) {
			var err error
			if s, err = k.withoutCutWords(s); err != nil {
				return err
			}
		}
		return sc.names(path, s)
	}
	if err := sc.value(nil); err != nil {
		return err
	}
	if _, err := sc.dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("the message goes on after its JSON value")
	}
	return nil
}

// withoutCutWords is the first deal's log line without the words of each
// seat's cut card, in seat order ("the K♠", "a joker"); an error if the
// line does not tell them all.
func (k *Knowledge) withoutCutWords(line string) (string, error) {
	rest, out := line, ""
	for i, c := range k.Cut {
		w := arlington.CutCardWords(c)
		j := strings.Index(rest, w)
		if j < 0 {
			return "", fmt.Errorf("the first deal's words %q do not tell seat %d's cut, %s", line, i, w)
		}
		out += rest[:j] + " "
		rest = rest[j+len(w):]
	}
	return out + rest, nil
}

// rawScan walks a message's JSON, token by token.
type rawScan struct {
	dec  *json.Decoder
	ever arlington.Set
	seat int
	seed string // "" once the game is over
	text func(path []string, s string) error
}

// skipped: the chat and each event's cut.
func skipped(path []string) bool {
	if len(path) == 1 && path[0] == "chat" {
		return true
	}
	return len(path) == 4 && path[0] == "view" && path[1] == "events" && path[3] == "cut"
}

// value scans the next JSON value, found at path.
func (sc *rawScan) value(path []string) error {
	if skipped(path) {
		var skip json.RawMessage
		return sc.dec.Decode(&skip)
	}
	tok, err := sc.dec.Token()
	if err != nil {
		return fmt.Errorf("the message is not JSON: %w", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			for i := 0; sc.dec.More(); i++ {
				if err := sc.value(append(path, strconv.Itoa(i))); err != nil {
					return err
				}
			}
		} else {
			seen := map[string]bool{}
			for sc.dec.More() {
				kt, err := sc.dec.Token()
				if err != nil {
					return fmt.Errorf("the message is not JSON: %w", err)
				}
				key := kt.(string)
				// Go's decoder takes a key whatever its case (folded as
				// strings.EqualFold does: "ſ" is "s"), so "Cut" after "cut"
				// would overwrite it unseen by the typed checks.
				folded := strings.ToLower(strings.ToUpper(key))
				if seen[folded] {
					return fmt.Errorf("the message has the key %q twice in %s", key, where(path))
				}
				seen[folded] = true
				if err := sc.names(path, key); err != nil {
					return err
				}
				if err := sc.value(append(path, key)); err != nil {
					return err
				}
			}
		}
		_, err = sc.dec.Token() // the closing ] or }
		return err
	case string:
		return sc.text(path, t)
	case json.Number:
		return sc.names(path, t.String())
	}
	return nil
}

// names checks one string of the message at path.
func (sc *rawScan) names(path []string, s string) error {
	var err error
	cardNames(s, func(m string) bool {
		if c, ok := namedCard(m); ok && !sc.ever.Has(c) {
			err = fmt.Errorf("the message names %v (%q) in %s, never known to seat %d", c, m, where(path), sc.seat)
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	if sc.seed != "" && strings.Contains(s, sc.seed) {
		return fmt.Errorf("the message holds the seed in %s before the game is over", where(path))
	}
	return nil
}

func where(path []string) string {
	if len(path) == 0 {
		return "the message"
	}
	return strings.Join(path, ".")
}
