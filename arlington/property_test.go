package arlington

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"cardtable/card"
)

// randomGame plays a whole game choosing uniformly among the legal
// actions, calling step after each move. It fails the test if the game
// has not ended after maxMoves.
func randomGame(tb testing.TB, players int, seed uint64, step func(s *State, seat int, a Action)) *State {
	tb.Helper()
	s, err := New(Config{Players: players, Target: 32}, seed)
	if err != nil {
		tb.Fatal(err)
	}
	r := NewRand(seed ^ 0xabcdef)
	const maxMoves = 200000
	for moves := 0; !s.Terminal(); moves++ {
		if moves > maxMoves {
			tb.Fatalf("players %d seed %d: no end after %d moves", players, seed, maxMoves)
		}
		seat := s.ToMove()
		legal := s.Legal(seat)
		if len(legal) == 0 {
			tb.Fatalf("players %d seed %d: seat %d to move has no legal action (phase %v)", players, seed, seat, s.Phase())
		}
		a := legal[r.Intn(len(legal))]
		if err := s.Apply(seat, a); err != nil {
			tb.Fatalf("players %d seed %d: legal action %v refused: %v", players, seed, a, err)
		}
		if step != nil {
			step(s, seat, a)
		}
	}
	return s
}

func TestRandomGamesProperties(t *testing.T) { randomGamesProperties(t, 3) }

// TestLongRandomGamesProperties is TestRandomGamesProperties at full size (12 instead of 3).
func TestLongRandomGamesProperties(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	randomGamesProperties(t, 12)
}

func randomGamesProperties(t *testing.T, games int) {
	for players := 2; players <= 6; players++ {
		t.Run(fmt.Sprintf("players=%d", players), func(t *testing.T) {
			for g := range games {
				seed := uint64(players*1000 + g)
				w := &propWatch{t: t, seed: seed, prevHand: 1}
				s := randomGame(t, players, seed, w.after)
				checkGameEnd(t, s, seed)
			}
		})
	}
}

// propWatch checks a random game's properties after every action,
// keeping what the checks need of the actions before it.
type propWatch struct {
	t         *testing.T
	seed      uint64
	steps     int
	trick     []Played // the trick in play, as the actions played it
	trickHand int      // the hand the trick was led in
	prevHand  int      // the hand before this action
	grave     Set      // the graveyard before this action
}

func (w *propWatch) after(s *State, seat int, a Action) {
	w.steps++
	w.checkTrickTaker(s, seat, a)
	if err := s.CheckCards(); err != nil {
		w.t.Fatalf("seed %d move %d (%d %v): %v", w.seed, w.steps, seat, a, err)
	}
	// "The Hand": a card on the graveyard stays there for the rest of
	// the hand.
	if s.HandNumber() == w.prevHand && !s.Terminal() && !s.Graveyard().Contains(w.grave) {
		w.t.Fatalf("seed %d move %d (%d %v): %v left the graveyard", w.seed, w.steps, seat, a, w.grave.Minus(s.Graveyard()))
	}
	w.grave, w.prevHand = s.Graveyard(), s.HandNumber()
	for seat := range s.Players() {
		for _, set := range s.Table(seat) {
			if !Legal(set) {
				w.t.Fatalf("seed %d move %d: illegal set %v on seat %d's table", w.seed, w.steps, set, seat)
			}
		}
	}
	if err := s.CheckViews(); err != nil {
		w.t.Fatalf("seed %d move %d: %v", w.seed, w.steps, err)
	}
	if !s.Terminal() {
		w.checkLegal(s)
	}
}

// checkTrickTaker: when a trick ends, its taker, worked out here from the
// cards played (a led joker, else the highest of the led suit), leads and
// the taking card is on the graveyard.
func (w *propWatch) checkTrickTaker(s *State, seat int, a Action) {
	switch a.Kind {
	case LeadCard:
		w.trick = []Played{{seat, a.Card}}
		w.trickHand = w.prevHand
	case PlayCard:
		w.trick = append(w.trick, Played{seat, a.Card})
	default:
		return
	}
	if s.Phase() == PhaseTrick {
		return
	}
	win := w.trick[0]
	for _, p := range w.trick[1:] {
		if win.Card != card.Joker && p.Card != card.Joker && p.Card.Suit() == w.trick[0].Card.Suit() && Index(p.Card) > Index(win.Card) {
			win = p
		}
	}
	sameHand := !s.Terminal() && s.HandNumber() == w.trickHand
	if sameHand && (s.ToMove() != win.Seat || !s.Graveyard().Has(win.Card)) {
		w.t.Fatalf("seed %d move %d: trick %v: seat %d leads, graveyard has %v: want seat %d to lead and %v buried",
			w.seed, w.steps, w.trick, s.ToMove(), s.Graveyard().Has(win.Card), win.Seat, win.Card)
	}
}

