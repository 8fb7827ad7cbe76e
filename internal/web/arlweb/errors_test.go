package arlweb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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

// TestDamagedStoredTableIsServerFault: a finished table kept in the store
// whose config or one of whose moves the hub refuses cannot be rebuilt
// for its record or its replay. The store holds only what the server
// wrote, so both answer 500 with the generic message, never the 400 a
// client's bad action or settings get, and never the stored details
// (they go to the log).
func TestDamagedStoredTableIsServerFault(t *testing.T) {
	const two = `{"players":2,"target":32,"bots":["random","random"]}`
	e := newEnv(t, Limits{Burst: 10000})
	ctx := context.Background()
	for i, tc := range []struct{ name, cfg, action string }{
		{"unreadable action", two, "lead XX"},                         // ErrBadAction when a client sends it
		{"bad set", two, "set runs 7H 7H"},                            // ErrBadSet
		{"illegal action", two, "kill"},                               // the rules refuse it
		{"bad config", `{"players":9,"target":32,"bots":[]}`, "kill"}, // ErrBadConfig
		{"seats for players", `{"players":3,"target":32,"bots":["random","random","random"]}`, "kill"},
	} {
		id := fmt.Sprintf("damaged%d", i)
		now := time.Now()
		s := table.Stored{ID: id, Creator: "x", Config: tc.cfg, Seed: 5,
			Seats: []table.StoredSeat{{}, {}}, Status: table.StatusOpen, Created: now, Updated: now}
		if err := e.db.CreateTable(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := e.db.AppendAction(ctx, id, 0, table.StoredMove{Seat: 0, Action: tc.action}); err != nil {
			t.Fatal(err)
		}
		if err := e.db.FinishTable(ctx, id, table.StatusOver, now); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/replay", "/record"} {
			var body map[string]any
			code := e.client().do("GET", "/api/arlington/tables/"+id+p, nil, &body)
			if code != http.StatusInternalServerError || body["error"] != "internal error" {
				t.Errorf("%s, GET %s: got %d %v, want 500 with the generic message", tc.name, p, code, body)
			}
		}
	}
}
