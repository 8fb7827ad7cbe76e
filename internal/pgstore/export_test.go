package pgstore

import "time"

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
// from now on (a URL without one) to d, until the test ends.
func SetStatementTimeout(t interface{ Cleanup(func()) }, d time.Duration) {
	old := statementTimeout
	statementTimeout = d
	t.Cleanup(func() { statementTimeout = old })
}
