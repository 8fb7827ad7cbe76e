package arlweb

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"cardtable/internal/record"
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
		{fmt.Errorf("%w: %w", table.ErrStore, record.ErrDiskFull), http.StatusInsufficientStorage, "storage_full"},
		{fmt.Errorf("%w: database is locked", table.ErrStore), http.StatusServiceUnavailable, "unavailable"},
	}
	for _, tc := range tests {
		t.Run(tc.class, func(t *testing.T) {
			err := classify(tc.err)
			rec := httptest.NewRecorder()
			web.WriteError(rec, httptest.NewRequest("POST", "/", nil), nil, err)
			if rec.Code != tc.code || className(err) != tc.class {
				t.Fatalf("got %d %s, class %s; want %d %s", rec.Code, rec.Body, className(err), tc.code, tc.class)
			}
		})
	}
}
