package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/table"
)

// Route is where a table runs, for forwarding.
type Route struct {
	Found bool   // the store has the table
	Open  bool   // it is open (not over or closed)
	Owner string // the server that holds it ("" none)
	Addr  string // that server's address, if it is alive
	Self  bool   // this server holds it
}

// Route says where table id runs.
func (n *Node) Route(ctx context.Context, id string) (Route, error) {
	var r Route
	var status string
	var owner, addr *string
	var live *bool
	err := n.db.pool.QueryRow(ctx, `SELECT t.status, t.owner, s.addr, `+alive+`
		FROM live_tables t LEFT JOIN servers s ON s.id = t.owner WHERE t.id = $2`,
		secs(n.o.Lease), id).Scan(&status, &owner, &addr, &live)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.Found, r.Open = true, status == string(table.StatusOpen)
	if owner != nil {
		r.Owner, r.Self = *owner, *owner == n.id
	}
	if addr != nil && live != nil && *live {
		r.Addr = *addr
	}
	return r, nil
}

// Least is the live server, not stopping, that holds the fewest open
// tables now (counted, not as of its heartbeat, so that a burst of new
// tables spreads): its id and address (this server's own when it is the
// one, or when no other is alive). Ties go to a random one of them.
func (n *Node) Least(ctx context.Context) (id, addr string, err error) {
	err = n.db.pool.QueryRow(ctx, `SELECT s.id, s.addr FROM servers s
		LEFT JOIN (SELECT owner, count(*) AS n FROM live_tables WHERE status = 'open' AND owner IS NOT NULL
			GROUP BY owner) c ON c.owner = s.id
		WHERE `+alive+` AND NOT s.draining
		ORDER BY coalesce(c.n, 0), random() LIMIT 1`, secs(n.o.Lease)).Scan(&id, &addr)
	if errors.Is(err, pgx.ErrNoRows) {
		return n.id, n.o.Addr, nil
	}
	return id, addr, err
}

// Others is the lobby of the other live servers (their tables as their
// last heartbeat listed them), and which of those tables player holds a
// seat at.
func (n *Node) Others(ctx context.Context, player string) ([]table.Summary, map[string]bool, error) {
	out, err := n.othersLobby(ctx)
	if err != nil {
		return nil, nil, err
	}
	yours := map[string]bool{}
	if player == "" || len(out) == 0 {
		return out, yours, nil
	}
	ids := make([]string, len(out))
	for i, s := range out {
		ids[i] = s.ID
	}
	rows, err := n.db.pool.Query(ctx, `SELECT t.id FROM live_tables t WHERE t.id = ANY($1)
		AND EXISTS (SELECT 1 FROM jsonb_array_elements(t.seats::jsonb) AS e
		WHERE e->>'player' = $2 AND coalesce((e->>'reserved')::boolean, false) = false)`, ids, player)
	if err != nil {
		return nil, nil, err
	}
	mine, err := pgx.CollectRows(rows, pgx.RowTo[string])
	for _, id := range mine {
		yours[id] = true
	}
	return out, yours, err
}

// othersLobby is the other live servers' tables, read at most once a
// Beat (they change no faster): the copy is shared, never changed.
func (n *Node) othersLobby(ctx context.Context) ([]table.Summary, error) {
	n.mu.Lock()
	if time.Since(n.othersAt) < n.o.Beat {
		defer n.mu.Unlock()
		return n.others, nil
	}
	n.mu.Unlock()
	rows, err := n.db.pool.Query(ctx, `SELECT s.id, s.lobby FROM servers s WHERE `+alive+` AND s.id <> $2`,
		secs(n.o.Lease), n.id)
	if err != nil {
		return nil, err
	}
	lobbies, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct{ ID, Lobby string }])
	if err != nil {
		return nil, err
	}
	var out []table.Summary
	bad := map[string]error{}
	for _, l := range lobbies {
		var sums []table.Summary
		if err := json.Unmarshal([]byte(l.Lobby), &sums); err != nil {
			// Skipped, so that one damaged row (or a server of another
			// version) hides only its own tables; logged for the operator.
			bad[l.ID] = err
			continue
		}
		out = append(out, sums...)
	}
	n.mu.Lock()
	for id, err := range bad {
		if n.badLobby[id] == nil {
			n.o.Logf("the lobby of server %s does not parse; its tables are left out of this server's lobby: %v", id, err)
		}
	}
	n.others, n.othersAt, n.badLobby = out, time.Now(), bad
	n.mu.Unlock()
	return out, nil
}