// checkLegal: the legal actions are listed once each, every one applies
// (on clones, at every fifth step, to keep -race quick), and the view
// of the seat to move lists the same ones, one for one.
func (w *propWatch) checkLegal(s *State) {
	legal := s.Legal(s.ToMove())
	seen := map[Action]bool{}
	for _, a := range legal {
		if seen[a] {
			w.t.Fatalf("seed %d move %d: %v listed twice", w.seed, w.steps, a)
		}
		seen[a] = true
	}
	if w.steps%5 == 0 {
		for _, a := range legal {
			c := s.Clone()
			if err := c.Apply(c.ToMove(), a); err != nil {
				w.t.Fatalf("seed %d move %d: legal %v refused: %v", w.seed, w.steps, a, err)
			}
			if err := c.CheckCards(); err != nil {
				w.t.Fatalf("seed %d move %d: after %v: %v", w.seed, w.steps, a, err)
			}
		}
	}
	if got := s.View(s.ToMove()).Legal(); !slices.Equal(got, legal) {
		w.t.Fatalf("seed %d move %d: view lists legal actions %v, state %v", w.seed, w.steps, got, legal)
	}
}

// checkGameEnd: a finished game has a winner with at least 32, and its
// record replays to the same final state, through the text format too.
func checkGameEnd(t *testing.T, s *State, seed uint64) {
	t.Helper()
	if w := s.Winners(); len(w) == 0 {
		t.Fatalf("seed %d: game over without a winner", seed)
	}
	best := 0
	for _, x := range s.Totals() {
		best = max(best, x)
	}
	if best < 32 {
		t.Fatalf("seed %d: game ended with best total %d < 32", seed, best)
	}
	rec := s.Record()
	r2, s2, err := Load(stringsReader(rec.String()))
	if err != nil {
		t.Fatalf("seed %d: load: %v", seed, err)
	}
	if len(r2.Moves) != len(rec.Moves) || !sameState(s, s2) {
		t.Fatalf("seed %d: replayed record differs", seed)
	}
}

// sameState compares everything observable.
func sameState(a, b *State) bool {
	if a.Terminal() != b.Terminal() || a.ToMove() != b.ToMove() || a.Dealer() != b.Dealer() || a.HandNumber() != b.HandNumber() {
		return false
	}
	if fmt.Sprint(a.Totals(), a.Scores(), a.Graveyard()) != fmt.Sprint(b.Totals(), b.Scores(), b.Graveyard()) {
		return false
	}
	for i := range a.Players() {
		if a.Hand(i) != b.Hand(i) || fmt.Sprint(a.Table(i)) != fmt.Sprint(b.Table(i)) {
			return false
		}
	}
	return true
}

// TestIllegalRefusedWithoutChange tries actions that are not legal at
// random points of random games and checks each is refused with
// ErrIllegal and leaves the state exactly as it was.
func TestIllegalRefusedWithoutChange(t *testing.T) { illegalRefusedWithoutChange(t, 2) }

// TestLongIllegalRefusedWithoutChange is TestIllegalRefusedWithoutChange at full size (6 instead of 2).
func TestLongIllegalRefusedWithoutChange(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	illegalRefusedWithoutChange(t, 6)
}

func illegalRefusedWithoutChange(t *testing.T, games int) {
	r := NewRand(99)
	deck := FullDeck.Cards()
	refused := 0
	for players := 2; players <= 6; players++ {
		for g := range games {
			randomGame(t, players, uint64(7000+players*100+g), func(s *State, _ int, _ Action) {
				if s.Terminal() || r.Intn(4) != 0 {
					return
				}
				seat := s.ToMove()
				legal := map[Action]bool{}
				for _, a := range s.Legal(seat) {
					legal[a] = true
				}
				for range 6 {
					cand := randomAction(r, deck, players)
					if legal[s.Normalize(cand)] {
						continue
					}
					before := s.Clone()
					err := s.Apply(seat, cand)
					if err == nil {
						t.Fatalf("action %v not in Legal was accepted (phase %v, hand %v)", cand, before.Phase(), before.Hand(seat))
					}
					if !errors.Is(err, ErrIllegal) {
						t.Fatalf("refusal of %v does not wrap ErrIllegal: %v", cand, err)
					}
					var re *RuleError
					if !errors.As(err, &re) || re.Rule == "" {
						t.Fatalf("refusal of %v names no rule: %v", cand, err)
					}
					if !sameState(before, s) || len(before.History()) != len(s.History()) {
						t.Fatalf("refused %v changed the state", cand)
					}
					refused++
				}
				// The wrong seat may never act.
				other := (seat + 1) % players
				if err := s.Apply(other, s.Legal(seat)[0]); !errors.Is(err, ErrIllegal) {
					t.Fatalf("seat %d acted out of turn: %v", other, err)
				}
			})
		}
	}
	if refused < 100 {
		t.Fatalf("only %d illegal actions tried", refused)
	}
}

func randomAction(r *Rand, deck []card.Card, players int) Action {
	c := deck[r.Intn(len(deck))]
	var set Set
	for range 1 + r.Intn(4) {
		set, _ = set.With(deck[r.Intn(len(deck))])
	}
	seat, idx := r.Intn(players), r.Intn(3)
	switch r.Intn(8) {
	case 0:
		return Action{Kind: LeadCard, Card: c}
	case 1:
		return Action{Kind: PlayCard, Card: c}
	case 2:
		return Action{Kind: PlaySet, Set: set, Spectrum: Spectra[r.Intn(4)]}
	case 3:
		return Action{Kind: Pass}
	case 4:
		return Action{Kind: Kill}
	case 5:
		return Action{Kind: PlayS2, Seat: seat, Index: idx}
	case 6:
		return Action{Kind: AddCard, Card: c, Seat: seat, Index: idx}
	}
	return Action{Kind: PickUp, Card: c, Seat: seat, Index: idx}
}
