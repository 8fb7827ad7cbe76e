package arlington

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"cardtable/card"
)

// TestSelectionWordsAgreeWithLegal: over random games of 2 to 6 seats,
// whenever a seat leads, what the words offer each lone card of its hand
// (a joker too, and a card that is a set alone: an ace, the 2♥) is
// exactly what the legal-move checker allows that card: led as a card;
// led as a set alone, in the spectra the checker offers, with what it
// scores on a table (its best spectrum's points, whichever it is led in,
// and in two spectra the one it scores as); added to a set, put into one
// in place of a joker, the S2 on a set. Every set the checker names is named (up to three for each move,
// the rest counted) and every set the words name is one the checker
// names; and the words are the same whether or not the view holds the
// hand (they read only the tables).
func TestSelectionWordsAgreeWithLegal(t *testing.T) {
	seen := map[string]int{} // "set alone, add", "joker, add", "no set, pickup", ...
	for players := 2; players <= 6; players++ {
		names := []string{"Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"}[:players]
		randomGame(t, players, uint64(players*7+1), func(s *State, _ int, _ Action) {
			if s.Phase() != PhaseLead {
				return
			}
			seat := s.ToMove()
			v := s.View(seat)
			blind := v
			blind.Hand = nil
			allowed := checkerAllows(s, seat, names)
			for _, c := range slices.Compact(slices.Clone(v.Hand)) {
				one, _ := Set(0).With(c)
				got := SelectionWords(v, one, names)
				if b := SelectionWords(blind, one, names); b != got {
					t.Fatalf("the %s: with the hand %q, without %q", c, got, b)
				}
				said, ok := loneWordsOf(got)
				want := allowed[c]
				if !ok || !said.equal(want) {
					t.Fatalf("the %s with tables %v: %q offers %+v, but the checker allows %+v", c, v.Tables, got, said, want)
				}
				alone := "no set"
				switch {
				case c == card.Joker:
					alone = "joker"
				case Legal(one):
					alone = "set alone"
				}
				for k, n := range want.moves {
					if n.said {
						seen[fmt.Sprintf("%s, %v", alone, k)]++
					}
				}
			}
		})
	}
	for _, k := range []string{"no set, add", "no set, pickup", "no set, s2", "set alone, add", "set alone, pickup", "joker, add"} {
		if seen[k] == 0 {
			t.Errorf("no lone card (%s) could %s in the games: the test saw too little", strings.Split(k, ", ")[0], strings.Split(k, ", ")[1])
		}
	}
	t.Logf("lone cards told they could: %v", seen)
}

// checkerAllows is, for each card of seat's hand, what the legal-move
// checker lets seat do with that card alone, in the form loneWordsOf
// reads the words: the sets named as the words name them.
func checkerAllows(s *State, seat int, names []string) map[card.Card]loneWords {
	v := s.View(seat)
	sets := map[card.Card]map[Kind][]string{}
	out := map[card.Card]loneWords{}
	best := map[card.Card]int{} // the most a set alone scores in a spectrum it is led in
	for _, a := range s.Legal(seat) {
		c := a.Card
		switch a.Kind {
		case PlayS2:
			c = S2
		case PlaySet:
			if a.Set.Len() != 1 {
				continue
			}
			c = a.Set.Cards()[0]
		}
		w := out[c]
		switch a.Kind {
		case LeadCard:
			w.card = true
		case PlaySet:
			// On a table a set scores in its best spectrum, whichever
			// it was led in (rules "Scoring"): the points at the hand's
			// end (scoreHand) are Points, however it was led.
			w.spectra = append(w.spectra, SpectrumWords(a.Spectrum))
			w.points = Points(a.Set)
			if n := PointsIn(a.Set, a.Spectrum); n > best[c] {
				best[c] = n
				w.scoresAs = SpectrumWords(a.Spectrum)
			}
		case AddCard, PickUp, PlayS2:
			if sets[c] == nil {
				sets[c] = map[Kind][]string{}
			}
			sets[c][a.Kind] = append(sets[c][a.Kind], whose(v, a.Seat, names)+" set "+SetWords(s.Table(a.Seat)[a.Index]))
		}
		out[c] = w
	}
	for c, w := range out {
		if len(w.spectra) < 2 {
			w.scoresAs = "" // said only of a set in two spectra
		}
		w.moves = map[Kind]namedSets{}
		for _, k := range []Kind{AddCard, PickUp, PlayS2} {
			// As the words name them: the first three, the rest
			// counted; the S2 on several sets, "any set".
			switch targets := sets[c][k]; {
			case k == PlayS2 && len(targets) > 1:
				w.moves[k] = namedSets{said: true, any: true}
			case len(targets) > 0:
				shown := min(len(targets), 3)
				w.moves[k] = namedSets{said: true, sets: targets[:shown], others: len(targets) - shown}
			}
		}
		out[c] = w
	}
	return out
}

// loneWords is what the words for a lone card offer: card, leading it as
// a card; spectra, leading it as a set alone ("aces"), points, what that
// set scores, and, in two spectra, scoresAs, the one it scores as; moves,
// the sets it can go on, by kind of move.
type loneWords struct {
	card     bool
	spectra  []string
	points   int
	scoresAs string
	moves    map[Kind]namedSets
}

