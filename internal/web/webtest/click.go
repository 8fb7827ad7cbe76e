package webtest

import (
	"context"
	"encoding/json"

	"github.com/chromedp/chromedp"
)

// Free is a JavaScript condition that holds once the element sel can take
// a click at its middle: it is shown and enabled, it has not moved since
// the condition was last asked (the page is not still laying itself out
// around it), and nothing else (a message box, a dialog's backdrop) lies
// over its middle. chromedp.Click clicks wherever the element's middle is
// at the moment it asks, and a click that lands on something else is lost
// without a sign; a test that waits for what the click does then fails
// long after, at the wrong step.
func Free(sel string) string {
	return `(() => {
		const e = ` + jsQuery(sel) + `;
		const seen = (window.cardtableFreeSeen ||= {}), key = ` + jsQuote(sel) + `;
		if (!e || e.disabled) return false;
		const r = e.getBoundingClientRect(), at = [r.x, r.y, r.width, r.height].join();
		const still = seen[key] === at;
		seen[key] = at;
		if (!still || r.width === 0 || r.height === 0) return false;
		const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
		return !!hit && (hit === e || e.contains(hit));
	})()`
}

// At is JavaScript naming what lies at the middle of the element sel now,
// and the dialog open if any: for a failure's message.
func At(sel string) string {
	return `(() => {
		const name = (n) => n ? n.tagName.toLowerCase() + (n.id ? "#" + n.id : "") + (n.className && typeof n.className === "string" ? "." + n.className.trim().split(/\s+/).join(".") : "") : "nothing";
		const e = ` + jsQuery(sel) + `;
		if (!e) return "no element";
		const r = e.getBoundingClientRect();
		const d = document.querySelector("dialog[open]");
		return "at its middle (" + Math.round(r.x + r.width / 2) + "," + Math.round(r.y + r.height / 2) + "): " +
			name(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)) +
			"; open dialog: " + name(d) + "; focus: " + name(document.activeElement);
	})()`
}

// ClickFree clicks the element sel in the tab ctx once it is Free,
// scrolled into view first.
func ClickFree(ctx context.Context, sel string) error {
	if err := Do(ctx, "scrolling to "+sel, chromedp.ScrollIntoView(chromedp.CSS(sel))); err != nil {
		return err
	}
	if err := Wait(ctx, Free(sel), sel+" free to click"); err != nil {
		return err
	}
	return Do(ctx, "clicking "+sel, chromedp.Click(chromedp.CSS(sel)))
}

func jsQuote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
