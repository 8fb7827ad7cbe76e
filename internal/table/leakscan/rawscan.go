package leakscan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
)

// cardNames finds a card named in a string, in either form a message
// may use: the code ("AD", "TS", "JK", as JSON carries cards) or the
// words people read (arlington.CardWords: "A♦", "10♠", "joker", as the
// log writes them). It matches within decoded strings, so a name right
// after an escape (\n, \u003c) is found.
var cardNames, cardOfWords = func() (*regexp.Regexp, map[string]card.Card) {
	words := map[string]card.Card{}
	var alts []string
	add := func(c card.Card) {
		w := arlington.CardWords(c)
		words[strings.ToLower(w)] = c
		q := regexp.QuoteMeta(w)
		if c == card.Joker { // a word: whole, any case, and "jokers" too
			q = `(?i:\b` + q + `s?\b)`
		}
		alts = append(alts, q)
	}
	for s := range 4 {
		for r := card.Ace; r <= card.King; r++ {
			add(card.New(r, card.Suit(s)))
		}
	}
	add(card.Joker)
	// Longest first, so "10♠" is not read as a shorter name.
	slices.SortStableFunc(alts, func(a, b string) int { return len(b) - len(a) })
	codes := `\b(?:[2-9TJQKA][CDHS]|JK)\b`
	return regexp.MustCompile(codes + "|" + strings.Join(alts, "|")), words
}()

// namedCard is the card a cardNames match names.
func namedCard(m string) (card.Card, bool) {
	low := strings.ToLower(m)
	if strings.HasPrefix(low, "joker") {
		return card.Joker, true
	}
	if c, ok := cardOfWords[low]; ok {
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
	for _, m := range cardNames.FindAllString(s, -1) {
		c, ok := namedCard(m)
		if ok && !sc.ever.Has(c) {
			return fmt.Errorf("the message names %v (%q) in %s, never known to seat %d", c, m, where(path), sc.seat)
		}
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
