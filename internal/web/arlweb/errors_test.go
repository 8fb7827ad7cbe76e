package arlweb

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// TestStoreErrorStatus: a table the store could not write is 503, unless
// the store's disk is full: 507, so the operator and the player see why.
func TestStoreErrorStatus(t *testing.T) {
	tests := []struct {
		err   error
		code  int
		class string
	}{
		{fmt.Errorf("%w: %w", table.ErrStore, table.ErrDiskFull), http.StatusInsufficientStorage, "storage_full"},
		{fmt.Errorf("%w: database is locked", table.ErrStore), http.StatusServiceUnavailable, "unavailable"},
	}
	for _, tc := range tests {
		t.Run(tc.class, func(t *testing.T) {
			err := web.Classify(tc.err, classes)
			rec := httptest.NewRecorder()
			web.WriteError(rec, httptest.NewRequest("POST", "/", nil), nil, err)
			if rec.Code != tc.code || web.ClassName(err) != tc.class {
				t.Fatalf("got %d %s, class %s; want %d %s", rec.Code, rec.Body, web.ClassName(err), tc.code, tc.class)
			}
		})
	}
}

// TestRecordErrorStatus: a stored record the engine refuses (the replay
// reads only records the server wrote) stays a server fault, 500, even
// when the engine's error wraps ErrBadAction or ErrBadSet, which are 400
// for an action a client sends; that action is still 400.
func TestRecordErrorStatus(t *testing.T) {
	const head = "arlington record 1\nplayers 2\ntarget 32\nseed 5\n"
	for _, move := range []string{"0 lead XX", "0 set runs 7H 7H", "0 dance"} {
		_, _, err := arlington.Load(strings.NewReader(head + move + "\n"))
		if !errors.Is(err, arlington.ErrBadAction) {
			t.Fatalf("%q: %v does not wrap %v", move, err, arlington.ErrBadAction)
		}
		err = web.Classify(fmt.Errorf("table x: its record: %w", err), classes)
		rec := httptest.NewRecorder()
		web.WriteError(rec, httptest.NewRequest("GET", "/", nil), nil, err)
		if rec.Code != http.StatusInternalServerError {
			t.Errorf("%q: got %d %s, want 500", move, rec.Code, rec.Body)
		}
	}
	_, err := Decode([]byte(`{"type":"action","action":"set runs 7H 7H"}`))
	if web.ClassName(web.Classify(err, classes)) != "bad_request" || !errors.Is(err, arlington.ErrBadSet) {
		t.Errorf("client action: %v, class %s", err, web.ClassName(web.Classify(err, classes)))
	}
}
