package pgstore

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/table"
)

// Several servers on one database (docs/scaling.md, "Several servers"):
// each is a Node, a row of the servers table renewed every Beat. A server
// whose heartbeat is older than Lease is dead, and the open tables it ran
// are orphans that the others take (Take). One heartbeat renews the lease
// of every table its server runs: the tables' rows are not written to
// keep them.
//
// A table's owner and epoch are written only by claims (Take, creation)
// and releases; every write of the table (AppendAction, SaveSeats,
// FinishTable) is conditional on both being this server's claim, in the
// same statement, so a server that lost a table can never write to it
// again, whatever it believes.

// NodeOptions configure a Node.
type NodeOptions struct {
	// Addr is where the other servers reach this one, for forwarding:
	// HOST:PORT (plain HTTP) or https://HOST:PORT (it ends TLS itself).
	Addr string
	// Lease is how long a server is believed alive after its last
	// heartbeat (default 5 s); Beat how often it renews it (default 1 s).
	Lease, Beat time.Duration
	// Tables is what the server runs now, for its load and the lobby of
	// the others (default: nothing).
	Tables func() []table.Summary
	// Logf reports what the operator should know: a heartbeat that
	// failed, tables given back, another server's lobby that does not
	// parse (default: discard).
	Logf func(format string, args ...any)
}

// Defaults of NodeOptions.
const (
	DefaultLease = 5 * time.Second
	DefaultBeat  = time.Second
	// takeBatch bounds the tables one Take claims (and loads): the rest
	// wait for the next scan, a second later, so a server is never
	// swamped.
	takeBatch = 500
	// forgetAfter: a server dead this long has its row deleted, looked
	// for every forgetEvery heartbeats.
	forgetAfter = time.Hour
	forgetEvery = 600
)

// Node is this server in the registry of servers. Its methods are safe
// for concurrent use.
type Node struct {
	db *DB
	id string
	o  NodeOptions

	mu     sync.Mutex
	epochs map[string]int64 // the tables this server claimed, and at which epoch
	lobby  string           // the lobby text last written
	// others is the other servers' lobby as last read, reused for a Beat.
	others   []table.Summary
	othersAt time.Time
	// badLobby holds the servers whose lobby did not parse at the last
	// read: each is logged when it turns bad, not at every read.
	badLobby map[string]error

	draining atomic.Bool
	// cutAt is when this server's heartbeat last failed after a success
	// (zero: none failed since the last good one, or ever), backAt when
	// it next succeeded. Under mu.
	cutAt, backAt time.Time

	stop chan struct{}
	done chan struct{}
}

var _ table.Claims = (*Node)(nil)