func (w loneWords) equal(o loneWords) bool {
	if w.card != o.card || !slices.Equal(w.spectra, o.spectra) || w.points != o.points || w.scoresAs != o.scoresAs {
		return false
	}
	for _, k := range []Kind{AddCard, PickUp, PlayS2} {
		a, b := w.moves[k], o.moves[k]
		if a.said != b.said || a.any != b.any || a.others != b.others || !slices.Equal(a.sets, b.sets) {
			return false
		}
	}
	return true
}

// namedSets is what the lone card's words say of one kind of move: said,
// whether they offer it at all; sets, the sets named ("Ann's set 7♠ 7♥");
// others, how many more are counted; any, the S2's "any set on the
// tables".
type namedSets struct {
	said   bool
	sets   []string
	others int
	any    bool
}

// loneWordsOf reads back what a lone card's words offer (leadAloneWords),
// in either form: "The 7♣ alone is not a set: … (lead it as a card
// instead, or add it to A, B or C, or put it into D in place of its
// joker, …, or play it on E: …)." or "The A♠ alone is a set (aces, 1
// point): lead it as a card or as that set, or add it to …." ok is false
// for words in neither form (a set's analysis, "").
func loneWordsOf(words string) (w loneWords, ok bool) {
	var parts []string
	if _, rest, found := strings.Cut(words, " alone is not a set: "); found {
		_, list, found := strings.Cut(rest, " (lead it as a card instead")
		if !found || !strings.HasSuffix(list, ").") {
			return w, false
		}
		w.card = true
		parts = strings.Split(strings.TrimSuffix(list, ")."), ", or ")[1:]
	} else if _, rest, found := strings.Cut(words, " alone is a set ("); found {
		spectra, list, found := strings.Cut(rest, "): ")
		if !found || !strings.HasSuffix(list, ".") {
			return w, false
		}
		if w.spectra, w.points, w.scoresAs, ok = spectraOf(spectra); !ok {
			return w, false
		}
		parts = strings.Split(strings.TrimSuffix(list, "."), ", or ")
		lead := parts[0]
		parts = parts[1:]
		switch {
		case lead == "lead it as a card or as that set" && len(w.spectra) == 1:
		case lead == "lead it as a card or as a set in either spectrum" && len(w.spectra) == 2:
		default:
			return w, false
		}
		w.card = true
	} else {
		return w, false
	}
	w.moves = map[Kind]namedSets{}
	for _, part := range parts {
		k, n, ok := movePart(part)
		if !ok {
			return w, false
		}
		if _, twice := w.moves[k]; twice {
			return w, false
		}
		w.moves[k] = n
	}
	return w, true
}

// spectraOf reads back the spectra and points of a set alone: "aces, 1
// point", or, in two spectra, "aces or a couple, 2 points either way: it
// scores as a couple" (scoresAs, "a couple").
func spectraOf(words string) (spectra []string, points int, scoresAs string, ok bool) {
	list, as, two := strings.Cut(words, " either way: it scores as ")
	i := strings.LastIndex(list, ", ")
	if i < 0 {
		return nil, 0, "", false
	}
	var unit string
	if n, err := fmt.Sscanf(list[i:], ", %d %s", &points, &unit); n != 2 || err != nil || unit != pointWord(points) {
		return nil, 0, "", false
	}
	spectra = strings.Split(list[:i], " or ")
	if two != (len(spectra) == 2) {
		return nil, 0, "", false
	}
	return spectra, points, as, true
}

// movePart reads one move the lone card's words offer ("add it to A, B
// or one other set").
func movePart(part string) (Kind, namedSets, bool) {
	var k Kind
	var list string
	switch {
	case strings.HasPrefix(part, "add it to "):
		k, list = AddCard, strings.TrimPrefix(part, "add it to ")
	case strings.HasPrefix(part, "put it into "):
		k = PickUp
		list, _, _ = strings.Cut(strings.TrimPrefix(part, "put it into "), " in place of ")
	case strings.HasPrefix(part, "play it on "):
		k = PlayS2
		list, _, _ = strings.Cut(strings.TrimPrefix(part, "play it on "), ": both go")
	default:
		return k, namedSets{}, false
	}
	n := namedSets{said: true}
	if k == PlayS2 && list == "any set on the tables" {
		n.any = true
		return k, n, true
	}
	if rest, ok := strings.CutSuffix(list, " or one other set"); ok {
		list, n.others = rest, 1
	} else if j := strings.LastIndex(list, " or one of "); j >= 0 && strings.HasSuffix(list, " other sets") {
		if _, err := fmt.Sscanf(list[j:], " or one of %d other sets", &n.others); err != nil {
			return k, n, false
		}
		list = list[:j]
	} else if j := strings.LastIndex(list, " or "); j >= 0 {
		list = list[:j] + ", " + list[j+len(" or "):]
	}
	n.sets = strings.Split(list, ", ")
	return k, n, true
}
