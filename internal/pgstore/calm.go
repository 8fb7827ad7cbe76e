package pgstore

import (
	"time"
)

// calmCap bounds, in leases, how long a server whose heartbeat keeps
// failing now and then waits before judging the others again (calm).
const calmCap = 3

// health is what calm judges by: the outcomes of the server's heartbeats.
// Under Node.mu.
type health struct {
	// failing: the last heartbeat failed.
	failing bool
	// lastOK is when a heartbeat last succeeded (or the server joined).
	lastOK time.Time
	// backAt is when the current run of good heartbeats began; firstBack
	// when the database first answered after it was out of reach for
	// half a lease or more (or the server joined).
	backAt, firstBack time.Time
}

// beaten records a heartbeat's outcome at now, for calm.
func (n *Node) beaten(err error, now time.Time) {
	n.mu.Lock()
	h := &n.h
	var out, wait time.Duration // the outage that ended now, if one did; and the wait it costs
	switch {
	case err != nil:
		h.failing = true
	case h.failing:
		h.failing, h.backAt = false, now
		out = now.Sub(h.lastOK)
		if out >= n.o.Lease/2 {
			h.firstBack = now
		}
		wait = max(0, min(n.o.Lease, h.firstBack.Add(calmCap*n.o.Lease).Sub(now)))
	}
	if err == nil {
		h.lastOK = now
	}
	n.mu.Unlock()
	if out > 0 {
		// The failure was logged (once a minute at most); its end is
		// too, or the log's last word on the database would be that it
		// is out of reach.
		n.o.Logf("server heartbeat: the database answers again, after %v out of reach; taking no other server's tables for %v",
			out.Round(100*time.Millisecond), wait.Round(100*time.Millisecond))
	}
}

// calm reports whether this server may judge the others by their
// heartbeats (take the tables of a server whose lease ran out). A
// server that could not reach the database cannot tell whether the
// others could: when PostgreSQL stops or restarts, every server's
// heartbeat stops with it, and the first back would find all the
// others' leases run out and take every table of the cluster. So it
// waits until its own heartbeats have succeeded for a lease in a row:
// any server that reaches the database again has renewed its lease by
// then. A server that just started is in the same place (it may have
// been started just after PostgreSQL's return): it waits a lease from
// its start. Under a flapping database, a failure now and then would
// restart that wait for ever; so calmCap leases after the database
// first answered again, a server judges as soon as its last heartbeat
// succeeded. An outage of half a lease or more starts the wait afresh.
func (n *Node) calm(now time.Time) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	h := n.h
	return !h.failing && (now.Sub(h.backAt) >= n.o.Lease || now.Sub(h.firstBack) >= calmCap*n.o.Lease)
}

// Adrift reports whether this server's lease has run out unrenewed: its
// heartbeat fails, and the last that succeeded is a lease old or more.
// Another server may have taken its tables, and it cannot learn which
// (table.Adrift).
func (n *Node) Adrift() bool { return n.adrift(time.Now()) }

func (n *Node) adrift(now time.Time) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.h.failing && now.Sub(n.h.lastOK) >= n.o.Lease
}
