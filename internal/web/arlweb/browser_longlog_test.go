package arlweb

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// A table page watching a game with a long log: what it does with each
// view must not grow with the log (table.js keeps the events as they
// come; it copied the whole list at each view).

// longLog makes a table of a person, whom the test plays through the
// WebSocket (the first legal action at each turn), and two random bots,
// to the longest target, and plays until its log holds n events. more
// plays the person's next action and returns the log's length after it.
func longLog(tb testing.TB, e *env, n int) (id string, more func() int) {
	tb.Helper()
	c := e.client()
	var got created
	cfg := table.Config{Players: 3, Bots: []string{"", "random", "random"}, Target: longGame, TurnSeconds: -1}
	if code := c.do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		tb.Fatalf("create: %d", code)
	}
	id = got.ID
	seat := c.join(id, "Ann")
	w := c.dial(id, -1)
	var last srvMsg // the latest view with the game
	next := func() { last = w.waitFor(func(m srvMsg) bool { return isView(m) && m.View != nil }) }
	more = func() int {
		tb.Helper()
		for last.View == nil || last.View.ToMove >= 0 && (last.View.ToMove != seat || len(last.Legal) == 0) {
			next()
		}
		if last.View.ToMove < 0 {
			tb.Fatalf("the game ended at %d events", last.View.EventCount)
		}
		at := last.View.EventCount
		w.send(map[string]any{"type": "action", "action": last.Legal[0]})
		for last.View.EventCount <= at {
			next()
		}
		return last.View.EventCount
	}
	for count := 0; count < n; {
		count = more()
	}
	return id, more
}

// walkHooks counts, in every document, the elements the page's script
// walks with the arrays' own methods (slice, concat, filter, indexOf and
// the like) in arrays of window.__walk.min elements or more (0: none
// counted), each view's sum (its handling by the page: the WebSocket's
// onmessage) and the most of any view; the most of the game log's lines
// one view asks whether they are hidden (lines: a walk of the log's
// hands one by one, each shorter than the log, adds up there); the
// elements made (document.createElement) handling views; and the time
// spent handling views.
const walkHooks = `(() => {
  const walk = window.__walk = { min: 0, cur: 0, most: 0, where: "", linesCur: 0, lines: 0, views: 0, ms: 0, made: 0, handling: false };
  const make = document.createElement;
  document.createElement = function (...a) { if (walk.handling) walk.made++; return make.apply(this, a); };
  const count = (a, k) => { if (walk.min > 0 && a.length >= walk.min) { walk.cur += k; if (k >= walk.min / 2) walk.where = new Error().stack; } };
  const hidden = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "hidden");
  Object.defineProperty(HTMLElement.prototype, "hidden", { configurable: true,
    get() { if (this.tagName === "LI" && this.closest("#log")) walk.linesCur++; return hidden.get.call(this); },
    set(v) { hidden.set.call(this, v); } });
  const A = Array.prototype;
  for (const name of ["filter", "map", "forEach", "reduce", "reduceRight", "flatMap"]) {
    const f = A[name];
    A[name] = function (...args) { count(this, this.length); return f.apply(this, args); };
  }
  for (const name of ["some", "every", "find", "findIndex", "findLast", "findLastIndex"]) {
    const f = A[name];
    A[name] = function (fn, ...rest) { let k = 0; const r = f.call(this, function (...a) { k++; return fn.apply(this, a); }, ...rest); count(this, k); return r; };
  }
  const slice = A.slice;
  A.slice = function (s, e) {
    const n = this.length, at = (x, d) => x === undefined ? d : x < 0 ? Math.max(0, n + x) : Math.min(n, x);
    count(this, Math.max(0, at(e, n) - at(s, 0)));
    return slice.call(this, s, e);
  };
  const concat = A.concat;
  A.concat = function (...args) { count(this, this.length); return concat.apply(this, args); };
  const indexOf = A.indexOf, lastIndexOf = A.lastIndexOf, includes = A.includes;
  A.indexOf = function (...a) { const r = indexOf.apply(this, a); count(this, r < 0 ? this.length : r + 1); return r; };
  A.includes = function (...a) { const r = indexOf.apply(this, a); count(this, r < 0 ? this.length : r + 1); return includes.apply(this, a); };
  A.lastIndexOf = function (...a) { const r = lastIndexOf.apply(this, a); count(this, r < 0 ? this.length : this.length - r); return r; };
  const d = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage");
  Object.defineProperty(WebSocket.prototype, "onmessage", { configurable: true,
    get() { return d.get.call(this); },
    set(fn) {
      d.set.call(this, fn && function (ev) {
        walk.cur = 0; walk.linesCur = 0; walk.handling = true;
        const t0 = performance.now();
        try { return fn.call(this, ev); } finally { walk.handling = false; walk.ms += performance.now() - t0; walk.views++; walk.most = Math.max(walk.most, walk.cur); walk.lines = Math.max(walk.lines, walk.linesCur); }
      });
    } });
})();`

