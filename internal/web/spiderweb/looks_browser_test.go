package spiderweb

import (
	"fmt"
	"testing"

	"cardtable/spider"
)

// chooseLook opens the Score, card back and table dialog and picks value
// for the setting name.
func (p *browserPage) chooseLook(name, value string) {
	p.t.Helper()
	if !p.dialogOpen("#dlg-looks") {
		p.menu("#btn-cards-menu", `#menu-cards [data-act="looks"]`)
		p.waitJS(`document.querySelector("#dlg-looks").open`, "the score, card back and table dialog")
	}
	p.clickSel(fmt.Sprintf(`#form-looks input[name=%s][value=%s]`, name, value))
}

func (p *browserPage) dialogOpen(sel string) bool {
	p.t.Helper()
	var open bool
	p.eval(fmt.Sprintf(`!!document.querySelector(%q).open`, sel), &open)
	return open
}

// statusScore waits for the status bar to show label and score.
func (p *browserPage) statusScore(label string, score int) {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`document.querySelector("#st-score-label").textContent === %q && document.querySelector("#st-score").textContent === %q`,
		label, fmt.Sprint(score)), fmt.Sprintf("the status bar to show %s %d", label, score))
}

// TestLongBrowserWindowsScore: the Windows Spider score is a setting; the
// status bar shows it, a removal and an undo each cost a point, and the
// choice is kept by the server and localStorage across a reload.
func TestLongBrowserWindowsScore(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it; spider.TestWindowsScoreActions is the quick version")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.loadLayout(nearWonLayout)
	arachnid := p.serverView().Score
	p.statusScore("Score", arachnid)
	p.chooseLook("scoring", "windows")
	p.clickSel(`#form-looks button[type=submit]`)
	// Seven complete suits (six removed, one standing), no action yet.
	p.statusScore("Windows score", 500+7*100)

	p.drag(p.cardPoint(0, 0), p.elementPoint("#completed"))
	p.play(spider.RemoveFrom(0))
	p.expect("a complete suit removed")
	p.statusScore("Windows score", 1199)
	p.clickSel("#btn-undo")
	if err := p.shadow.Undo(); err != nil {
		t.Fatal(err)
	}
	p.expect("the removal undone")
	p.statusScore("Windows score", 1198)
	if w := p.serverView().Breakdown.Windows; w != 1198 {
		t.Fatalf("the server counts %d, the page shows 1198", w)
	}

	if s := getJSON[map[string]any](p, srv.URL+"/api/settings"); s["scoring"] != "windows" {
		t.Fatalf("server settings %v: want scoring windows", s)
	}
	p.load()
	p.statusScore("Windows score", 1198)
	var local string
	p.eval(`JSON.parse(localStorage.getItem("cardtable.spider.settings")).scoring`, &local)
	if local != "windows" {
		t.Fatalf("localStorage keeps scoring %q", local)
	}
	p.chooseLook("scoring", "arachnid")
	p.statusScore("Score", arachnid)
}

// looksJS reads the card back's and the table's colours as drawn, and the
// contrast of the page's text and focus ring against the table.
const looksJS = `(() => {
  const lum = (c) => {
    const [r, g, b] = c.match(/\d+/g).slice(0, 3).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m); return (x + 0.05) / (y + 0.05); };
  const probe = (v) => { const d = document.createElement("div"); d.style.color = v; document.body.append(d); const c = getComputedStyle(d).color; d.remove(); return c; };
  const root = getComputedStyle(document.documentElement);
  const felt = probe(root.getPropertyValue("--felt")), light = probe(root.getPropertyValue("--felt-light"));
  const text = getComputedStyle(document.body).color, ring = probe(root.getPropertyValue("--accent"));
  const back = getComputedStyle(document.querySelector("#card-sprite .c-back-a")).fill;
  return { back, felt, text: Math.min(ratio(text, felt), ratio(text, light)), ring: Math.min(ratio(ring, felt), ratio(ring, light)) };
})()`

type looks struct {
	Back, Felt string
	Text, Ring float64
}

// TestLongBrowserCardBacksAndTables: each card back and table colour is drawn
// as chosen, keeps the text and the focus ring readable, and is kept
// across a reload.
func TestLongBrowserCardBacksAndTables(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	var def looks
	p.eval(looksJS, &def)
	backs, felts := map[string]bool{def.Back: true}, map[string]bool{def.Felt: true}
	for _, c := range []struct{ back, table string }{{"red", "blue"}, {"green", "grey"}, {"plain", "dark"}} {
		p.chooseLook("back", c.back)
		p.chooseLook("table", c.table)
		var l looks
		p.eval(looksJS, &l)
		if backs[l.Back] || felts[l.Felt] {
			t.Errorf("%s back on %s table: drawn %s on %s, a colour already seen", c.back, c.table, l.Back, l.Felt)
		}
		backs[l.Back], felts[l.Felt] = true, true
		if l.Text < 7 || l.Ring < 3 {
			t.Errorf("%s table: text contrast %.1f (want 7), focus ring %.1f (want 3)", c.table, l.Text, l.Ring)
		}
	}
	p.load()
	var after looks
	p.eval(looksJS, &after)
	if !backs[after.Back] || after.Back == def.Back || after.Felt == def.Felt {
		t.Errorf("after a reload: back %s on %s; want the plain back on the dark table", after.Back, after.Felt)
	}
	if s := getJSON[map[string]any](p, srv.URL+"/api/settings"); s["back"] != "plain" || s["table"] != "dark" {
		t.Errorf("server settings %v: want the plain back and the dark table", s)
	}
}

// TestLongBrowserLooksDialogPhone: on a 390x844 phone the dialog fits the
// screen, its Done button within reach, nothing sideways.
func TestLongBrowserLooksDialogPhone(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 390, 844)
	p.chooseLook("table", "blue")
	var r struct{ Left, Right, Bottom, W, H float64 }
	p.eval(`(() => { const d = document.querySelector("#dlg-looks").getBoundingClientRect();
	  const b = document.querySelector("#form-looks button[type=submit]").getBoundingClientRect();
	  return { left: d.left, right: d.right, bottom: b.bottom, w: innerWidth, h: innerHeight }; })()`, &r)
	if r.Left < 0 || r.Right > r.W || r.Bottom > r.H {
		t.Errorf("the dialog spans %.0f-%.0f px with Done's foot at %.0f in a %.0fx%.0f window", r.Left, r.Right, r.Bottom, r.W, r.H)
	}
	p.noHorizontalScroll()
}
