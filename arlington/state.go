package arlington

import (
	"errors"
	"fmt"

	"cardtable/card"
)

// Config is a table's settings.
type Config struct {
	Players int `json:"players"` // 2 to 6
	Target  int `json:"target"`  // total that ends the game, 1 to MaxTarget; 0 means 32
}

// DefaultTarget is the total of "The Game": 32.
const DefaultTarget = 32

// MaxTarget is the largest target New (and so Load, and the command
// line) accepts: a game's length grows with its target, and a game the
// engine starts must be one its record can load back.
const MaxTarget = 1000

// HandSize is the number of cards dealt to each player ("The Hand").
const HandSize = 8

func (c Config) normalized() (Config, error) {
	if c.Players < 2 || c.Players > MaxSeats {
		return c, fmt.Errorf("%w: Arlington is for 2 to 6 players, not %d", ErrConfig, c.Players)
	}
	if c.Target == 0 {
		c.Target = DefaultTarget
	}
	if c.Target < 1 || c.Target > MaxTarget {
		return c, fmt.Errorf("%w: target must be 1 to %d, not %d", ErrConfig, MaxTarget, c.Target)
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
	Reason string // seats and sets counted from 1, as people count them
	// fromZero is Reason with seats and sets counted from 0, as records
	// and action texts number them ("1 add 7H 0/2"), when it names any;
	// the record loader says it (FromZero), so that a message about a
	// record's line counts as the line does.
	fromZero string
}

// FromZero is e with its reason counted as records count seats and sets,
// from 0; e itself when its reason names none.
func (e *RuleError) FromZero() *RuleError {
	if e.fromZero == "" {
		return e
	}
	return &RuleError{Rule: e.Rule, Reason: e.fromZero}
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("%v: %s (rule %q)", ErrIllegal, e.Reason, e.Rule)
}

// Unwrap lets errors.Is(err, ErrIllegal) hold.
func (e *RuleError) Unwrap() error { return ErrIllegal }

func refuse(rule, format string, args ...any) error {
	return &RuleError{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// index is a seat's or a set's number, from 0, among refuseIndexed's
// arguments.
type index int

// refuseIndexed is refuse for a reason naming seats or sets (its index
// arguments): counted from 1 in Reason, from 0 in fromZero.
func refuseIndexed(rule, format string, args ...any) error {
	people := make([]any, len(args))
	for i, a := range args {
		people[i] = a
		if n, ok := a.(index); ok {
			args[i], people[i] = int(n), int(n)+1
		}
	}
	return &RuleError{Rule: rule, Reason: fmt.Sprintf(format, people...), fromZero: fmt.Sprintf(format, args...)}
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
//
// Moves are checked in legal.go and made in apply.go; hands are dealt and
// scored in deal.go.
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
