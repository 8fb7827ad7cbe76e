package arlington

import "cardtable/card"

// TablePoints is, for each seat of v, what the sets on its table score
// now ("Scoring"): the points that seat would get if the hand ended here.
func TablePoints(v View) []int {
	out := make([]int, len(v.Tables))
	for i, tab := range v.Tables {
		for _, t := range tab {
			out[i] += t.Points
		}
	}
	return out
}

// PointsChange is what legal action a of v's seat does to the points on
// the tables: for each seat, the change of its TablePoints once a is
// played (a set laid scores for its owner, a set killed or replaced takes
// its points off its owner's table, a card added or swapped for a joker
// changes its set's points). Cards led or played to a trick, and a pass,
// change nothing. An action that does not fit v (not one of its legal
// actions) changes nothing either.
func PointsChange(v View, a Action) []int {
	before := TablePoints(v)
	out := make([]int, len(before))
	tables := make([][]Set, len(v.Tables))
	for i, tab := range v.Tables {
		for _, t := range tab {
			s, err := SetOf(t.Cards)
			if err != nil {
				return out
			}
			tables[i] = append(tables[i], s)
		}
	}
	at := func(seat, i int) bool { return seat >= 0 && seat < len(tables) && i >= 0 && i < len(tables[seat]) }
	me := v.Seat
	if me < 0 || me >= len(tables) {
		return out
	}
	switch a.Kind {
	case PlaySet:
		if v.Phase == PhaseRound && v.Round != nil {
			o := v.Round.Owner
			if !at(o, len(tables[o])-1) {
				return out
			}
			tables[o] = tables[o][:len(tables[o])-1]
		}
		tables[me] = append(tables[me], a.Set)
	case Kill:
		if v.Round == nil || !at(v.Round.Owner, len(tables[v.Round.Owner])-1) {
			return out
		}
		o := v.Round.Owner
		tables[o] = tables[o][:len(tables[o])-1]
	case PlayS2:
		if !at(a.Seat, a.Index) {
			return out
		}
		tables[a.Seat] = append(tables[a.Seat][:a.Index:a.Index], tables[a.Seat][a.Index+1:]...)
	case AddCard:
		if !at(a.Seat, a.Index) {
			return out
		}
		tables[a.Seat][a.Index], _ = tables[a.Seat][a.Index].With(a.Card)
	case PickUp:
		if !at(a.Seat, a.Index) {
			return out
		}
		t, _ := tables[a.Seat][a.Index].Without(card.Joker)
		tables[a.Seat][a.Index], _ = t.With(a.Card)
	default:
		return out
	}
	for i, tab := range tables {
		after := 0
		for _, t := range tab {
			after += Points(t)
		}
		out[i] = after - before[i]
	}
	return out
}
