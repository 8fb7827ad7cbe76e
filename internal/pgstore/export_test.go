package pgstore

import (
	"context"
	"time"
)

// Crash stops the heartbeat and nothing else, as a server that stalled or
// died would: its claims stay written, and expire with the lease.
func (n *Node) Crash() {
	close(n.stop)
	<-n.done
}

// DB is the store n registered with.
func (n *Node) DB() *DB { return n.db }

// Claims is how many tables n remembers claiming.
func (n *Node) Claims() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.epochs)
}

// SetStatementTimeout sets the statement_timeout of the stores opened
// from now on (where nothing else sets one) to d, until the test ends.
func SetStatementTimeout(t interface{ Cleanup(func()) }, d time.Duration) {
	old := statementTimeout
	statementTimeout = d
	t.Cleanup(func() { statementTimeout = old })
}

// MigrateLock is the advisory lock migrations hold.
const MigrateLock = migrateLock

// Setting is the value of PostgreSQL's setting name on a connection of
// the store's pool (SHOW).
func (db *DB) Setting(ctx context.Context, name string) (string, error) {
	var v string
	err := db.pool.QueryRow(ctx, `SELECT current_setting($1)`, name).Scan(&v)
	return v, err
}

// Classify is the store's classification of a driver's error (full).
func Classify(err error) error { return full(err) }

// SetWait sets the wait for a connection of db, opened already, to d:
// opened with a short wait, a store's own opening (its first
// connections, its migrations) could be refused on a loaded machine.
// Call it before db is shared with other goroutines.
func SetWait(db *DB, d time.Duration) {
	db.tables.wait = d
	db.pool.wait = d
}

// SetAcquireWait sets the wait for a connection of the stores opened
// from now on to d, until the test ends.
func SetAcquireWait(t interface{ Cleanup(func()) }, d time.Duration) {
	old := acquireWait
	acquireWait = d
	t.Cleanup(func() { acquireWait = old })
}

// SetForgetEvery makes the nodes joined from now on look for dead
// servers to forget every k heartbeats, until the test ends; nodes
// joined before keep their pace.
func SetForgetEvery(t interface{ Cleanup(func()) }, k int) {
	old := forgetEvery
	forgetEvery = k
	t.Cleanup(func() { forgetEvery = old })
}