// walked is what walkHooks counted.
type walked struct {
	Most, Lines, Views, Made int
	Ms                       float64
	Where                    string
}

// watchLongLog opens the page of a table with a log of n events, as a
// spectator (reduced motion: each view drawn as it comes), counting its
// walks (walkHooks) in arrays of n elements or more from then on.
func watchLongLog(tb testing.TB, n int) (p *seatTab, more func() int) {
	tb.Helper()
	e := newEnv(tb, Limits{Burst: 100000})
	id, more := longLog(tb, e, n)
	p = seatTabIn(tb, startBrowser(tb), "watcher")
	p.beforeLoad(walkHooks)
	p.open(e.srv.URL, id)
	p.until(shownAll)
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.__walk.min = %d; window.__walk.most = 0; window.__walk.lines = 0; window.__walk.views = 0; window.__walk.ms = 0; window.__walk.made = 0`, n)))
	return p, more
}

// TestBrowserArlingtonViewWalksNoLog: with a log of 200 events, each of
// 10 views the page is sent walks no array of the log's length with the
// arrays' methods: it adds the view's events to what it has. It made
// the whole list anew at each view (slice and concat, twice: the events
// and their words), looked for the last score through all of it and the
// taken trick from the log's start.
func TestBrowserArlingtonViewWalksNoLog(t *testing.T) {
	t.Parallel()
	const n, views = 200, 10
	p, more := watchLongLog(t, n)
	count := 0
	for range views {
		count = more()
	}
	p.until(fmt.Sprintf(`window.__ws.count >= %d && %s`, count, shownAll))
	got := eval[walked](p, `window.__walk`)
	t.Logf("%d views past %d events: at most %d elements walked in arrays that long in one view; %.1f ms handling views", got.Views, n, got.Most, got.Ms)
	if got.Views < views {
		t.Fatalf("%d views counted, want %d or more", got.Views, views)
	}
	if got.Most >= n/2 {
		t.Errorf("a view walked %d elements of arrays of %d or more: the page goes through its whole log at each view; at %s", got.Most, n, got.Where)
	}
}

// TestBrowserArlingtonViewWalksNoLogFiltered: with the game log's Find
// box hiding every line, each of 10 views past 200 events asks of fewer
// than 100 of the log's lines whether they are hidden: the log shows a
// hand once one of its new events shows, and no hand does here. It looked through every hand's
// lines at each view for one shown, which costs the whole log when the
// filter hides most lines (unfiltered, the first line ends each look).
func TestBrowserArlingtonViewWalksNoLogFiltered(t *testing.T) {
	t.Parallel()
	const n, views = 200, 10
	p, more := watchLongLog(t, n)
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
	  const f = document.getElementById("log-filter");
	  f.value = "no event says this";
	  f.dispatchEvent(new Event("input"));
	  window.__walk.lines = 0; window.__walk.views = 0;
	})()`))
	count := 0
	for range views {
		count = more()
	}
	p.until(fmt.Sprintf(`window.__ws.count >= %d && %s`, count, shownAll))
	got := eval[walked](p, `window.__walk`)
	t.Logf("%d views past %d events, the log filtered to no line: at most %d of its lines looked at in one view", got.Views, n, got.Lines)
	if got.Views < views {
		t.Fatalf("%d views counted, want %d or more", got.Views, views)
	}
	if shown := eval[int](p, `document.querySelectorAll("#log section:not([hidden])").length`); shown != 0 {
		t.Errorf("%d hands of the log show with every line filtered out", shown)
	}
	if got.Lines >= n/2 {
		t.Errorf("a view looked at %d of the log's lines: the page goes through the log at each view", got.Lines)
	}
}

