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
		{fmt.Errorf("%w: you have 50 saved games", store.ErrTooMany), 422, "too many: you have 50 saved games"},
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