// Join registers this server and starts its heartbeat; from then on the
// store's table writes are fenced by this server's claims. Close ends it.
func (db *DB) Join(ctx context.Context, o NodeOptions) (*Node, error) {
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.Beat <= 0 {
		o.Beat = DefaultBeat
	}
	if o.Tables == nil {
		o.Tables = func() []table.Summary { return nil }
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	n := &Node{db: db, id: rand.Text()[:16], o: o, epochs: map[string]int64{},
		stop: make(chan struct{}), done: make(chan struct{})}
	if _, err := db.exec(ctx, `INSERT INTO servers (id, addr) VALUES ($1, $2)`, n.id, o.Addr); err != nil {
		return nil, fmt.Errorf("pgstore: registering the server: %w", err)
	}
	db.node.Store(n)
	// The heartbeat: renews the lease every Beat until Close.
	go func() {
		defer close(n.done)
		t := time.NewTicker(o.Beat)
		defer t.Stop()
		for beats := 1; ; beats++ {
			select {
			case <-n.stop:
				return
			case <-t.C:
				bctx, cancel := context.WithTimeout(context.Background(), o.Lease)
				err := n.beat(bctx)
				if err != nil {
					o.Logf("server heartbeat: %v", err)
				}
				n.beaten(err, time.Now())
				if beats%forgetEvery == 0 {
					if err := n.forget(bctx); err != nil {
						o.Logf("forgetting dead servers: %v", err)
					}
				}
				cancel()
			}
		}
	}()
	return n, nil
}

// ID is the server's id in the registry.
func (n *Node) ID() string { return n.id }

// secs is d for make_interval.
func secs(d time.Duration) float64 { return d.Seconds() }

// beat renews the lease, with the load and, if it changed, the lobby; a
// row found gone (the others took this server for dead and forgot it) is
// made again.
func (n *Node) beat(ctx context.Context) error {
	sums := n.o.Tables()
	var lobby any // NULL: unchanged
	if b, err := json.Marshal(sums); err == nil && string(b) != n.lobby {
		lobby = string(b)
	}
	tag, err := n.db.exec(ctx, `UPDATE servers SET heartbeat = clock_timestamp(), load = $2,
		lobby = coalesce($3, lobby) WHERE id = $1`, n.id, len(sums), lobby)
	if err == nil && tag.RowsAffected() == 0 {
		_, err = n.db.exec(ctx, `INSERT INTO servers (id, addr, load, lobby) VALUES ($1, $2, $3, coalesce($4, '[]'))`,
			n.id, n.o.Addr, len(sums), lobby)
	}
	if err == nil && lobby != nil {
		n.lobby = lobby.(string)
	}
	return err
}

// beaten records a heartbeat's outcome at now, for calm.
func (n *Node) beaten(err error, now time.Time) {
	n.mu.Lock()
	var out time.Duration // the outage that ended now, if one did
	switch {
	case err != nil && (n.cutAt.IsZero() || !n.backAt.IsZero()):
		n.cutAt, n.backAt = now, time.Time{}
	case err == nil && !n.cutAt.IsZero() && n.backAt.IsZero():
		n.backAt = now
		out = now.Sub(n.cutAt)
	}
	n.mu.Unlock()
	if out > 0 {
		// The failure was logged (once a minute at most); its end is
		// too, or the log's last word on the database would be that it
		// is out of reach.
		n.o.Logf("server heartbeat: the database answers again, after %v out of reach; taking no other server's tables for %v",
			out.Round(100*time.Millisecond), n.o.Lease)
	}
}

// calm reports whether this server may judge the others by their
// heartbeats: its own have not failed, or have succeeded for a lease
// since they last did. A server that could not reach the database
// cannot tell whether the others could: when PostgreSQL stops or
// restarts, every server's heartbeat stops with it, and the first back
// would find all the others' leases run out and take every table of the
// cluster. After a lease of its own heartbeats, any server that reaches
// the database again has renewed its lease too.
func (n *Node) calm(now time.Time) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.cutAt.IsZero() || !n.backAt.IsZero() && now.Sub(n.backAt) >= n.o.Lease
}

// Drain marks the server stopping: it is no longer chosen for new
// tables, and takes none.
func (n *Node) Drain(ctx context.Context) error {
	n.draining.Store(true)
	_, err := n.db.exec(ctx, `UPDATE servers SET draining = true WHERE id = $1`, n.id)
	return err
}

// Close stops the heartbeat, gives up every table the server still holds
// (the others take them at their next scan, not after the lease) and
// removes its row.
func (n *Node) Close(ctx context.Context) error {
	select {
	case <-n.stop:
		return nil
	default:
	}
	close(n.stop)
	<-n.done
	n.mu.Lock()
	clear(n.epochs)
	n.mu.Unlock()
	_, err := n.db.exec(ctx, `UPDATE live_tables SET owner = NULL WHERE owner = $1`, n.id)
	if err == nil {
		_, err = n.db.exec(ctx, `DELETE FROM servers WHERE id = $1`, n.id)
	}
	return err
}

// alive is the SQL condition that server row s is alive ($1: the lease).
const alive = `s.heartbeat > clock_timestamp() - make_interval(secs => $1)`

