package pgstore

import (
	"context"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/table"
)

// alive is the SQL condition that server row s is alive ($1: the lease).
const alive = `s.heartbeat > clock_timestamp() - make_interval(secs => $1)`

// Take claims up to room open tables that no live server runs and returns
// them with their moves, read after the claim (table.Claims). The least
// loaded live server takes all it can; another takes its share of the
// orphans (divided by the live servers), and none while it runs more
// tables than the least loaded plus that share; so the orphans of a dead
// server spread over the survivors, the lightest first, and none waits
// for a later scan while a server could take it now. A calm server
// counts only the servers that could take a dead server's tables now:
// those that have heartbeaten for a lease since they started. The
// tables in skip (this server could not start them) are neither counted
// nor taken.
// Until the server is calm (just started, or just back from losing the
// database) it takes only the tables given back (no owner), none of a
// server it would judge dead.
func (n *Node) Take(ctx context.Context, room int, skip []string) ([]table.Stored, error) {
	if room <= 0 || n.draining.Load() {
		return nil, nil
	}
	calm := n.calm(time.Now())
	if skip == nil {
		skip = []string{} // not NULL: "= ANY(NULL)" matches no row, and NOT of it none either
	}
	var orphans, servers, least, mine int
	var self bool
	// ready: the servers a calm one defers to. A server that has not
	// heartbeaten for a lease since it started (PostgreSQL's clock)
	// takes no dead server's table yet (calm); deferring to it would
	// leave them with no server while one is restarted again and again
	// within its lease: the new one is always the least loaded, and the
	// row of the one before stays alive a lease after it died.
	err := n.db.tables.QueryRow(ctx, `WITH live AS (SELECT s.id, s.load, s.draining, s.started, s.heartbeat FROM servers s WHERE `+alive+`),
		ready AS (SELECT id, load FROM live WHERE NOT draining
			AND (NOT $4 OR id = $2 OR heartbeat >= started + make_interval(secs => $1)))
		SELECT (SELECT count(*) FROM live_tables t WHERE t.status = 'open' AND NOT t.id = ANY($3)
				AND (t.owner IS NULL OR $4 AND t.owner NOT IN (SELECT id FROM live))),
			(SELECT count(*) FROM ready),
			(SELECT coalesce(min(load), 0) FROM ready),
			(SELECT coalesce(max(load), 0) FROM live WHERE id = $2),
			EXISTS (SELECT 1 FROM live WHERE id = $2)`,
		secs(n.o.Lease), n.id, skip, calm).Scan(&orphans, &servers, &least, &mine, &self)
	if err != nil || orphans == 0 || !self {
		// Nothing to take; or this server's own lease ran out (it could
		// not reach the database): it renews it before taking anything.
		return nil, err
	}
	share := int(math.Ceil(float64(orphans) / float64(max(1, servers))))
	k := share
	switch {
	case mine <= least:
		k = orphans // the least loaded takes all it can: none waits a scan
	case mine > least+share:
		return nil, nil // a lighter server takes them
	}
	k = min(k, room, takeBatch)
	rows, err := n.db.tables.Query(ctx, `WITH c AS (SELECT t.id, t.owner FROM live_tables t
			WHERE t.status = 'open' AND NOT t.id = ANY($4)
			AND t.owner IS DISTINCT FROM $2 -- never its own: a copy may still run here
			AND (t.owner IS NULL
			OR $5 AND NOT EXISTS (SELECT 1 FROM servers s WHERE s.id = t.owner AND `+alive+`))
			ORDER BY t.updated LIMIT $3 FOR UPDATE SKIP LOCKED)
		UPDATE live_tables u SET owner = $2, epoch = u.epoch + 1 FROM c WHERE u.id = c.id
		RETURNING u.id, u.epoch, c.owner`, secs(n.o.Lease), n.id, k, skip, calm)
	if err != nil {
		return nil, err
	}
	taken, err := pgx.CollectRows(rows, pgx.RowToStructByPos[takenClaim])
	if err != nil || len(taken) == 0 {
		return nil, err
	}
	n.tellDead(ctx, taken)
	return n.loadTaken(ctx, taken)
}

// loadTaken notes the epochs of the tables Take claimed and loads them;
// tables claimed but not loaded are given back.
func (n *Node) loadTaken(ctx context.Context, taken []takenClaim) ([]table.Stored, error) {
	ids := make([]string, len(taken))
	n.mu.Lock()
	for i, c := range taken {
		ids[i] = c.ID
		n.epochs[c.ID] = c.Epoch
	}
	n.mu.Unlock()
	stored, err := loadTables(ctx, n.db.tables, `SELECT id FROM live_tables WHERE id = ANY($1) ORDER BY created, id COLLATE "C"`, ids)
	if err != nil {
		// Claimed but not loaded: given back, for the next scan (here or
		// elsewhere), rather than held by a server that does not run them.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), n.o.Lease)
		defer cancel()
		if rerr := n.Release(rctx, ids); rerr != nil {
			n.o.Logf("giving back %d tables not loaded: %v", len(ids), rerr)
		}
		return nil, err
	}
	return stored, nil
}

