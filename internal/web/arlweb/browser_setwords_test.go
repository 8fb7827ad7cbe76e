package arlweb

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonSetWordsBest: the preview of a set that fits more
// than one spectrum says its points once, as the best spectrum's, since a
// set on a table scores in whichever spectrum gives it the most, whatever
// it was led as (the rules' Scoring section): Q♦ and a joker, led as a
// pair of queens (2 points), scores 8 as K♦ Q♦. The words come from the
// server's own preview answer, shown by the page's own function.
func TestBrowserArlingtonSetWordsBest(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	_, _, p := openTable(t, e, "Ann", 0, "", "random")
	type said struct{ Lead, Answer, One string }
	s := eval[said](p, `Promise.all([import("/arlington/render.js"),
	    fetch("/api/arlington/preview", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ cards: ["QD", "JK"] }) }).then((r) => r.json()),
	    fetch("/api/arlington/preview", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ cards: ["7S", "7H"] }) }).then((r) => r.json())])
	  .then(([m, two, one]) => ({ lead: m.setWords(two.as, true), answer: m.setWords(two.as, false), one: m.setWords(one.as, true) }))`, chromedp.EvalAwaitPromise)
	if !strings.Contains(s.Lead, "it scores 8 points whichever it is led as") || strings.Contains(s.Lead, "2 points") {
		t.Errorf("a set of several spectra, leading: %q; want its best points (8) once and no lesser points", s.Lead)
	}
	if !strings.Contains(s.Lead, "Choose the spectrum when you lead it") || strings.Contains(s.Answer, "Choose the spectrum") {
		t.Errorf("the choice of spectrum is told only when leading: lead %q, answer %q", s.Lead, s.Answer)
	}
	if s.One != "As a set: of a kind, 2 points." {
		t.Errorf("a set of one spectrum: %q", s.One)
	}
}
