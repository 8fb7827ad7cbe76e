// Package arlwire holds the names of the Arlington table API that its
// server (internal/web/arlweb) and its client (internal/arlclient) both
// use, so that the two cannot drift apart; the table page (api.js),
// having no Go, spells them itself (docs/api.md).
package arlwire

// MovingHeader marks a 503 that says the table is between servers (its
// server stopped or died, another takes it within seconds), with the
// value "1", so that the clients ask again by themselves: a 503 with
// Retry-After alone may be a database too busy or out of reach, which
// they show.
const MovingHeader = "X-Cardtable-Moving"