// takenClaim is a claim with the table's owner before it (nil: none,
// a table given back).
type takenClaim struct {
	ID    string
	Epoch int64
	Was   *string
}

// tellDead logs, for each server whose tables a Take claimed because its
// lease ran out, which server it was, where, how long it has been
// silent, and how many of its tables this server took: the line an
// operator looks for after a server died. A failure to read the
// registry only shortens the line.
func (n *Node) tellDead(ctx context.Context, taken []takenClaim) {
	count := map[string]int{}
	for _, c := range taken {
		if c.Was != nil {
			count[*c.Was]++
		}
	}
	if len(count) == 0 {
		return
	}
	type dead struct {
		ID, Addr string
		Silent   float64
	}
	found := map[string]dead{}
	rows, err := n.db.tables.Query(ctx, `SELECT id, addr, extract(epoch FROM clock_timestamp() - heartbeat)::float8
		FROM servers WHERE id = ANY($1)`, slices.Collect(maps.Keys(count)))
	if err == nil {
		ds, _ := pgx.CollectRows(rows, pgx.RowToStructByPos[dead])
		for _, d := range ds {
			found[d.ID] = d
		}
	}
	for _, id := range slices.Sorted(maps.Keys(count)) {
		if d, ok := found[id]; ok {
			n.o.Logf("server %s at %s has not renewed its lease for %.1fs: took %d of its tables", id, d.Addr, d.Silent, count[id])
		} else {
			n.o.Logf("server %s has not renewed its lease: took %d of its tables", id, count[id])
		}
	}
}

// claim is a table's id and epoch, as a claim wrote them.
type claim struct {
	ID    string
	Epoch int64
}

// Held is which of the tables this server claimed it still holds
// (table.Claims): another server may have taken the others. The claims
// it no longer holds are forgotten, so that the tables lost to other
// servers (or deleted) are not remembered for ever.
func (n *Node) Held(ctx context.Context) (map[string]bool, error) {
	// The claims known before the query: each was committed before it
	// began, so the query shows it if it is still this server's. A claim
	// made meanwhile is not judged by this answer.
	n.mu.Lock()
	before := maps.Clone(n.epochs)
	n.mu.Unlock()
	rows, err := n.db.tables.Query(ctx, `SELECT id, epoch FROM live_tables WHERE owner = $1`, n.id)
	if err != nil {
		return nil, err // down already (pool): logged every second while the database is out of reach, one line
	}
	claims, err := pgx.CollectRows(rows, pgx.RowToStructByPos[claim])
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	n.mu.Lock() // not while reading: every write of a table asks for it
	defer n.mu.Unlock()
	for _, c := range claims {
		if e, ok := n.epochs[c.ID]; ok && e == c.Epoch {
			out[c.ID] = true
		}
	}
	// A claim gone from the rows is gone for good: an epoch only grows,
	// and no server takes back its own table at the same epoch.
	for id, e := range before {
		if !out[id] && n.epochs[id] == e {
			delete(n.epochs, id)
		}
	}
	return out, nil
}

// Release gives ids up, those this server still holds, so that another
// server takes them at once (table.Claims).
func (n *Node) Release(ctx context.Context, ids []string) error {
	n.mu.Lock()
	for _, id := range ids {
		delete(n.epochs, id)
	}
	n.mu.Unlock()
	_, err := n.db.tables.Exec(ctx, `UPDATE live_tables SET owner = NULL WHERE owner = $1 AND id = ANY($2)`, n.id, ids)
	return err
}

// giveBack gives up table id if this server still holds it at epoch (its
// copy of the table fell behind the store): the next scan, here or
// elsewhere, takes it and loads it afresh. A failure is only reported:
// the table then waits for this server's lease to run out.
func (n *Node) giveBack(ctx context.Context, id string, epoch int64) {
	n.mu.Lock()
	if e, ok := n.epochs[id]; ok && e == epoch {
		delete(n.epochs, id)
	}
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, n.o.Lease)
	defer cancel()
	if _, err := n.db.tables.Exec(ctx, `UPDATE live_tables SET owner = NULL WHERE id = $1 AND owner = $2 AND epoch = $3`,
		id, n.id, epoch); err != nil {
		n.o.Logf("table %s: giving back a table behind the store: %v", id, err)
	}
}

// claimed records a table this server made (CreateTable): its first
// epoch.
func (n *Node) claimed(id string) {
	n.mu.Lock()
	n.epochs[id] = 1
	n.mu.Unlock()
}

// fence is the owner and epoch a write of table id must find: ok false if
// this server does not hold it (the write is refused unsent).
func (n *Node) fence(id string) (owner string, epoch int64, ok bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	epoch, ok = n.epochs[id]
	return n.id, epoch, ok
}
