package arlington

import (
	"fmt"
	"slices"
	"strings"

	"cardtable/card"
)

// This file puts the game in words a person reads: the public events as
// a table's log tells them ("Ann leads the set 7♠ 7♥ 7♦ (of a kind)"),
// the actions a player may take as buttons name them, and why a group of
// cards is not a set. The web page and the terminal share it, so the game
// is told the same way everywhere (docs/arlington-page.md).

var suitSymbols = [4]string{"♣", "♦", "♥", "♠"}

// CardWords is c as people write it: "7♠", "10♥", "joker".
func CardWords(c card.Card) string {
	if c == card.Joker {
		return "joker"
	}
	if !c.Valid() {
		return c.String()
	}
	r := c.Rank().String()
	if c.Rank() == card.Ten {
		r = "10"
	}
	return r + suitSymbols[c.Suit()]
}

// SetWords is the cards of s in CardWords, highest first, jokers last.
func SetWords(s Set) string {
	cs := s.Cards()
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = CardWords(c)
	}
	return strings.Join(out, " ")
}

// SpectrumWords is how a player names a spectrum: "aces", "of a kind"
// (the rules' Multiples), "a couple", "a run".
func SpectrumWords(sp Spectrum) string {
	switch sp {
	case Aces:
		return "aces"
	case Multiples:
		return "of a kind"
	case Couples:
		return "a couple"
	case Runs:
		return "a run"
	}
	return sp.String()
}

// Narrator tells a game's public events in words, in order. It keeps
// what an onlooker keeps in mind to tell them: the sets on each table (an
// added card names the set it went to) and whose set is active.
type Narrator struct {
	names  []string
	tables [][]Set
	owner  int
	told   int
}

// NewNarrator tells a game of len(names) seats; names[i] is seat i's name.
func NewNarrator(names []string) *Narrator {
	return &Narrator{names: slices.Clone(names), tables: make([][]Set, len(names))}
}

// Told is how many events the narrator has told: the next one it expects
// is number Told.
func (n *Narrator) Told() int { return n.told }

// SetNames changes the seats' names (a person took a seat).
func (n *Narrator) SetNames(names []string) {
	if len(names) == len(n.names) {
		copy(n.names, names)
	}
}

func (n *Narrator) name(seat int) string {
	if seat >= 0 && seat < len(n.names) && n.names[seat] != "" {
		return n.names[seat]
	}
	return fmt.Sprintf("seat %d", seat+1)
}

// set is seat's set i, or 0 if the narrator never saw it.
func (n *Narrator) set(seat, i int) Set {
	if seat < 0 || seat >= len(n.tables) || i < 0 || i >= len(n.tables[seat]) {
		return 0
	}
	return n.tables[seat][i]
}

// CutCardWords names a card cut for the first deal as the log does:
// "the K♠", "a joker".
func CutCardWords(c card.Card) string {
	if c == card.Joker {
		return "a joker"
	}
	return "the " + CardWords(c)
}

