package arlweb

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonFoldedGroupKept: a folded group of actions (more
// than eight ways to add to a set) that the player opened, with the
// keyboard's focus on one of its buttons, stays the same open element
// with the focus on the same button when the actions are drawn again
// for a move that changed them (another way to add came); and once a
// selection unfolded it and was cleared, the group folds again open, as
// the player left it. Driven through the page's own module, so that the
// group is sure to fold.
func TestBrowserArlingtonFoldedGroupKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	_, _, p := openTable(t, e, "Ann", 0, "", "random")
	type kept struct {
		Folded, OpenedBySummary, SameElement, StillOpen, Focused, FoldedAgainOpen bool
	}
	k := eval[kept](p, `import("/arlington/actions.js").then(async ({ renderActions }) => {
	  const box = document.createElement("div");
	  document.body.append(box);
	  const adds = (n) => Array.from({ length: n }, (_, i) => ({ a: "add " + ["2","3","4","5","6","7","8","9","T","J"][i] + "H 2/1", words: "add " + i, delta: [i, 0], exact: true }));
	  const open = new Set();
	  const o = (more) => ({ me: 0, names: ["Ann", "Bob"], open, selecting: false, hinted: "", waiting: false, onAct: () => {}, ...more });
	  const toggled = (d) => new Promise((done) => d.addEventListener("toggle", done, { once: true }));
	  renderActions(box, adds(9), o());
	  const d0 = box.querySelector("details");
	  const r = { folded: !!d0 && !d0.open };
	  const t = toggled(d0);
	  d0.querySelector("summary").click();
	  await t;
	  r.openedBySummary = d0.open && open.has("add");
	  const b = d0.querySelector('button[data-action="add 5H 2/1"]');
	  b.focus();
	  renderActions(box, adds(10), o());
	  const d1 = box.querySelector("details");
	  r.sameElement = d1 === d0;
	  r.stillOpen = !!d1 && d1.open;
	  r.focused = document.activeElement === b;
	  renderActions(box, adds(10), o({ selecting: true }));
	  renderActions(box, adds(10), o());
	  const d2 = box.querySelector("details");
	  r.foldedAgainOpen = !!d2 && d2.open;
	  box.remove();
	  return r;
	})`, chromedp.EvalAwaitPromise)
	want := kept{true, true, true, true, true, true}
	if k != want {
		t.Errorf("a folded group across redraws: %+v, want %+v", k, want)
	}
}