// BenchmarkBrowserArlingtonLongLogView measures the table page's handling
// of a view (its WebSocket message: the events added, the table drawn)
// when the log already holds 100 events, and 3,000: ms a view, the mean
// over the views of b.N of the person's actions (the bots' plays after
// each come in views of their own), the most elements one view walked
// in arrays as long as the log, and the elements a view made, the mean
// (walkHooks).
func BenchmarkBrowserArlingtonLongLogView(b *testing.B) {
	for _, n := range []int{100, 3000} {
		b.Run(fmt.Sprintf("log=%d", n), func(b *testing.B) {
			p, more := watchLongLog(b, n)
			count := 0
			for b.Loop() {
				count = more()
			}
			p.until(fmt.Sprintf(`window.__ws.count >= %d && %s`, count, shownAll))
			got := eval[walked](p, `window.__walk`)
			b.ReportMetric(got.Ms/float64(got.Views), "page-ms/view")
			b.ReportMetric(float64(got.Most), "walked/view")
			b.ReportMetric(float64(got.Made)/float64(got.Views), "made/view")
		})
	}
}

// TestBrowserArlingtonSheetDrawsNewRows: at each view the score sheet
// draws only what changed: the rows of the hands scored before stay the
// same elements, a hand scored since adds its row, and the sheet so
// drawn is the one a fresh page draws. It was drawn whole at each view,
// a row per hand played.
func TestBrowserArlingtonSheetDrawsNewRows(t *testing.T) {
	t.Parallel()
	p, more := watchLongLog(t, 1)
	const rows = `document.querySelectorAll("#sheet tbody tr")`
	count := 0
	// scored plays until a hand more is scored and the page shows it: its
	// number of hands scored.
	scored := func() int {
		had := eval[int](p, `window.__ws.results`)
		for i := 0; eval[int](p, `window.__ws.results`) == had; i++ {
			if i == 200 {
				t.Fatalf("no hand scored in 200 actions after %d events", count)
			}
			count = more() // the page may be a view behind: the next look sees it
		}
		now := eval[int](p, `window.__ws.results`)
		p.until(fmt.Sprintf(`window.__ws.count >= %d && %s && %s.length === %d`, count, shownAll, rows, now))
		return now
	}
	had := scored()
	p.do(chromedp.Evaluate[chromedp.Void](rows + `.forEach((r) => { r.__before = true; })`))
	now := scored()
	kept := eval[[]bool](p, `[...`+rows+`].map((r) => r.__before === true)`)
	for i, k := range kept {
		if k != (i < had) {
			t.Errorf("row %d of %d (%d drawn before the new hand): kept %v, want %v", i+1, len(kept), had, k, i < had)
		}
	}
	t.Logf("%d hands scored, then %d, at %d events", had, now, count)
	drawn := eval[string](p, `document.getElementById("sheet").outerHTML`)
	p.do(chromedp.Reload())
	p.until(fmt.Sprintf(`window.__ws && window.__ws.count >= %d && %s`, count, shownAll))
	if fresh := eval[string](p, `document.getElementById("sheet").outerHTML`); fresh != drawn {
		t.Errorf("the sheet drawn view by view:\n%s\nwant the one a fresh page draws:\n%s", drawn, fresh)
	}
}
