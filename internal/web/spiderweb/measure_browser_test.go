package spiderweb

import (
	"fmt"
	"testing"
)

// TestBrowserMeasuresOnlyWhenAsked: the page keeps its redraw and command
// times only in a tab that asked for them (measureKey), as nobody else
// reads them; it kept the last 200 of each in every tab.
func TestBrowserMeasuresOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.newGameByNumber(617)
	deal := func() {
		t.Helper()
		var moves string
		p.eval(`document.querySelector("#st-moves").textContent`, &moves)
		p.clickSel("#btn-deal")
		p.waitJS(fmt.Sprintf(`document.querySelector("#st-moves").textContent !== %q && document.body.dataset.busy === "0"`, moves), "the deal")
	}
	type kept struct{ Redraws, Commands int } // -1: not kept
	const read = `({redraws: window.cardtableRenderTimes ? window.cardtableRenderTimes.length : -1,
	  commands: window.cardtableTimings ? window.cardtableTimings.length : -1})`
	deal()
	var got kept
	p.eval(read, &got)
	if got != (kept{-1, -1}) {
		t.Errorf("not asked, the page keeps measurements: %+v (-1: none)", got)
	}
	p.measure()
	deal()
	p.eval(read, &got)
	if got.Redraws < 1 || got.Commands != 1 {
		t.Errorf("asked, the page keeps %+v (-1: none); want redraws and the one command", got)
	}
}
