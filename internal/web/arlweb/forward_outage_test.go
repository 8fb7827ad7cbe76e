package arlweb

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web"
)

// outOfReach is a store's error of the database out of reach.
type outOfReach struct{}

func (outOfReach) Error() string     { return "connection refused" }
func (outOfReach) Unavailable() bool { return true }

// TestForwardOutOfReachLogBounded: while the database is out of reach
// every request for a table another server may run fails to find it;
// those failures go through the server's event log (the minute's share,
// then a count), not a line each; a failure of another kind is logged
// every time.
func TestForwardOutOfReachLogBounded(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	clk := time.Date(2026, 11, 28, 4, 39, 30, 0, time.UTC)
	events := web.NewEventLog(log, 3, func() time.Time { return clk })
	fc := &fakeCluster{err: fmt.Errorf("where: %w", outOfReach{})}
	o := wired(Limits{})
	o.Cluster, o.Log, o.Events = fc, log, events
	h := New(forwardHub(t, nil), o)
	srv := h.Forward(web.New(web.Options{Games: []web.Routes{h}, Log: log, Events: events}))
	get := func() {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", "/api/arlington/tables/ELSEWHERE", nil))
		if w.Code != http.StatusServiceUnavailable {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	for range 30 {
		get()
	}
	fc.err = errors.New("disk on fire")
	for range 2 {
		get()
	}
	var outage, other, all int
	for line := range strings.Lines(buf.String()) {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l["msg"] != "arlington: where a table runs" {
			continue
		}
		all++
		if l["reason"] == "database out of reach" && l["level"] == "WARN" {
			outage++
		} else if l["level"] == "ERROR" {
			other++
		}
	}
	if outage != 3 || other != 2 || all != 5 {
		t.Fatalf("%d lines for 32 failures (want 5): %d out of reach at WARN (want 3), %d others at ERROR (want 2)", all, outage, other)
	}
}

// TestLobbyOutOfReachLogBounded: while the database is out of reach every
// lobby's poll fails to read the other servers' tables; the lobby still
// answers, with this server's, and the failures go through the server's
// event log (the minute's share, reason "database out of reach"), not a
// line each.
func TestLobbyOutOfReachLogBounded(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	clk := time.Date(2026, 11, 28, 4, 39, 30, 0, time.UTC)
	events := web.NewEventLog(log, 3, func() time.Time { return clk })
	o := wired(Limits{})
	o.Cluster, o.Log, o.Events = &fakeCluster{others: fmt.Errorf("others: %w", outOfReach{})}, log, events
	h := New(forwardHub(t, nil), o)
	srv := web.New(web.Options{Games: []web.Routes{h}, Log: log, Events: events})
	for range 30 {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", "/api/arlington/tables", nil))
		if w.Code != http.StatusOK {
			t.Fatalf("the lobby: %d %s", w.Code, w.Body)
		}
	}
	outage, all := 0, 0
	for line := range strings.Lines(buf.String()) {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l["msg"] != "arlington: the other servers' tables" {
			continue
		}
		all++
		if l["reason"] == "database out of reach" && l["level"] == "WARN" {
			outage++
		}
	}
	if outage != 3 || all != 3 {
		t.Fatalf("%d lines for 30 lobbies, %d with the reason at WARN: want 3, the minute's share", all, outage)
	}
}
