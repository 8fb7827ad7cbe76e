package arlington

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"cardtable/card"
)

// ref is a second, deliberately naive implementation of the flow of a
// hand, written from the rules text without the engine's code: cards in
// slices, queues of who is still to play worked out when a trick or set
// round starts. It uses the engine only for set legality, order and points
// (In, KeyIn, Points), which TestSetsAgainstTextOracle checks separately.
// TestEngineMatchesReference plays random games on both in lockstep.
type ref struct {
	n, target   int
	dealer      int
	hands       [][]card.Card
	tables      [][][]card.Card
	grave       int // how many cards
	phase       Phase
	lead        int
	queue       []int // who is still to play to the trick or respond
	trick       []Played
	spec        Spectrum
	owner       int
	totals      []int
	handsScored int
}

func newRef(s *State) *ref {
	r := &ref{n: s.Players(), target: s.Config().Target, totals: make([]int, s.Players())}
	r.sync(s)
	return r
}

// sync copies a fresh deal from the engine (the deal is the engine's
// shuffle; TestDealFromSeed checks its shape).
func (r *ref) sync(s *State) {
	r.dealer = s.Dealer()
	r.hands = make([][]card.Card, r.n)
	r.tables = make([][][]card.Card, r.n)
	for i := range r.n {
		r.hands[i] = s.Hand(i).Cards()
	}
	r.grave = s.Graveyard().Len()
	r.lead = (r.dealer + 1) % r.n
	r.phase = PhaseLead
}

func remove(cs []card.Card, c card.Card) ([]card.Card, bool) {
	i := slices.Index(cs, c)
	if i < 0 {
		return cs, false
	}
	return slices.Delete(slices.Clone(cs), i, i+1), true
}

func setOf(cs []card.Card) Set { s, _ := SetOf(cs); return s }

// others lists the seats after seat, clockwise, up to the one before it,
// that hold cards.
func (r *ref) others(seat int) []int {
	var q []int
	for k := 1; k < r.n; k++ {
		i := (seat + k) % r.n
		if len(r.hands[i]) > 0 {
			q = append(q, i)
		}
	}
	return q
}

func (r *ref) toMove() int {
	switch r.phase {
	case PhaseLead:
		return r.lead
	case PhaseTrick, PhaseRound:
		return r.queue[0]
	}
	return -1
}

