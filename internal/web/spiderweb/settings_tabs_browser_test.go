package spiderweb

import (
	"strings"
	"testing"
)

// TestBrowserSettingsTabsFollow: two tabs open at once, each changing a
// setting, end with both changes, at the server and in both tabs. Tab A
// turns sound on; tab B, loaded before that, turns verbose off. B used to
// keep the settings it loaded and write them all, sound off with them,
// undoing A's change; now each tab is told of the other's change (the
// browser's storage event) and a change is made to the browser's newest
// copy.
func TestBrowserSettingsTabsFollow(t *testing.T) {
	bctx := startBrowser(t)
	ss := newSettingsServer(t)
	a := openPage(t, bctx, ss.srv, 1280, 800)
	b := openPage(t, bctx, ss.srv, 1280, 800)
	a.menu("#btn-cards-menu", `#menu-cards [data-set="sound"]`)
	waitSignal(t, ss.stored, "tab A's settings write")
	a.idle()
	b.menu("#btn-cards-menu", `#menu-cards [data-set="verbose"]`)
	b.waitJS(`document.querySelector('[data-set="verbose"]').getAttribute("aria-checked") === "false"`, "verbose off in tab B")
	b.idle()
	if s := ss.settings(b); s["sound"] != true || s["verbose"] != false {
		t.Errorf("the server's settings after a change in each tab: sound %v verbose %v, want true and false", s["sound"], s["verbose"])
	}
	b.waitJS(`document.querySelector('[data-set="sound"]').getAttribute("aria-checked") === "true"`, "tab B to show tab A's sound on")
	a.waitJS(`document.querySelector('[data-set="verbose"]').getAttribute("aria-checked") === "false"`, "tab A to show tab B's verbose off")
	// A look changed in one tab shows in the other at once: its table.
	a.menu("#btn-cards-menu", `#menu-cards [data-act="looks"]`)
	a.clickSel(`#form-looks input[name="table"][value="blue"]`)
	a.idle()
	b.waitJS(`document.documentElement.classList.contains("table-blue")`, "tab B to show tab A's blue table")
	if s := ss.settings(b); s["table"] != "blue" || s["sound"] != true || s["verbose"] != false {
		t.Errorf("the server's settings after tab A's table: %v, want table blue, sound true, verbose false", s)
	}
}

// TestBrowserSettingsRefused: a settings write the server refuses as bad
// (here too large: a browser copy grown past the server's 16 KiB, which
// the page is loaded with, marked unsent) is told to the player once,
// and the browser's copy becomes the settings the server keeps, so no
// page sends it again. It used to fail silently and stay unsent: every
// load sent it again, and was refused again, and every change after it
// too.
func TestBrowserSettingsRefused(t *testing.T) {
	bctx := startBrowser(t)
	ss := newSettingsServer(t)
	p := openPage(t, bctx, ss.srv, 1280, 800)
	p.eval(`localStorage.setItem("cardtable.spider.settings", JSON.stringify({verbose: false, newGame: {note: "x".repeat(20000)}})),
		localStorage.setItem("cardtable.spider.settings.unsent", "1"), 1`, nil)
	p.load()
	if n := ss.puts.Load(); n != 1 {
		t.Fatalf("%d settings writes reached the server, want 1", n)
	}
	if msg := p.text("#toast .msg"); !strings.Contains(msg, "Settings not saved") || !strings.Contains(msg, "too large") {
		t.Errorf("message after the refused write: %q, want it to say the settings were not saved and why", msg)
	}
	if unsentMark(p) {
		t.Errorf("the browser still marks the refused settings unsent")
	}
	var size int
	p.eval(`(localStorage.getItem("cardtable.spider.settings") || "").length`, &size)
	if size > 16<<10 {
		t.Errorf("the browser's copy is still %d characters, past the server's bound", size)
	}
	// Shown: the server's (none kept, so the defaults: verbose on).
	if v := setting(p, "verbose"); v != "true" {
		t.Errorf("verbose aria-checked %q after the refusal, want true (the server's)", v)
	}
	p.load()
	if n := ss.puts.Load(); n != 1 {
		t.Errorf("%d settings writes after a reload, want still 1: the refused copy was sent again", n)
	}
	var shown bool
	p.eval(`!document.querySelector("#toast").hidden`, &shown)
	if shown {
		t.Errorf("a message shows after the reload: %q", p.text("#toast .msg"))
	}
	// A change made now is taken.
	p.menu("#btn-cards-menu", `#menu-cards [data-set="sound"]`)
	p.waitJS(`document.querySelector('[data-set="sound"]').getAttribute("aria-checked") === "true"`, "sound on")
	p.idle()
	if s := ss.settings(p); s["sound"] != true {
		t.Errorf("the server's settings after a change made once the refusal was told: %v, want sound true", s)
	}
}

// TestBrowserSettingsRetried: a settings write that fails for now (503,
// Retry-After: 1) is kept unsent, told nothing of, and sent again by the
// page itself after the server's wait, which takes it. It used to wait
// for the next page to be loaded.
func TestBrowserSettingsRetried(t *testing.T) {
	bctx := startBrowser(t)
	ss := newSettingsServer(t)
	p := openPage(t, bctx, ss.srv, 1280, 800)
	ss.fail.Store(1)
	p.menu("#btn-cards-menu", `#menu-cards [data-set="sound"]`)
	p.waitJS(`document.querySelector('[data-set="sound"]').getAttribute("aria-checked") === "true"`, "sound on")
	waitSignal(t, ss.stored, "the settings write sent again")
	p.idle()
	if n := ss.puts.Load(); n != 2 {
		t.Errorf("%d settings writes, want 2: the failed one and one sent again", n)
	}
	if s := ss.settings(p); s["sound"] != true {
		t.Errorf("the server's settings after the write sent again: %v, want sound true", s)
	}
	if unsentMark(p) {
		t.Errorf("the browser still marks its settings unsent once the server took them")
	}
	if msg := p.text("#toast .msg"); strings.Contains(msg, "not saved") {
		t.Errorf("a write failed for now was told as refused: %q", msg)
	}
}
