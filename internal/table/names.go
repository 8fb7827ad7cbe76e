package table

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// Display names (docs/tables.md, "Names", decision): a rated person's
// display name is theirs on the leaderboard. A person may not sit under a
// name another rated person is rated under, nor under a bot level's
// name, compared without regard to case; the store keeps rated names
// unique even when two people who chose one name finish rated games at
// once (UniqueName).

// ErrNameTaken: the display name is another rated person's, or a bot
// level's.
var ErrNameTaken = errors.New("display name taken")

// FoldName is name's key for comparing display names without regard to
// case, to how an accented letter was typed (one character or a letter
// and a combining accent: Unicode NFKC, which also folds compatibility
// forms such as full-width letters), to runs of spaces, or to letters of
// another script that look like Latin ones (Unicode's confusable
// characters, UTS #39): "Ann", "ANN", "ａｎｎ", "Аnn" (a Cyrillic А) and
// "ann" fold alike, so that nobody appears on the leaderboard under a
// rated person's name or a bot level's. ASCII characters are kept as they
// are but for case: the confusables table also maps "m" to "rn" and "1"
// to "l", which would make "ann1" and "annl" one name and hide a bot
// level's name ("master") from its lookup. The fold is its own fixed
// point (FoldName(FoldName(x)) == FoldName(x)), as the stores need. The
// stores keep each rated name's fold and refold only rows without one, so
// a change here needs a store migration that clears the stored folds.
func FoldName(name string) string {
	// Ends: each round maps non-ASCII characters to their skeletons and
	// case to lower; a handful of rounds reach the fixed point (names are
	// short, and the test checks every confusable character).
	folded := name
	for range 8 {
		next := foldOnce(folded)
		if next == folded {
			break
		}
		folded = next
	}
	return folded
}

// foldOnce is one round of FoldName: NFKC, confusable characters
// outside ASCII to their skeletons, lower case, spaces, NFKC again. The
// skeleton is taken before the case is lowered: a capital such as Greek
// "Η" or Cyrillic "Н" looks like Latin "H", but its small letter ("η",
// "н") looks like no Latin small "h".
func foldOnce(name string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range norm.NFD.String(norm.NFKC.String(name)) {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case unicode.In(r, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point):
			// Invisible ("Alice" and a variation selector, or a combining
			// grapheme joiner inside): dropped, as they add nothing seen.
		case r == '\u0307' && (prev == 'i' || prev == 'j'):
			// A dot above on a dotted letter is not seen: "i\u0307" is "i".
		case r == '\u2800':
			// The braille blank shows as a space.
			b.WriteRune(' ')
		default:
			sk := confusables.Skeleton(string(r))
			if sk == "l" && unicode.IsUpper(r) {
				// The table's one letter for "I", "l" and "1" is "l", but
				// ASCII "I" is kept as "I": a capital that folds to "l"
				// (Cyrillic "І", Greek "Ι") looks like that "I".
				sk = "I"
			}
			b.WriteString(sk)
		}
		prev = r
	}
	lower := strings.Map(func(r rune) rune { return unicode.ToLower(unicode.ToUpper(r)) }, b.String())
	return norm.NFKC.String(strings.Join(strings.Fields(lower), " "))
}

// NameTakenFunc reports whether a person other than key is rated under a
// name that folds to folded (a store's lookup).
type NameTakenFunc func(folded, key string) (bool, error)

// UniqueName is the name r is stored under, and its fold: a bot's level
// as it is (fold ""); a person's name if no other person holds it, else
// the name with the first of " (2)", " (3)", ... that nobody else holds.
// The suffix is needed only when two people sat under one new name at
// once (each was free when they sat) and both finished rated games: the
// later to finish gets it. It says nothing about who they are. The name
// is shortened before the suffix to stay within MaxNameRunes, so that its
// holder can sit under it.
func UniqueName(r Rating, taken NameTakenFunc) (name, folded string, err error) {
	if r.Bot {
		return r.Name, "", nil
	}
	// Ends: each name tried is held by a different row.
	for n := 1; ; n++ {
		name = r.Name
		if n > 1 {
			suffix := fmt.Sprintf(" (%d)", n)
			base := []rune(r.Name)
			base = base[:min(len(base), max(1, MaxNameRunes-len(suffix)))]
			name = strings.TrimSpace(string(base)) + suffix
		}
		folded = FoldName(name)
		held, err := taken(folded, r.Key)
		if err != nil || !held {
			return name, folded, err
		}
	}
}

// checkName refuses (ErrNameTaken) name, cleaned, for person id when it
// is a bot level's or another rated person's; a store error is ErrStore.
func (h *Hub) checkName(ctx context.Context, id, name string) error {
	folded := FoldName(name)
	if h.validLevel(folded) {
		return fmt.Errorf("%w: %q is the name of a bot level; choose another", ErrNameTaken, name)
	}
	r, ok := h.o.Store.(Rater)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	held, err := r.NameTaken(ctx, folded, personKey(id))
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStore, err)
	}
	if held {
		return fmt.Errorf("%w: %q is another rated player's name; choose another", ErrNameTaken, name)
	}
	return nil
}

// checkNewName is checkName for a person joining under name, unless it is
// the name (but for case) they already sit under or have a seat held
// under here: a reload or a rematch is not refused because someone was
// rated under that name since.
func (l *loop) checkNewName(id, name string) error {
	s := l.seatOf(id)
	if s < 0 {
		s = l.reservedFor(id)
	}
	if s >= 0 && FoldName(l.seats[s].name) == FoldName(name) {
		return nil
	}
	return l.h.checkName(l.ctx, id, name)
}