// Take claims up to room open tables that no live server runs and returns
// them with their moves, read after the claim (table.Claims). The least
// loaded live server takes all it can; another takes its share of the
// orphans (divided by the live servers), and none while it runs more
// tables than the least loaded plus that share; so the orphans of a dead
// server spread over the survivors, the lightest first, and none waits
// for a later scan while a server could take it now. The tables in skip
// (this server could not start them) are neither counted nor taken.
func (n *Node) Take(ctx context.Context, room int, skip []string) ([]table.Stored, error) {
	if room <= 0 || n.draining.Load() || !n.calm(time.Now()) {
		return nil, nil
	}
	if skip == nil {
		skip = []string{} // not NULL: "= ANY(NULL)" matches no row, and NOT of it none either
	}
	var orphans, servers, least, mine int
	var self bool
	err := n.db.pool.QueryRow(ctx, `WITH live AS (SELECT s.id, s.load, s.draining FROM servers s WHERE `+alive+`)
		SELECT (SELECT count(*) FROM live_tables t WHERE t.status = 'open' AND NOT t.id = ANY($3)
				AND (t.owner IS NULL OR t.owner NOT IN (SELECT id FROM live))),
			(SELECT count(*) FROM live WHERE NOT draining),
			(SELECT coalesce(min(load), 0) FROM live WHERE NOT draining),
			(SELECT coalesce(max(load), 0) FROM live WHERE id = $2),
			EXISTS (SELECT 1 FROM live WHERE id = $2)`,
		secs(n.o.Lease), n.id, skip).Scan(&orphans, &servers, &least, &mine, &self)
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
	rows, err := n.db.pool.Query(ctx, `WITH c AS (SELECT t.id, t.owner FROM live_tables t
			WHERE t.status = 'open' AND NOT t.id = ANY($4)
			AND t.owner IS DISTINCT FROM $2 -- never its own: a copy may still run here
			AND (t.owner IS NULL
			OR NOT EXISTS (SELECT 1 FROM servers s WHERE s.id = t.owner AND `+alive+`))
			ORDER BY t.updated LIMIT $3 FOR UPDATE SKIP LOCKED)
		UPDATE live_tables u SET owner = $2, epoch = u.epoch + 1 FROM c WHERE u.id = c.id
		RETURNING u.id, u.epoch, c.owner`, secs(n.o.Lease), n.id, k, skip)
	if err != nil {
		return nil, err
	}
	taken, err := pgx.CollectRows(rows, pgx.RowToStructByPos[takenClaim])
	if err != nil || len(taken) == 0 {
		return nil, err
	}
	n.tellDead(ctx, taken)
	claims := make([]claim, len(taken))
	for i, c := range taken {
		claims[i] = claim{c.ID, c.Epoch}
	}
	ids := make([]string, len(claims))
	n.mu.Lock()
	for i, c := range claims {
		ids[i] = c.ID
		n.epochs[c.ID] = c.Epoch
	}
	n.mu.Unlock()
	stored, err := n.db.loadTables(ctx, `SELECT id FROM live_tables WHERE id = ANY($1) ORDER BY created, id COLLATE "C"`, ids)
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
	rows, err := n.db.pool.Query(ctx, `SELECT id, addr, extract(epoch FROM clock_timestamp() - heartbeat)::float8
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
	rows, err := n.db.pool.Query(ctx, `SELECT id, epoch FROM live_tables WHERE owner = $1`, n.id)
	if err != nil {
		return nil, down(err) // logged every second while the database is out of reach: one line
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
	_, err := n.db.exec(ctx, `UPDATE live_tables SET owner = NULL WHERE owner = $1 AND id = ANY($2)`, n.id, ids)
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
	if _, err := n.db.exec(ctx, `UPDATE live_tables SET owner = NULL WHERE id = $1 AND owner = $2 AND epoch = $3`,
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

// forget deletes the rows of servers dead for forgetAfter.
func (n *Node) forget(ctx context.Context) error {
	_, err := n.db.exec(ctx, `DELETE FROM servers s WHERE NOT (s.heartbeat > clock_timestamp() - make_interval(secs => $1))`,
		secs(forgetAfter))
	return err
}
