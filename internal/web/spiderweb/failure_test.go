package spiderweb

import (
	"database/sql"
	"net/http"
	"testing"

	_ "modernc.org/sqlite"
)

// TestStoreFailureLosesNothing makes the database refuse updates: the move
// is answered 500, and the game stays at its last stored state in memory
// too, so what the player sees never runs ahead of what a restart would
// show.
func TestStoreFailureLosesNothing(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"deal":"617","suits":1}`)
	first := h.cmd(r.ID, "auto 1", http.StatusOK)
	if first.Move == "" {
		t.Fatal("auto 1 moved nothing")
	}

	raw, err := sql.Open("sqlite", "file:"+h.path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE TRIGGER refuse BEFORE UPDATE ON games
		BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
		t.Fatal(err)
	}
	var e errorBody
	h.call("POST", "/api/games/"+r.ID+"/commands", `{"cmd":"deal"}`, http.StatusInternalServerError, &e)
	if e.Error != "internal error" {
		t.Fatalf("message %q leaks details", e.Error)
	}
	now := r2(h, r.ID)
	if viewJSON(t, now.View) != viewJSON(t, first.View) {
		t.Fatal("the game moved on in memory although it was not stored")
	}
	if _, err := raw.Exec(`DROP TRIGGER refuse`); err != nil {
		t.Fatal(err)
	}
	if got := h.cmd(r.ID, "deal", http.StatusOK); got.View.Moves != 2 {
		t.Fatalf("after recovery: %d moves", got.View.Moves)
	}
}
