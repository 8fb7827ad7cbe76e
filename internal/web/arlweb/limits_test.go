package arlweb

import (
	"net/http"
	"testing"

	"cardtable/internal/table"
)

// TestTablesPerAddress: a client taking a fresh identity for every request
// cannot fill the lobby from one address: past table.DefaultMaxPerAddr
// tables it gets 429, and the refusal names the address's tables.
func TestTablesPerAddress(t *testing.T) {
	e := newEnv(t, Limits{})
	cfg := table.Config{Players: 2, Bots: []string{"random", "random"}}
	for i := range table.DefaultMaxPerAddr {
		var got created
		if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
			t.Fatalf("table %d from the address: %d", i+1, code)
		}
	}
	var refused struct {
		Error string `json:"error"`
	}
	code := e.client().do("POST", "/api/arlington/tables", cfg, &refused)
	if code != http.StatusTooManyRequests || refused.Error == "" {
		t.Fatalf("one table more from the address: %d %q, want 429", code, refused.Error)
	}
	t.Logf("refused: %s", refused.Error)
	if n := len(e.hub.List()); n != table.DefaultMaxPerAddr {
		t.Fatalf("%d tables open", n)
	}
}
