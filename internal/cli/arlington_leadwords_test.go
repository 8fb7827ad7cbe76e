package cli

import (
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
)

// TestArlingtonLeadChoicesSaid: the table shown to the player with the
// lead names only the kinds of action the tables allow: at a hand's start,
// with no set on any table, it offered "s2, add or pickup", none of which
// was possible.
func TestArlingtonLeadChoicesSaid(t *testing.T) {
	s, err := arlington.New(arlington.Config{Players: 3, Target: 32}, 7)
	if err != nil {
		t.Fatal(err)
	}
	v := s.View(s.ToMove())
	if v.Phase != arlington.PhaseLead {
		t.Fatalf("a new hand's first turn is in phase %v, not the lead", v.Phase)
	}
	said := func(v arlington.View) string {
		var b strings.Builder
		showView(&b, v)
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "you have the lead: ") {
				return strings.TrimPrefix(l, "you have the lead: ")
			}
		}
		t.Fatalf("no lead line in:\n%s", b.String())
		return ""
	}
	set := func(cards string) arlington.TableSet {
		cs, err := card.ParseList(cards)
		if err != nil {
			t.Fatal(err)
		}
		return arlington.TableSet{Cards: cs, Spectra: []arlington.Spectrum{arlington.Multiples}, Points: 2}
	}
	other := (v.Seat + 1) % v.Players
	for _, c := range []struct {
		name   string
		tables map[int]arlington.TableSet
		s2     bool
		want   string
	}{
		{"no set on the tables", nil, true, "lead a card or lead a set"},
		{"a set, the S2 in hand", map[int]arlington.TableSet{other: set("7H 7D")}, true, "lead a card, lead a set, s2 or add"},
		{"a set, no S2", map[int]arlington.TableSet{other: set("7H 7D")}, false, "lead a card, lead a set or add"},
		{"a jokered set", map[int]arlington.TableSet{v.Seat: set("7H JK")}, false, "lead a card, lead a set, add or pickup"},
	} {
		w := v
		w.Tables = make([][]arlington.TableSet, v.Players)
		for seat, ts := range c.tables {
			w.Tables[seat] = []arlington.TableSet{ts}
		}
		w.Hand = arlington.Cards{card.MustParse("9C")}
		if c.s2 {
			w.Hand = append(w.Hand, arlington.S2)
		}
		if got := said(w); got != c.want {
			t.Errorf("%s: the lead line says %q, want %q", c.name, got, c.want)
		}
	}
}
