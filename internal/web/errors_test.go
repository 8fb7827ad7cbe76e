package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"cardtable/internal/store"
	"cardtable/spider"
)

func TestStatus(t *testing.T) {
	tests := []struct {
		err  error
		code int
		msg  string
	}{
		{badRequest("suits %d", 3), 400, "suits 3"},
		{fmt.Errorf("load: %w", spider.ErrFormat), 400, "load: bad format"},
		{fmt.Errorf("game x: %w", store.ErrNotFound), 404, "game x: not found"},
		{&requestError{errForbidden, "host"}, 403, "host"},
		{&requestError{errMethod, "no"}, 405, "no"},
		{&http.MaxBytesError{Limit: 10}, 413, "request body too large (limit 10 bytes)"},
		{fmt.Errorf("%w: 9C on QD", spider.ErrIllegal), 422, "illegal move: 9C on QD"},
		{fmt.Errorf("%w: no move to undo", spider.ErrNothing), 422, "nothing to do: no move to undo"},
		{&requestError{errNoSolver, "no solver"}, 501, "no solver"},
		{fmt.Errorf("store: %w", store.ErrReplaced), 503, "the server can no longer save: its database file was deleted or replaced; restart the server"},
		{context.Canceled, 503, "server busy or shutting down; try again"},
		{errors.New("disk on fire"), 500, "internal error"},
	}
	for _, tc := range tests {
		t.Run(tc.err.Error(), func(t *testing.T) {
			code, msg := status(tc.err)
			if code != tc.code || msg != tc.msg {
				t.Fatalf("got %d %q, want %d %q", code, msg, tc.code, tc.msg)
			}
		})
	}
}
