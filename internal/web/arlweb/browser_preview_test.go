package arlweb

import (
	"strings"
	"testing"
)

// TestBrowserArlingtonTrickPreview: on a turn in a trick, a card selected
// that is no set (a 7♣, say) is told by what it does to the trick, never
// as a set to lead: the preview said "The 7♣ alone is not a set … (lead
// it as a card instead)" to a player who could only play to the trick.
func TestBrowserArlingtonTrickPreview(t *testing.T) {
	p := seatedAt(t, 390, 844, "Ann", longGame, "", "random", "random", "random")
	// Ann plays her first action each turn until a trick is hers to play to.
	p.until(`(() => {
	  if (document.querySelector('#actions [data-group="play"] button[data-action]:not(:disabled)')) return true;
	  const first = document.querySelector("#actions button[data-action]:not(:disabled)");
	  if (first) first.click();
	  return false;
	})()`)
	// A card that is no set alone: not an ace, the 2♥ or a joker.
	c := eval[string](p, `[...document.querySelectorAll("#hand .hand-card")].map((b) => b.dataset.card).find((c) => c[0] !== "A" && c !== "2H" && c !== "JK") || ""`)
	if c == "" {
		t.Fatalf("no card in Ann's hand other than aces, the 2♥ and jokers: %v", p.hand())
	}
	eval[bool](p, `(() => { document.querySelector('#hand .hand-card[data-card=`+q(c)+`]').click(); return true; })()`)
	p.until(`document.getElementById("preview").textContent !== ""`)
	got := eval[string](p, `document.getElementById("preview").textContent + " [" + document.getElementById("preview").className + "]"`)
	t.Logf("the %s in a trick: %s", c, got)
	if !strings.Contains(got, "trick") || strings.Contains(got, "not a set") || strings.Contains(got, "lead it") || strings.Contains(got, "bad") {
		t.Errorf("preview of the %s selected to play to a trick: %q; want what it does to the trick, unmarked", c, got)
	}
}