// legal lists every legal action's notation, by brute force over the
// subsets of the hand.
func (r *ref) legal() []string {
	seat := r.toMove()
	h := r.hands[seat]
	var out []string
	add := func(a Action) { out = append(out, a.String()) }
	distinct := slices.Compact(slices.Clone(h))
	subsets := func(f func(Set)) {
		seen := map[Set]bool{}
		for m := 1; m < 1<<len(h); m++ {
			var cs []card.Card
			for i, c := range h {
				if m>>i&1 == 1 {
					cs = append(cs, c)
				}
			}
			if s := setOf(cs); !seen[s] {
				seen[s] = true
				f(s)
			}
		}
	}
	switch r.phase {
	case PhaseTrick:
		for _, c := range distinct {
			add(Action{Kind: PlayCard, Card: c})
		}
	case PhaseRound:
		add(Action{Kind: Pass})
		if slices.Contains(h, S2) {
			add(Action{Kind: Kill})
		}
		tab := r.tables[r.owner]
		active, _ := KeyIn(setOf(tab[len(tab)-1]), r.spec)
		subsets(func(s Set) {
			if k, ok := KeyIn(s, r.spec); ok && k > active {
				add(Action{Kind: PlaySet, Set: s, Spectrum: r.spec})
			}
		})
	case PhaseLead:
		for _, c := range distinct {
			add(Action{Kind: LeadCard, Card: c})
		}
		subsets(func(s Set) {
			for _, sp := range Spectra {
				if In(s, sp) {
					add(Action{Kind: PlaySet, Set: s, Spectrum: sp})
				}
			}
		})
		for seat, tab := range r.tables {
			for i, t := range tab {
				if slices.Contains(h, S2) {
					add(Action{Kind: PlayS2, Seat: seat, Index: i})
				}
				for _, c := range distinct {
					if Legal(setOf(append(slices.Clone(t), c))) {
						add(Action{Kind: AddCard, Card: c, Seat: seat, Index: i})
					}
					if c != card.Joker && slices.Contains(t, card.Joker) {
						u, _ := remove(t, card.Joker)
						if Legal(setOf(append(u, c))) {
							add(Action{Kind: PickUp, Card: c, Seat: seat, Index: i})
						}
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// apply does a legal action; it reports whether a new hand was dealt.
func (r *ref) apply(seat int, a Action) (newHand bool) {
	take := func(c card.Card) { r.hands[seat], _ = remove(r.hands[seat], c) }
	switch a.Kind {
	case LeadCard:
		take(a.Card)
		r.trick = []Played{{seat, a.Card}}
		r.lead = seat
		r.queue = r.others(seat)
		r.phase = PhaseTrick
		if len(r.queue) == 0 {
			return r.takeTrick()
		}
	case PlayCard:
		take(a.Card)
		r.trick = append(r.trick, Played{seat, a.Card})
		r.queue = r.queue[1:]
		if len(r.queue) == 0 {
			return r.takeTrick()
		}
	case PlaySet:
		for _, c := range a.Set.Cards() {
			take(c)
		}
		if r.phase == PhaseLead {
			r.phase, r.spec, r.lead = PhaseRound, a.Spectrum, seat
			r.queue = append([]int{seat}, r.others(seat)...) // seat pops below
		} else {
			tab := r.tables[r.owner]
			r.grave += len(tab[len(tab)-1])
			r.tables[r.owner] = tab[:len(tab)-1]
		}
		r.tables[seat] = append(r.tables[seat], a.Set.Cards())
		r.owner = seat
		r.queue = r.queue[1:]
		if len(r.queue) == 0 {
			r.lead = r.owner
			return r.startPlay()
		}
	case Pass:
		r.queue = r.queue[1:]
		if len(r.queue) == 0 {
			r.lead = r.owner
			return r.startPlay()
		}
	case Kill:
		take(S2)
		tab := r.tables[r.owner]
		r.grave += len(tab[len(tab)-1]) + 1
		r.tables[r.owner] = tab[:len(tab)-1]
		r.lead = seat
		return r.startPlay()
	case PlayS2:
		take(S2)
		r.grave += len(r.tables[a.Seat][a.Index]) + 1
		r.tables[a.Seat] = slices.Delete(r.tables[a.Seat], a.Index, a.Index+1)
		return r.startPlay()
	case AddCard:
		take(a.Card)
		r.tables[a.Seat][a.Index] = append(slices.Clone(r.tables[a.Seat][a.Index]), a.Card)
		return r.startPlay()
	case PickUp:
		take(a.Card)
		r.hands[seat] = append(r.hands[seat], card.Joker)
		t, _ := remove(r.tables[a.Seat][a.Index], card.Joker)
		r.tables[a.Seat][a.Index] = append(t, a.Card)
		return r.startPlay()
	}
	return false
}

func (r *ref) takeTrick() bool {
	win := r.trick[0]
	if win.Card != card.Joker {
		for _, p := range r.trick[1:] {
			if p.Card != card.Joker && p.Card.Suit() == r.trick[0].Card.Suit() && Index(p.Card) > Index(win.Card) {
				win = p
			}
		}
	}
	r.grave++
	for _, p := range r.trick {
		if p != win {
			r.hands[win.Seat] = append(r.hands[win.Seat], p.Card)
		}
	}
	r.trick = nil
	r.lead = win.Seat
	return r.startPlay()
}

func (r *ref) startPlay() bool {
	r.queue = nil
	if len(r.hands[r.lead]) > 0 {
		r.phase = PhaseLead
		return false
	}
	over := false
	for i, tab := range r.tables {
		for _, t := range tab {
			r.totals[i] += Points(setOf(t))
		}
		over = over || r.totals[i] >= r.target
	}
	r.handsScored++
	if over {
		r.phase = PhaseOver
		return false
	}
	return true
}

func (r *ref) compare(s *State) error {
	if got, want := s.ToMove(), r.toMove(); got != want {
		return fmt.Errorf("to move: engine %d, reference %d", got, want)
	}
	if s.Phase() != r.phase {
		return fmt.Errorf("phase: engine %v, reference %v", s.Phase(), r.phase)
	}
	if fmt.Sprint(s.Totals()) != fmt.Sprint(r.totals) || len(s.Results()) != r.handsScored {
		return fmt.Errorf("totals: engine %v, reference %v", s.Totals(), r.totals)
	}
	if r.phase == PhaseOver {
		return nil
	}
	for i := range r.n {
		if s.Hand(i) != setOf(r.hands[i]) {
			return fmt.Errorf("seat %d's hand: engine %v, reference %v", i, s.Hand(i), setOf(r.hands[i]))
		}
		var tabs []string
		for _, t := range r.tables[i] {
			tabs = append(tabs, setOf(t).String())
		}
		if got := fmt.Sprint(s.Table(i)); got != "["+strings.Join(tabs, " ")+"]" {
			return fmt.Errorf("seat %d's table: engine %s, reference %v", i, got, tabs)
		}
	}
	if s.Graveyard().Len() != r.grave {
		return fmt.Errorf("graveyard: engine %d cards, reference %d", s.Graveyard().Len(), r.grave)
	}
	return nil
}

func TestEngineMatchesReference(t *testing.T) { engineMatchesReference(t, 1) }

// TestLongEngineMatchesReference is TestEngineMatchesReference at full size (4 instead of 1).
func TestLongEngineMatchesReference(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	engineMatchesReference(t, 4)
}

func engineMatchesReference(t *testing.T, games int) {
	compared := 0
	for players := 2; players <= 6; players++ {
		for g := range games {
			seed := uint64(900 + 10*players + g)
			s, _ := New(Config{Players: players}, seed)
			r := newRef(s)
			rnd := NewRand(seed)
			for step := 0; !s.Terminal(); step++ {
				seat := s.ToMove()
				legal := s.Legal(seat)
				if len(r.hands[seat]) <= 10 {
					var got []string
					for _, a := range legal {
						got = append(got, a.String())
					}
					sort.Strings(got)
					if want := r.legal(); !slices.Equal(got, want) {
						t.Fatalf("players %d seed %d step %d: legal actions differ\nengine    %v\nreference %v", players, seed, step, got, want)
					}
					compared++
				}
				a := legal[rnd.Intn(len(legal))]
				if err := s.Apply(seat, a); err != nil {
					t.Fatal(err)
				}
				if r.apply(seat, a) {
					if s.HandNumber() != r.handsScored+1 || s.Dealer() != (r.dealer+1)%players {
						t.Fatalf("players %d seed %d step %d: new hand %d dealt by %d after dealer %d", players, seed, step, s.HandNumber(), s.Dealer(), r.dealer)
					}
					r.sync(s)
				}
				if err := r.compare(s); err != nil {
					t.Fatalf("players %d seed %d step %d after %d %v: %v", players, seed, step, seat, a, err)
				}
			}
		}
	}
	t.Logf("%d legal lists compared", compared)
	if compared < 500 {
		t.Fatalf("only %d legal lists compared", compared)
	}
}
