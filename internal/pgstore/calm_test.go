package pgstore

import (
	"errors"
	"testing"
	"time"
)

// calmNode is a Node that joined at t0 with the default lease and beat,
// for calm's rules alone (no database).
func calmNode(t0 time.Time) *Node {
	return newNode(nil, NodeOptions{}, t0)
}

var errBeat = errors.New("the database is out of reach")

// beats records a heartbeat every second from `from` to `to` (excluded),
// failing where fail says so, and returns the time after the last one.
func beats(n *Node, from, to time.Time, fail func(time.Time) bool) time.Time {
	at := from
	for ; at.Before(to); at = at.Add(DefaultBeat) {
		var err error
		if fail(at) {
			err = errBeat
		}
		n.beaten(err, at)
	}
	return at
}

func never(time.Time) bool { return false }

// TestCalmNewServerWaitsALease: a server just started takes no other
// server's tables for a lease (it may have started just after
// PostgreSQL came back, when every other lease is stale), then does.
func TestCalmNewServerWaitsALease(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	n := calmNode(t0)
	if n.calm(t0) {
		t.Fatal("a server just started judges the others")
	}
	at := beats(n, t0.Add(DefaultBeat), t0.Add(DefaultLease), never)
	if n.calm(at.Add(-time.Millisecond)) {
		t.Fatal("calm before a lease from the start")
	}
	if !n.calm(at) {
		t.Fatal("not calm a lease after the start, every heartbeat good")
	}
}

// TestCalmRecovers: after an outage longer than the lease, a server is
// not calm until its heartbeats have succeeded for a lease in a row,
// and then it is.
func TestCalmRecovers(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	n := calmNode(t0)
	cut, back := t0.Add(8*time.Second), t0.Add(20*time.Second)
	at := beats(n, t0.Add(DefaultBeat), cut, never)
	if !n.calm(at) {
		t.Fatal("not calm before the outage")
	}
	at = beats(n, cut, back, func(time.Time) bool { return true })
	if n.calm(at) {
		t.Fatal("calm while the heartbeat fails")
	}
	n.beaten(nil, back)
	if n.calm(back) || n.calm(back.Add(DefaultLease-time.Millisecond)) {
		t.Fatal("calm less than a lease after the database came back")
	}
	beats(n, back.Add(DefaultBeat), back.Add(DefaultLease+DefaultBeat), never)
	if !n.calm(back.Add(DefaultLease)) {
		t.Fatal("not calm after a lease of good heartbeats")
	}
}

// TestCalmFlappingBounded: a database that fails one heartbeat every
// 4 s never gives a lease of good heartbeats in a row; the server is
// calm anyway calmCap leases after it first answered again, while its
// last heartbeat succeeded.
func TestCalmFlappingBounded(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	n := calmNode(t0)
	// Out of reach for 10 s, then back at 10 s, failing at 13 s, 17 s, ...
	back := t0.Add(10 * time.Second)
	flap := func(at time.Time) bool {
		d := at.Sub(back)
		return d < 0 || d%(4*time.Second) == 3*time.Second
	}
	capAt := back.Add(calmCap * DefaultLease)
	beats(n, t0.Add(DefaultBeat), capAt, flap)
	if n.calm(capAt.Add(-time.Millisecond)) {
		t.Fatal("calm before the bound, under a flapping database")
	}
	at := beats(n, capAt, capAt.Add(4*time.Second), flap)
	if !n.calm(at) {
		t.Fatalf("not calm %v after the database first answered again, its last heartbeat good", at.Sub(back))
	}
	n.beaten(errBeat, at)
	if n.calm(at) {
		t.Fatal("calm while the last heartbeat failed")
	}
}

// TestAdriftAfterALease: a server is adrift (its tables may be another
// server's already) once its heartbeats have failed for a lease since
// the last that succeeded, not before, and no longer once one succeeds.
func TestAdriftAfterALease(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	n := calmNode(t0)
	cut := t0.Add(10 * time.Second)
	end := beats(n, t0, cut.Add(DefaultLease+DefaultBeat), func(at time.Time) bool { return !at.Before(cut) })
	if n.adrift(cut.Add(DefaultLease - 2*DefaultBeat)) {
		t.Error("adrift before a lease since the last good heartbeat")
	}
	if !n.adrift(end) {
		t.Errorf("not adrift %v after the last good heartbeat, failing since", end.Sub(cut))
	}
	n.beaten(nil, end)
	if n.adrift(end.Add(time.Second)) {
		t.Error("still adrift after a good heartbeat")
	}
}
