package spiderweb

import "testing"

// TestBrowserCompletedLabelContrast: the completed area's label
// ("Completed suits", 12 px) keeps 4.5:1 against the table's lightest
// shade on each table colour. At 55% opacity it was 2.9:1 on the green
// table, 3.5:1 on the blue and 3.6:1 on the grey.
func TestBrowserCompletedLabelContrast(t *testing.T) {
	t.Parallel()
	p := openPage(t, startBrowser(t), pageServer(t), 1280, 800)
	var got map[string]float64
	p.eval(`(() => {
	  const rgb = (c) => c.match(/[\d.]+/g).map(Number);
	  const lum = (c) => { const [r, g, b] = c.map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
	  const probe = (v) => { const d = document.createElement("div"); d.style.color = v; document.body.append(d); const c = rgb(getComputedStyle(d).color); d.remove(); return c; };
	  const label = document.querySelector("#completed .label"), was = document.documentElement.className, out = {};
	  for (const table of ["green", "blue", "grey", "dark"]) {
	    document.documentElement.className = "table-" + table;
	    const felt = probe(getComputedStyle(document.documentElement).getPropertyValue("--felt-light"));
	    let a = 1;
	    for (let e = label; e; e = e.parentElement) a *= +getComputedStyle(e).opacity;
	    const fg = rgb(getComputedStyle(label).color), text = fg.slice(0, 3).map((v, i) => v * a + felt[i] * (1 - a));
	    const [x, y] = [lum(text), lum(felt)].sort((m, n) => n - m);
	    out[table] = (x + 0.05) / (y + 0.05);
	  }
	  document.documentElement.className = was;
	  return out;
	})()`, &got)
	for _, table := range []string{"green", "blue", "grey", "dark"} {
		if got[table] < 4.5 {
			t.Errorf("on the %s table the completed area's label has contrast %.2f:1, want 4.5:1 or more", table, got[table])
		}
	}
}