// cutWords tells the cut for the first deal: "Ann cut the K♠, Bob the
// 7♥ and Cleo a joker".
func (n *Narrator) cutWords(cut []card.Card) string {
	parts := make([]string, len(cut))
	for i, c := range cut {
		w := CutCardWords(c)
		if i == 0 {
			parts[i] = n.name(i) + " cut " + w
		} else {
			parts[i] = n.name(i) + " " + w
		}
	}
	list := parts[0]
	if len(parts) > 1 {
		list = strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	return list
}

// Tell is event e in words, one sentence. Events must come in order, each
// once: the words of an add or a kill name sets placed earlier.
func (n *Narrator) Tell(e Event) string {
	n.told = e.N + 1
	who := n.name(e.Seat)
	switch e.Kind {
	case EventDeal:
		for i := range n.tables {
			n.tables[i] = nil
		}
		if len(e.Cut) > 0 {
			// The first deal: who cut what, and so who deals ("The Hand").
			who = n.cutWords(e.Cut) + ", so " + who + ", with the highest suit card,"
		}
		return fmt.Sprintf("Hand %d: %s deals %d cards each; %s has the lead.", e.Hand, who, HandSize, n.name((e.Seat+1)%max(1, len(n.names))))
	case EventTake:
		won := e.ToGrave.Cards()
		s := fmt.Sprintf("%s takes the trick", who)
		if len(won) == 1 {
			s += " with the " + CardWords(won[0])
		}
		if e.ToHand.Empty() {
			return s + "; no other cards were played."
		}
		verb := "go"
		if e.ToHand.Len() == 1 {
			verb = "goes"
		}
		return s + fmt.Sprintf(": %s %s to %s's hand.", SetWords(e.ToHand), verb, who)
	case EventScore:
		for i := range n.tables { // scored sets go to the graveyard
			n.tables[i] = nil
		}
		parts := make([]string, len(e.Scores))
		for i, p := range e.Scores {
			parts[i] = fmt.Sprintf("%s %d", n.name(i), p)
		}
		return fmt.Sprintf("Hand %d is scored: %s.", e.Hand, strings.Join(parts, ", "))
	case EventMove:
		return n.tellMove(e, who)
	}
	return fmt.Sprintf("%s: %v", who, e.Kind)
}

func (n *Narrator) tellMove(e Event, who string) string {
	a := e.Action
	switch a.Kind {
	case LeadCard:
		return fmt.Sprintf("%s leads the %s.", who, CardWords(a.Card))
	case PlayCard:
		return fmt.Sprintf("%s plays the %s.", who, CardWords(a.Card))
	case PlaySet:
		defer func() {
			n.tables[e.Seat] = append(n.tables[e.Seat], a.Set)
			n.owner = e.Seat
		}()
		if e.ToGrave.Empty() { // a lead: a response always replaces a set
			return fmt.Sprintf("%s leads the set %s (%s).", who, SetWords(a.Set), SpectrumWords(a.Spectrum))
		}
		old := n.popActive()
		return fmt.Sprintf("%s answers with the higher set %s (%s); %s's %s go to the graveyard.",
			who, SetWords(a.Set), SpectrumWords(a.Spectrum), n.name(old), SetWords(e.ToGrave))
	case Pass:
		return fmt.Sprintf("%s passes.", who)
	case Kill:
		old := n.popActive()
		killed, _ := e.ToGrave.Without(S2)
		return fmt.Sprintf("%s kills it with the S2: %s's %s and the S2 go to the graveyard; %s has the lead.",
			who, n.name(old), SetWords(killed), who)
	case PlayS2:
		if t := n.set(a.Seat, a.Index); t != 0 {
			n.tables[a.Seat] = slices.Delete(n.tables[a.Seat], a.Index, a.Index+1)
		}
		killed, _ := e.ToGrave.Without(S2)
		return fmt.Sprintf("%s plays the S2 on %s's set %s: both go to the graveyard.", who, n.name(a.Seat), SetWords(killed))
	case AddCard:
		t := n.set(a.Seat, a.Index)
		if t != 0 {
			n.tables[a.Seat][a.Index], _ = t.With(a.Card)
		}
		return fmt.Sprintf("%s adds the %s to %s's set %s.", who, CardWords(a.Card), n.name(a.Seat), SetWords(t))
	case PickUp:
		t := n.set(a.Seat, a.Index)
		if t != 0 {
			u, _ := t.Without(card.Joker)
			n.tables[a.Seat][a.Index], _ = u.With(a.Card)
		}
		return fmt.Sprintf("%s puts the %s into %s's set %s and takes its joker into hand.", who, CardWords(a.Card), n.name(a.Seat), SetWords(t))
	}
	return fmt.Sprintf("%s: %v.", who, a)
}

// popActive takes the active set off its owner's table and says whose.
func (n *Narrator) popActive() int {
	o := n.owner
	if o >= 0 && o < len(n.tables) && len(n.tables[o]) > 0 {
		n.tables[o] = n.tables[o][:len(n.tables[o])-1]
	}
	return o
}

// ActionWords is action a as a button offers it to the player whose view
// v is, in the imperative: "Lead the set 7♠ 7♥ (of a kind)". names[i] is
// seat i's name; the player's own sets are "your".
func ActionWords(v View, a Action, names []string) string {
	target := func() string {
		if a.Seat < 0 || a.Seat >= len(v.Tables) || a.Index < 0 || a.Index >= len(v.Tables[a.Seat]) {
			return whose(v, a.Seat, names) + " set"
		}
		return whose(v, a.Seat, names) + " " + SetWords(v.Set(a.Seat, a.Index))
	}
	switch a.Kind {
	case LeadCard:
		return "Lead the " + CardWords(a.Card)
	case PlayCard:
		return "Play the " + CardWords(a.Card)
	case PlaySet:
		if v.Phase == PhaseRound {
			return fmt.Sprintf("Answer with %s (%s)", SetWords(a.Set), SpectrumWords(a.Spectrum))
		}
		return fmt.Sprintf("Lead the set %s (%s)", SetWords(a.Set), SpectrumWords(a.Spectrum))
	case Pass:
		return "Pass"
	case Kill:
		return "Kill it with the S2"
	case PlayS2:
		return "Play the S2 on " + target()
	case AddCard:
		return fmt.Sprintf("Add the %s to %s", CardWords(a.Card), target())
	case PickUp:
		return fmt.Sprintf("Put the %s into %s, take the joker", CardWords(a.Card), target())
	}
	return a.String()
}

// whose is seat's possessive as the player of view v reads it: "your",
// "Ann's", or "seat 2's" for a seat without a name.
func whose(v View, seat int, names []string) string {
	if seat == v.Seat {
		return "your"
	}
	if seat >= 0 && seat < len(names) && names[seat] != "" {
		return names[seat] + "'s"
	}
	return fmt.Sprintf("seat %d's", seat+1)
}

// WhyNotSet says why s is not a legal set, in a sentence that names the
// rule it breaks ("" when s is a legal set).
func WhyNotSet(s Set) string {
	if Legal(s) {
		return ""
	}
	if s.Empty() {
		return "No cards are selected."
	}
	suit := s.Cards()[:s.Len()-s.Jokers()]
	j := s.Jokers()
	ranks := map[card.Rank]bool{}
	suits := map[card.Suit]bool{}
	for _, c := range suit {
		ranks[c.Rank()] = true
		suits[c.Suit()] = true
	}
	const spectra = " A set is cards of one rank (of a kind; aces of any number), a run of one suit, a king and queen or a queen and jack (a couple), or the 2♥ alone; a joker stands for a card not in the set."
	switch {
	case len(suit) == 1 && j == 0:
		return aloneWords(suit[0]) + "."
	case len(ranks) == 1:
		// Illegal only with more cards than the rank has: 3 or 4 of
		// its suit cards and 2 or 1 jokers.
		if left := 4 - len(suit); left > 0 {
			return fmt.Sprintf("Not a set: a joker must stand for a card not in the set, and two jokers for two different ones; with %d of the four %s in it, only %d is left for %d jokers (rule \"Jokered Sets\").",
				len(suit), rankPlural(suit[0].Rank()), left, j)
		}
		return fmt.Sprintf("Not a set: a joker must stand for a card not in the set, and with all four %s in it none is left for a joker (rule \"Jokered Sets\").",
			rankPlural(suit[0].Rank()))
	case len(suits) == 1:
		lo, hi := 14, 0
		for r := range ranks {
			v := value(card.New(r, card.Clubs))
			lo, hi = min(lo, v), max(hi, v)
		}
		gaps := hi - lo + 1 - len(ranks)
		if gaps <= j { // the jokers fill the gaps, but the suit has no cards left for the others
			return fmt.Sprintf("Not a run: a joker must stand for a card not in the set, and %d %s with %d joker(s) are more cards than the 13 of a suit (rule \"Jokered Sets\").",
				len(suit), suit[0].Suit().Name(), j)
		}
		if ranks[card.Ace] && ranks[card.Two] {
			// Not "never in one run": all thirteen of a suit are a run.
			// After the jokers' check: with every gap filled the fault
			// is too many cards, not a missing one.
			return fmt.Sprintf("Not a run: aces are high, not next to the 2, so a run with both holds every rank of its suit; %d missing, and %d joker(s) to fill them (rule \"Runs\").",
				gaps, j)
		}
		return fmt.Sprintf("Not a run: the ranks of one suit must be consecutive; %d missing between %s and %s, and %d joker(s) to fill them (rule \"Runs\").",
			gaps, CardWords(valueCard(lo, suit[0].Suit())), CardWords(valueCard(hi, suit[0].Suit())), j)
	}
	return "Not a set: these cards are not of one rank, not a run of one suit and not a couple (rule \"Sets\")." + spectra
}

// aloneWords is why one card is not a set, without a full stop: what
// follows depends on what the player is doing.
func aloneWords(c card.Card) string {
	return fmt.Sprintf("The %s alone is not a set: a single card is a set only when it is an ace, the 2♥ or a joker", CardWords(c))
}

// valueCard is the card of Arlington value v (2..14, ace high) in suit s.
func valueCard(v int, s card.Suit) card.Card {
	if v == 14 {
		return card.New(card.Ace, s)
	}
	return card.New(card.Rank(v), s)
}

func rankPlural(r card.Rank) string {
	names := [...]string{"", "aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings"}
	return names[r]
}
