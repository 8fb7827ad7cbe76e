package arlington_test

import (
	"fmt"

	"cardtable/arlington"
	"cardtable/card"
)

// A table drives a game like this: ask who is to move, show that seat its
// view, take its action, and apply it; a refusal names the rule.
func Example() {
	s, err := arlington.New(arlington.Config{Players: 3}, 2026)
	if err != nil {
		panic(err)
	}
	seat := s.ToMove()
	v := s.View(seat) // what that seat may know; JSON-ready
	fmt.Println("seat", seat, "holds", len(v.Hand), "cards; the others", v.HandSizes)

	err = s.Apply(seat, arlington.Action{Kind: arlington.Kill})
	fmt.Println(err)

	a := s.Legal(seat)[0] // or arlington.ParseAction("lead 7H")
	if err := s.Apply(seat, a); err != nil {
		panic(err)
	}
	fmt.Println("now", s.Phase(), "with seat", s.ToMove(), "to play")
	// Output:
	// seat 0 holds 8 cards; the others [8 8 8]
	// illegal action: you have the lead: lead a card, lead a set, play the S2, add to a set or pick up a joker (rule "The Hand")
	// now trick with seat 1 to play
}

// Set analysis, as the text's examples.
func ExampleAnalyze() {
	dq, _ := card.ParseList("DQ JK")
	fmt.Printf("%+v\n", arlington.Analyze(dq))
	a, _ := arlington.ParseCards("7S JK")
	b, _ := arlington.ParseCards("7H JK")
	c, _ := arlington.Compare(arlington.Multiples, a, b)
	fmt.Println(c)
	// Output:
	// {Legal:true Spectra:[multiples couples runs] Points:8}
	// 0
}
