package spiderweb

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/spider"
)

// TestErrorStatus: the engine's and the store's errors get their statuses,
// and the player reads the error's own message.
func TestErrorStatus(t *testing.T) {
	tests := []struct {
		err  error
		code int
		msg  string
	}{
		{badRequest("suits %d", 3), 400, "suits 3"},
		{fmt.Errorf("load: %w", spider.ErrFormat), 400, "load: bad format"},
		{fmt.Errorf("game x: %w", store.ErrNotFound), 404, "game x: not found"},
		{fmt.Errorf("%w: 9C on QD", spider.ErrIllegal), 422, "illegal move: 9C on QD"},
		{fmt.Errorf("%w: no move to undo", spider.ErrNothing), 422, "nothing to do: no move to undo"},
		{fmt.Errorf("%w: 3 at once", store.ErrTooMany), 422, "too many: 3 at once"},
		{web.Errorf(web.ErrNotImplemented, "no solver"), 501, "no solver"},
		{fmt.Errorf("store: %w", store.ErrReplaced), 503, "the server can no longer save: its database file was deleted or replaced; restart the server"},
		{fmt.Errorf("store: %w: database or disk is full (13)", store.ErrDiskFull), 507, "the server's disk is full: this was not saved; try again later"},
		{fmt.Errorf("game x: %w", store.ErrStale), 503, "server busy or shutting down; try again"},
		{errors.New("disk on fire"), 500, "internal error"},
	}
	for _, tc := range tests {
		t.Run(tc.err.Error(), func(t *testing.T) {
			rec := httptest.NewRecorder()
			web.WriteError(rec, httptest.NewRequest("GET", "/", nil), nil, web.Classify(tc.err, classes))
			var e errorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || rec.Code != tc.code || e.Error != tc.msg {
				t.Fatalf("got %d %s, want %d %q", rec.Code, rec.Body, tc.code, tc.msg)
			}
		})
	}
}

// TestBadUploadIsBadRequest: an uploaded save the engine refuses is the
// client's fault, 400 with the engine's message, whatever else the error
// wraps: an illegal move in it wraps spider.ErrIllegal (422 on its own)
// as well as spider.ErrFormat, and the upload route answers the engine's
// error as classified (classes), so ErrFormat must come first there.
func TestBadUploadIsBadRequest(t *testing.T) {
	h := newHarness(t, Options{})
	base := spider.SaveHeader + "\nvariant: spider\nsuits: 1\ndeal: 617\n"
	for _, tc := range []struct{ name, save, msg string }{
		{"illegal move", base + "moves: 2\ndeal\nmove 1 1 1\n", "bad format: line 7: move 1 1 1: a pile cannot move onto itself"},
		{"bad number", base + "stopped: x\nmoves: 0\n", "bad format: line 5: stopped: \"x\" is not a whole number"},
	} {
		if _, err := spider.Load(tc.save); err == nil || err.Error() != tc.msg {
			t.Fatalf("%s: the engine says %v, want %q", tc.name, err, tc.msg)
		}
		code, b, _ := h.do("POST", "/api/games/load", tc.save)
		var e errorBody
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("%s: got %d %s, not an error answer: %v", tc.name, code, b, err)
		}
		if code != 400 {
			t.Errorf("%s: got status %d, want 400 (%q)", tc.name, code, e.Error)
		}
		if e.Error != tc.msg {
			t.Errorf("%s: the player reads %q, want the engine's %q", tc.name, e.Error, tc.msg)
		}
	}
	// The engine's error itself, classified as any error is, is 400 too.
	_, err := spider.Load(base + "moves: 2\ndeal\nmove 1 1 1\n")
	if !errors.Is(err, spider.ErrIllegal) || !errors.Is(err, spider.ErrFormat) {
		t.Fatalf("%v: wraps ErrIllegal %v and ErrFormat %v, want both (or this test shows nothing)",
			err, errors.Is(err, spider.ErrIllegal), errors.Is(err, spider.ErrFormat))
	}
	if got := web.ClassName(web.Classify(err, classes)); got != "bad_request" {
		t.Errorf("%v: classified %s, want bad_request", err, got)
	}
}
