package arlweb

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

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
