package arlington

import (
	"errors"
	"fmt"

	"cardtable/card"
)

// Config is a table's settings.
type Config struct {
	Players int `json:"players"` // 2 to 6
	Target  int `json:"target"`  // total that ends the game; 0 means 32
}

// DefaultTarget is the total of "The Game": 32.
const DefaultTarget = 32

// HandSize is the number of cards dealt to each player ("The Hand").
const HandSize = 8

func (c Config) normalized() (Config, error) {
	if c.Players < 2 || c.Players > MaxSeats {
		return c, fmt.Errorf("%w: Arlington is for 2 to 6 players, not %d", ErrConfig, c.Players)
	}
	if c.Target == 0 {
		c.Target = DefaultTarget
	}
	if c.Target < 1 {
		return c, fmt.Errorf("%w: target must be at least 1, not %d", ErrConfig, c.Target)
	}
	return c, nil
}

// ErrConfig is wrapped by errors about a Config.
var ErrConfig = errors.New("bad config")

// ErrIllegal is wrapped by every refusal of Apply (see RuleError).
var ErrIllegal = errors.New("illegal action")

// RuleError is Apply's refusal: which rule (a section of the rules text)
// the action breaks, and why. It wraps ErrIllegal.
type RuleError struct {
	Rule   string // a section of the rules text, such as "Leading a Set"
	Reason string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("%v: %s (rule %q)", ErrIllegal, e.Reason, e.Rule)
}

// Unwrap lets errors.Is(err, ErrIllegal) hold.
func (e *RuleError) Unwrap() error { return ErrIllegal }

