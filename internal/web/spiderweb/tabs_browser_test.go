package spiderweb

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
)

// TestBrowserTwoTabs: two tabs of one browser show the same game; one deals,
// and the other, still showing the game before the deal, asks to undo. The
// server refuses the stale undo (the deal stays), and the stale tab catches
// up: it shows the game as it stands and says why nothing happened.
func TestBrowserTwoTabs(t *testing.T) {
	t.Parallel()
	srv := pageServer(t)
	bctx := startBrowser(t)
	a := openPage(t, bctx, srv, 1280, 800)
	b := openPage(t, bctx, srv, 1280, 800) // the same game, from localStorage
	if a.gameID() != b.gameID() {
		t.Fatalf("the tabs show games %s and %s, want one game", a.gameID(), b.gameID())
	}
	start := b.dom()

	a.keys("d")
	a.waitJS(`document.querySelector("#st-moves").textContent === "1"`, "tab A's deal")
	a.idle()
	dealt := a.serverView()
	if dealt.Moves != 1 {
		t.Fatalf("after tab A's deal the server has %d moves", dealt.Moves)
	}
	if got := b.dom(); !reflect.DeepEqual(got, start) {
		t.Fatalf("tab B changed before it was used: the test needs it stale\n%+v", got)
	}

	b.keys("u")
	b.waitJS(`document.body.dataset.caughtUp === "2"`, "tab B to catch up")
	want := domOf(dealt)
	deadline := time.Now().Add(webtest.StepTimeout)
	for got := b.dom(); !reflect.DeepEqual(got, want); got = b.dom() {
		if time.Now().After(deadline) {
			b.shot("two-tabs-mismatch")
			t.Fatalf("tab B shows\n%+v\nwant the game as it stands\n%+v", got, want)
		}
		time.Sleep(40 * time.Millisecond)
	}
	if msg := b.text("#toast .msg"); !strings.Contains(msg, "another tab") {
		t.Errorf("tab B says %q, want it to say the game changed in another tab", msg)
	}
	if v := b.serverView(); !reflect.DeepEqual(v, dealt) {
		t.Fatalf("the stale undo changed the game: %d moves, want the deal kept", v.Moves)
	}
	b.shot("two-tabs-caught-up")

	// Caught up, tab B's undo is tab B's to make.
	b.keys("u")
	b.waitJS(`document.querySelector("#st-moves").textContent === "0"`, "tab B's undo")
	b.idle()
	if v := b.serverView(); v.Moves != 0 {
		t.Fatalf("tab B's undo after catching up: the server has %d moves", v.Moves)
	}
}
