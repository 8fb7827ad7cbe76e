package arlweb

import (
	"net/http/httptest"
	"testing"
)

// TestTablePath: which requests name a table (forwarded to its server)
// and which makes one (sent to the least loaded server); the rest stay.
func TestTablePath(t *testing.T) {
	for _, c := range []struct {
		method, path string
		id           string
		isNew        bool
	}{
		{"POST", "/api/arlington/tables", "", true},
		{"POST", "/api/arlington/tables/", "", true},
		{"GET", "/api/arlington/tables", "", false},
		{"GET", "/api/arlington/tables/ABC", "ABC", false},
		{"GET", "/api/arlington/tables/ABC/ws", "ABC", false},
		{"POST", "/api/arlington/tables/ABC/join", "ABC", false},
		{"GET", "/api/arlington/tablesX/ABC", "", false},
		{"GET", "/api/arlington/games", "", false},
		{"GET", "/arlington/t/ABC", "", false},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			id, isNew := tablePath(httptest.NewRequest(c.method, c.path, nil))
			if id != c.id || isNew != c.isNew {
				t.Fatalf("tablePath = %q, %v; want %q, %v", id, isNew, c.id, c.isNew)
			}
		})
	}
}