func refuse(rule, format string, args ...any) error {
	return &RuleError{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// Phase is what the game is waiting for.
type Phase uint8

// Phases.
const (
	PhaseLead  Phase = iota // the player with the lead chooses one of five actions
	PhaseTrick              // a card was led: the others play to the trick
	PhaseRound              // a set was led: the others respond
	PhaseOver               // the game has ended
)

var phaseNames = [...]string{"lead", "trick", "round", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "?"
}

// MarshalText writes the phase's name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(b []byte) error {
	for i, n := range phaseNames {
		if n == string(b) {
			*p = Phase(i)
			return nil
		}
	}
	return fmt.Errorf("unknown phase %q", b)
}

// Played is a card played to a trick, and by whom.
type Played struct {
	Seat int       `json:"seat"`
	Card card.Card `json:"-"`
}

// Move is an action and the seat that took it.
type Move struct {
	Seat   int
	Action Action
}

// HandResult is the end of one hand: the sets on each table when it was
// scored and each seat's points for them.
type HandResult struct {
	Hand   int     `json:"hand"`
	Dealer int     `json:"dealer"`
	Tables [][]Set `json:"tables"`
	Scores []int   `json:"scores"`
}

// State is a game of Arlington. The zero value is not usable: call New.
// A State is not safe for concurrent use; Clone it for search.
type State struct {
	cfg     Config
	seed    uint64
	rng     Rand
	cut     []card.Card
	handNo  int // 1 for the first hand
	dealer  int
	phase   Phase
	lead    int // the player with the lead; in a trick or round, who led
	toMove  int
	hands   []Set
	tables  [][]Set
	grave   Set
	trick   []Played
	spec    Spectrum // the spectrum of the set round in play
	owner   int      // who played the active set (last set on that table)
	totals  []int
	results []HandResult // append-only: clones share it
	history []Move       // append-only: clones share it
	events  []Event      // the public event log; append-only
	// known is, for each seat, the cards everyone knows to be in its hand
	// (taken in a trick, a picked-up joker); graveKnown the cards everyone
	// saw go onto the graveyard this hand.
	known      []Set
	graveKnown Set
}

// New starts a game: the players cut for the first dealer and the first
// hand is dealt, all from seed.
func New(cfg Config, seed uint64) (*State, error) {
	cfg, err := cfg.normalized()
	if err != nil {
		return nil, err
	}
	n := cfg.Players
	s := &State{
		cfg:    cfg,
		seed:   seed,
		rng:    Rand{s: seed},
		hands:  make([]Set, n),
		tables: make([][]Set, n),
		totals: make([]int, n),
		known:  make([]Set, n),
	}
	s.cutForDealer()
	s.deal()
	return s, nil
}

// cutForDealer is "The Hand": the players cut the deck and the highest
// suit card deals. Each seat in turn cuts a different card of one shuffled
// deck; a joker is no suit card, so it cannot win the cut, and if no seat
// cut a suit card (two players, both jokers) they cut again.
func (s *State) cutForDealer() {
	for {
		deck := s.shuffled()
		s.cut = append(s.cut[:0], deck[:s.cfg.Players]...)
		best := -1
		for seat, c := range s.cut {
			if c != card.Joker && (best < 0 || Higher(c, s.cut[best])) {
				best = seat
			}
		}
		if best >= 0 {
			s.dealer = best
			return
		}
	}
}

// shuffled is the 54 cards shuffled by Fisher-Yates from the game's rng.
func (s *State) shuffled() []card.Card {
	deck := FullDeck.Cards()
	for i := len(deck) - 1; i > 0; i-- {
		j := s.rng.Intn(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
	return deck
}

// deal starts a hand: eight cards one at a time to each player from the
// dealer's left, the rest to the graveyard, and the dealer's left leads.
func (s *State) deal() {
	n := s.cfg.Players
	s.handNo++
	deck := s.shuffled()
	for i := range s.hands {
		s.hands[i] = 0
		s.tables[i] = s.tables[i][:0]
	}
	k := 0
	for range HandSize {
		for i := 1; i <= n; i++ {
			seat := (s.dealer + i) % n
			s.hands[seat], _ = s.hands[seat].With(deck[k])
			k++
		}
	}
	s.grave, _ = SetOf(deck[k:])
	s.trick = s.trick[:0]
	s.lead = (s.dealer + 1) % n
	s.log(Event{Kind: EventDeal, Seat: s.dealer})
	s.startPlay()
}

// startPlay is the start of a play: the player with the lead acts, or if
// she has no cards the hand is scored ("The Hand").
func (s *State) startPlay() {
	if s.hands[s.lead].Empty() {
		s.scoreHand()
		return
	}
	s.phase = PhaseLead
	s.toMove = s.lead
}

// scoreHand is "Scoring" and "The Game".
func (s *State) scoreHand() {
	n := s.cfg.Players
	res := HandResult{Hand: s.handNo, Dealer: s.dealer, Tables: make([][]Set, n), Scores: make([]int, n)}
	over := false
	for i := range n {
		res.Tables[i] = append([]Set(nil), s.tables[i]...)
		for _, t := range s.tables[i] {
			res.Scores[i] += Points(t)
		}
		s.totals[i] += res.Scores[i]
		if s.totals[i] >= s.cfg.Target {
			over = true
		}
	}
	s.results = append(s.results, res)
	s.log(Event{Kind: EventScore, Seat: -1, Scores: append([]int(nil), res.Scores...)})
	if over {
		// Every card goes to the graveyard, so the 54 stay accounted for.
		for i := range n {
			s.grave = s.grave.Union(s.hands[i])
			s.hands[i] = 0
			for _, t := range s.tables[i] {
				s.grave = s.grave.Union(t)
			}
			s.tables[i] = s.tables[i][:0]
		}
		s.phase = PhaseOver
		s.toMove = -1
		return
	}
	s.dealer = (s.dealer + 1) % n
	s.deal()
}

// Config is the game's settings (Target filled in).
func (s *State) Config() Config { return s.cfg }

// Seed is the seed the game was started with.
func (s *State) Seed() uint64 { return s.seed }

// Players is the number of seats.
func (s *State) Players() int { return s.cfg.Players }

// ToMove is the seat that must act next, or -1 when the game is over.
func (s *State) ToMove() int { return s.toMove }

// Phase is what the game is waiting for.
func (s *State) Phase() Phase { return s.phase }

// Terminal reports whether the game is over.
func (s *State) Terminal() bool { return s.phase == PhaseOver }

// Dealer is the current hand's dealer.
func (s *State) Dealer() int { return s.dealer }

// HandNumber is the current hand, from 1.
func (s *State) HandNumber() int { return s.handNo }

// Cut is the cards each seat cut for the first deal.
func (s *State) Cut() []card.Card { return append([]card.Card(nil), s.cut...) }

// Totals is each seat's total score.
func (s *State) Totals() []int { return append([]int(nil), s.totals...) }

// Scores is each seat's score in each finished hand.
func (s *State) Scores() [][]int {
	out := make([][]int, len(s.results))
	for i, r := range s.results {
		out[i] = append([]int(nil), r.Scores...)
	}
	return out
}

// Results is every finished hand, copied: changing it changes nothing in
// the game.
func (s *State) Results() []HandResult {
	out := make([]HandResult, len(s.results))
	for i, r := range s.results {
		out[i] = HandResult{Hand: r.Hand, Dealer: r.Dealer, Tables: make([][]Set, len(r.Tables)), Scores: append([]int(nil), r.Scores...)}
		for k, t := range r.Tables {
			out[i].Tables[k] = append([]Set(nil), t...)
		}
	}
	return out
}

// Winners is the seats with the highest total once the game is over (ties
// share the win), or nil before.
func (s *State) Winners() []int {
	if !s.Terminal() {
		return nil
	}
	best := s.totals[0]
	for _, t := range s.totals {
		best = max(best, t)
	}
	var w []int
	for i, t := range s.totals {
		if t == best {
			w = append(w, i)
		}
	}
	return w
}

// Hand is seat's hand (empty for no such seat). Only the server and tests
// should look: players get a View.
func (s *State) Hand(seat int) Set {
	if seat < 0 || seat >= len(s.hands) {
		return 0
	}
	return s.hands[seat]
}

// Table is the sets on seat's table, in the order placed.
func (s *State) Table(seat int) []Set {
	if seat < 0 || seat >= len(s.tables) {
		return nil
	}
	return append([]Set(nil), s.tables[seat]...)
}

// Graveyard is the graveyard's contents. Only the server and tests should
// look.
func (s *State) Graveyard() Set { return s.grave }

// History is every move so far.
func (s *State) History() []Move { return append([]Move(nil), s.history...) }

// Clone is an independent copy of s. It is cheap: the history, results
// and event log only ever grow, so the copy shares them (capped, so that
// either's appends reallocate rather than write into the other's).
func (s *State) Clone() *State {
	c := *s
	c.cut = append([]card.Card(nil), s.cut...)
	c.hands = append([]Set(nil), s.hands...)
	c.tables = make([][]Set, len(s.tables))
	for i, t := range s.tables {
		c.tables[i] = append([]Set(nil), t...)
	}
	c.trick = append([]Played(nil), s.trick...)
	c.totals = append([]int(nil), s.totals...)
	c.results = s.results[:len(s.results):len(s.results)]
	c.history = s.history[:len(s.history):len(s.history)]
	c.events = s.events[:len(s.events):len(s.events)]
	c.known = append([]Set(nil), s.known...)
	return &c
}

// CheckCards verifies that the 54 cards are all accounted for exactly once
// across hands, tables, the trick in play and the graveyard.
func (s *State) CheckCards() error {
	var seen uint64
	jokers := 0
	add := func(where string, x Set) error {
		if seen&x.Mask() != 0 {
			return fmt.Errorf("cards %v in %s are also elsewhere", Set(seen&x.Mask()), where)
		}
		seen |= x.Mask()
		jokers += x.Jokers()
		return nil
	}
	for i := range s.hands {
		if err := add(fmt.Sprintf("hand %d", i), s.hands[i]); err != nil {
			return err
		}
		for _, t := range s.tables[i] {
			if err := add(fmt.Sprintf("table %d", i), t); err != nil {
				return err
			}
		}
	}
	for _, p := range s.trick {
		x, _ := Set(0).With(p.Card)
		if err := add("the trick", x); err != nil {
			return err
		}
	}
	if err := add("the graveyard", s.grave); err != nil {
		return err
	}
	if seen != suitBits || jokers != 2 {
		return fmt.Errorf("cards missing: %v, %d jokers counted", Set(suitBits&^seen), jokers)
	}
	return nil
}

// activeKey is the active set's key in the round's spectrum.
func (s *State) activeKey() Key {
	t := s.tables[s.owner]
	k, _ := KeyIn(t[len(t)-1], s.spec)
	return k
}

// Legal lists every action seat may take now (nil when it is not seat's
// turn). Sets always name their spectrum.
func (s *State) Legal(seat int) []Action {
	if s.phase == PhaseOver || seat != s.toMove {
		return nil
	}
	p := position{phase: s.phase, hand: s.hands[seat], tables: s.tables, spec: s.spec}
	if s.phase == PhaseRound {
		p.active = s.activeKey()
	}
	return p.legal()
}

// position is what legal-move generation needs; State and View both make
// one, so a seat's view yields exactly the state's legal actions.
type position struct {
	phase  Phase
	hand   Set
	tables [][]Set
	spec   Spectrum
	active Key
}

func (p position) legal() []Action {
	var out []Action
	cards := p.hand.Cards()
	if p.hand.Jokers() == 2 {
		cards = cards[:len(cards)-1] // the two jokers are alike: one action each
	}
	switch p.phase {
	case PhaseTrick:
		for _, c := range cards {
			out = append(out, Action{Kind: PlayCard, Card: c})
		}
	case PhaseRound:
		out = append(out, Action{Kind: Pass})
		if p.hand.Has(S2) {
			out = append(out, Action{Kind: Kill})
		}
		setsIn(p.hand, p.spec, func(t Set) {
			if k, _ := KeyIn(t, p.spec); k > p.active {
				out = append(out, Action{Kind: PlaySet, Set: t, Spectrum: p.spec})
			}
		})
	case PhaseLead:
		for _, c := range cards {
			out = append(out, Action{Kind: LeadCard, Card: c})
		}
		for _, sp := range Spectra {
			setsIn(p.hand, sp, func(t Set) {
				out = append(out, Action{Kind: PlaySet, Set: t, Spectrum: sp})
			})
		}
		hasS2 := p.hand.Has(S2)
		for seat, tab := range p.tables {
			for i, t := range tab {
				if hasS2 {
					out = append(out, Action{Kind: PlayS2, Seat: seat, Index: i})
				}
				for _, c := range cards {
					if u, ok := t.With(c); ok && Legal(u) {
						out = append(out, Action{Kind: AddCard, Card: c, Seat: seat, Index: i})
					}
				}
				if t.Jokers() > 0 {
					for _, c := range cards {
						if c == card.Joker {
							continue
						}
						u, _ := t.Without(card.Joker)
						if u, ok := u.With(c); ok && Legal(u) {
							out = append(out, Action{Kind: PickUp, Card: c, Seat: seat, Index: i})
						}
					}
				}
			}
		}
	}
	return out
}

// canonical clears the fields a's kind does not use, so that equal moves
// are == and records print exactly what was done.
func canonical(a Action) Action {
	switch a.Kind {
	case LeadCard, PlayCard:
		return Action{Kind: a.Kind, Card: a.Card}
	case PlaySet:
		return Action{Kind: a.Kind, Set: a.Set, Spectrum: a.Spectrum}
	case Pass, Kill:
		return Action{Kind: a.Kind}
	case PlayS2:
		return Action{Kind: a.Kind, Seat: a.Seat, Index: a.Index}
	case AddCard, PickUp:
		return Action{Kind: a.Kind, Card: a.Card, Seat: a.Seat, Index: a.Index}
	}
	return a
}

// normalize resolves an unnamed spectrum the way the rules text does.
func (s *State) normalize(a Action) Action {
	a = canonical(a)
	if a.Kind != PlaySet || a.Spectrum != NoSpectrum {
		return a
	}
	switch s.phase {
	case PhaseRound:
		a.Spectrum = s.spec
	case PhaseLead:
		if a.Set.Len() == 1 {
			// "it is assumed that a single card is being lead as a card"
			return Action{Kind: LeadCard, Card: a.Set.Cards()[0]}
		}
		if sp := DefaultSpectrum(a.Set); sp != NoSpectrum {
			a.Spectrum = sp
		}
	}
	return a
}

// Normalize is the action Apply would take for a: an unnamed spectrum
// resolved as the rules text says (see ParseAction).
func (s *State) Normalize(a Action) Action { return s.normalize(a) }

// Check reports whether seat may take a now, with the rule it breaks if
// not. It changes nothing.
func (s *State) Check(seat int, a Action) error {
	_, err := s.check(seat, a)
	return err
}

func (s *State) check(seat int, a Action) (Action, error) {
	if s.phase == PhaseOver {
		return a, refuse("The Game", "the game is over")
	}
	if seat < 0 || seat >= s.cfg.Players {
		return a, refuse("The Hand", "there is no seat %d", seat)
	}
	if seat != s.toMove {
		return a, refuse("The Hand", "it is seat %d's turn, not seat %d's", s.toMove, seat)
	}
	if a.Kind == PlaySet && (!a.Set.Valid() || a.Set.Empty()) {
		return a, refuse("Sets", "not a set of cards from the deck")
	}
	a = s.normalize(a)
	hand := s.hands[seat]
	switch s.phase {
	case PhaseTrick:
		if a.Kind != PlayCard {
			return a, refuse("Leading a Card", "a card was led: play a card to the trick (no passing)")
		}
		if !hand.Has(a.Card) {
			return a, refuse("Leading a Card", "%v is not in your hand", a.Card)
		}
		return a, nil
	case PhaseRound:
		switch a.Kind {
		case Pass:
			return a, nil
		case Kill:
			if !hand.Has(S2) {
				return a, refuse("Leading a Set", "you do not hold the S2, so you cannot kill the active set")
			}
			return a, nil
		case PlaySet:
			if !hand.Contains(a.Set) {
				return a, refuse("Leading a Set", "%v is not all in your hand", a.Set)
			}
			if a.Spectrum != s.spec {
				return a, refuse("Leading a Set", "a response must be in the spectrum originally led, %v, not %v", s.spec, a.Spectrum)
			}
			k, ok := KeyIn(a.Set, s.spec)
			if !ok {
				return a, refuse("Sets", "%v is not a legal set in %v", a.Set, s.spec)
			}
			if k <= s.activeKey() {
				t := s.tables[s.owner]
				return a, refuse("Leading a Set", "%v is not higher than the active set %v in %v (it must be higher, not equal)", a.Set, t[len(t)-1], s.spec)
			}
			return a, nil
		}
		return a, refuse("Leading a Set", "a set is active: pass, kill it with the S2, or play a higher set in %v", s.spec)
	}
	// PhaseLead.
	target := func(rule string) (Set, error) {
		if a.Seat < 0 || a.Seat >= s.cfg.Players || a.Index < 0 || a.Index >= len(s.tables[a.Seat]) {
			return 0, refuse(rule, "there is no set %d/%d (seat %d has %d sets on the table)", a.Seat, a.Index, a.Seat, s.tableLen(a.Seat))
		}
		return s.tables[a.Seat][a.Index], nil
	}
	switch a.Kind {
	case LeadCard:
		if !hand.Has(a.Card) {
			return a, refuse("Leading a Card", "%v is not in your hand", a.Card)
		}
		return a, nil
	case PlaySet:
		if !hand.Contains(a.Set) {
			return a, refuse("Leading a Set", "%v is not all in your hand", a.Set)
		}
		if a.Spectrum == NoSpectrum {
			return a, refuse("Sets", "%v is not a legal set", a.Set)
		}
		if !In(a.Set, a.Spectrum) {
			if Legal(a.Set) {
				return a, refuse("Sets", "%v is not in the %v spectrum (it is in %v)", a.Set, a.Spectrum, SpectraOf(a.Set))
			}
			return a, refuse("Sets", "%v is not a legal set", a.Set)
		}
		return a, nil
	case PlayS2:
		if !hand.Has(S2) {
			return a, refuse("Playing the Two of Spades", "you do not hold the S2")
		}
		_, err := target("Playing the Two of Spades")
		return a, err
	case AddCard:
		t, err := target("Adding to a Set")
		if err != nil {
			return a, err
		}
		if !hand.Has(a.Card) {
			return a, refuse("Adding to a Set", "%v is not in your hand", a.Card)
		}
		u, _ := t.With(a.Card)
		if !Legal(u) {
			return a, refuse("Adding to a Set", "%v would not be a legal set in any spectrum", u)
		}
		return a, nil
	case PickUp:
		t, err := target("Picking up a Joker")
		if err != nil {
			return a, err
		}
		if t.Jokers() == 0 {
			return a, refuse("Picking up a Joker", "%v has no joker", t)
		}
		if a.Card == card.Joker {
			return a, refuse("Picking up a Joker", "a joker cannot replace a joker: the swap would change nothing")
		}
		if !hand.Has(a.Card) {
			return a, refuse("Picking up a Joker", "%v is not in your hand", a.Card)
		}
		u, _ := t.Without(card.Joker)
		u, _ = u.With(a.Card)
		if !Legal(u) {
			return a, refuse("Picking up a Joker", "%v would not be a legal set in any spectrum", u)
		}
		return a, nil
	}
	return a, refuse("The Hand", "you have the lead: lead a card, lead a set, play the S2, add to a set or pick up a joker")
}

func (s *State) tableLen(seat int) int {
	if seat < 0 || seat >= len(s.tables) {
		return 0
	}
	return len(s.tables[seat])
}

// Apply has seat take action a. An action the rules do not allow is
// refused with a *RuleError (wrapping ErrIllegal) and changes nothing.
func (s *State) Apply(seat int, a Action) error {
	a, err := s.check(seat, a)
	if err != nil {
		return err
	}
	s.history = append(s.history, Move{Seat: seat, Action: a})
	ev := Event{Kind: EventMove, Seat: seat, Action: a}
	switch a.Kind {
	case LeadCard, PlayCard, AddCard, PickUp:
		one, _ := Set(0).With(a.Card)
		s.forget(seat, one)
	case PlaySet:
		s.forget(seat, a.Set)
		if s.phase == PhaseRound {
			t := s.tables[s.owner]
			ev.ToGrave = t[len(t)-1]
		}
	case Kill:
		s.forget(seat, s2Set)
		t := s.tables[s.owner]
		ev.ToGrave = t[len(t)-1] | s2Set
	case PlayS2:
		s.forget(seat, s2Set)
		ev.ToGrave = s.tables[a.Seat][a.Index] | s2Set
	}
	if a.Kind == PickUp {
		ev.ToHand = oneJoker
	}
	s.log(ev)
	switch a.Kind {
	case LeadCard:
		s.hands[seat], _ = s.hands[seat].Without(a.Card)
		s.trick = append(s.trick[:0], Played{Seat: seat, Card: a.Card})
		s.phase = PhaseTrick
		s.lead = seat
		s.nextInTrick(seat)
	case PlayCard:
		s.hands[seat], _ = s.hands[seat].Without(a.Card)
		s.trick = append(s.trick, Played{Seat: seat, Card: a.Card})
		s.nextInTrick(seat)
	case PlaySet:
		s.hands[seat] = s.hands[seat].Minus(a.Set)
		if s.phase == PhaseLead {
			s.phase = PhaseRound
			s.spec = a.Spectrum
			s.lead = seat
		} else {
			s.grave = s.grave.Union(s.popActive())
		}
		s.tables[seat] = append(s.tables[seat], a.Set)
		s.owner = seat
		s.nextResponder(seat)
	case Pass:
		s.nextResponder(seat)
	case Kill:
		s.hands[seat], _ = s.hands[seat].Without(S2)
		s.grave, _ = s.grave.Union(s.popActive()).With(S2)
		s.lead = seat
		s.startPlay()
	case PlayS2:
		s.hands[seat], _ = s.hands[seat].Without(S2)
		t := s.tables[a.Seat][a.Index]
		s.tables[a.Seat] = append(s.tables[a.Seat][:a.Index], s.tables[a.Seat][a.Index+1:]...)
		s.grave, _ = s.grave.Union(t).With(S2)
		s.startPlay()
	case AddCard:
		s.hands[seat], _ = s.hands[seat].Without(a.Card)
		s.tables[a.Seat][a.Index], _ = s.tables[a.Seat][a.Index].With(a.Card)
		s.startPlay()
	case PickUp:
		s.hands[seat], _ = s.hands[seat].Without(a.Card)
		s.hands[seat], _ = s.hands[seat].With(card.Joker)
		t, _ := s.tables[a.Seat][a.Index].Without(card.Joker)
		s.tables[a.Seat][a.Index], _ = t.With(a.Card)
		s.startPlay()
	}
	return nil
}

// popActive takes the active set off its owner's table.
func (s *State) popActive() Set {
	t := s.tables[s.owner]
	a := t[len(t)-1]
	s.tables[s.owner] = t[:len(t)-1]
	return a
}

// nextInTrick moves the trick on to the next seat clockwise after from,
// other than the leader, with a card; when there is none the trick is
// complete and is taken.
func (s *State) nextInTrick(from int) {
	n := s.cfg.Players
	for i := (from + 1) % n; i != s.lead; i = (i + 1) % n {
		if !s.hands[i].Empty() {
			s.toMove = i
			return
		}
	}
	// "If a joker was the first card played in the trick it takes the
	// trick", else the highest card of the led suit.
	led := s.trick[0].Card
	win := 0
	if led != card.Joker {
		for i, p := range s.trick {
			if p.Card != card.Joker && p.Card.Suit() == led.Suit() && Higher(p.Card, s.trick[win].Card) {
				win = i
			}
		}
	}
	taker := s.trick[win].Seat
	var toHand, toGrave Set
	for i, p := range s.trick {
		if i == win {
			toGrave, _ = toGrave.With(p.Card)
		} else {
			toHand, _ = toHand.With(p.Card)
		}
	}
	s.grave = s.grave.Union(toGrave)
	s.hands[taker] = s.hands[taker].Union(toHand)
	s.log(Event{Kind: EventTake, Seat: taker, ToHand: toHand, ToGrave: toGrave})
	s.trick = s.trick[:0]
	s.lead = taker
	s.startPlay()
}

// nextResponder passes the response to the next seat clockwise after from
// with a card, up to the seat at the leader's right; when there is none
// the owner of the active set has the lead.
func (s *State) nextResponder(from int) {
	n := s.cfg.Players
	for i := (from + 1) % n; i != s.lead; i = (i + 1) % n {
		if !s.hands[i].Empty() {
			s.toMove = i
			return
		}
	}
	s.lead = s.owner
	s.startPlay()
}

// Tables is every seat's table, shared with the state for speed (a
// search's rollout reads it at every step): read-only, and valid only
// until the next Apply. Table gives a copy.
func (s *State) Tables() [][]Set { return s.tables }

// Trick is the cards played to the trick in play, shared like Tables.
func (s *State) Trick() []Played { return s.trick }

// RoundOwner is the seat whose set is active in the set round in play, or
// -1 outside a set round.
func (s *State) RoundOwner() int {
	if s.phase != PhaseRound {
		return -1
	}
	return s.owner
}
