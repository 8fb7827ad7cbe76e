package pgstore

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

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
)

// forgetEvery is a variable for the tests; each Node copies it when it
// joins (Node.forgetEvery).
var forgetEvery = 600

// Node is this server in the registry of servers. Its methods are safe
// for concurrent use.
type Node struct {
	db *DB
	id string
	o  NodeOptions
	// beats is the heartbeat's own connection, apart from the pool the
	// requests and tables use: requests waiting on a slow database (a
	// lock held) took every connection of that pool, the heartbeat
	// waited behind them, and after a lease the other servers took this
	// server's tables, live and reachable as it was.
	beats pool
	// forgetEvery is the package's forgetEvery as it was at Join.
	// Decision: copied, not read live: a server's heartbeat keeps the
	// pace it started with, and a test that sets it for the servers it
	// joins changes no server already running (another test's, still
	// stopping), whose heartbeat read it while the setting was written.
	forgetEvery int

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
	h        health // the heartbeats' outcomes, for calm; under mu

	stop chan struct{}
	done chan struct{}
	// closeMu orders Close; closeErr is what the first Close returned,
	// returned again by the next.
	closeMu  sync.Mutex
	closed   bool
	closeErr error
	// halt cancels beatCtx, under which every heartbeat runs, so that
	// Close does not wait out a heartbeat in flight: a slow one (a lock
	// on the servers' rows, a slow database) took the whole of Close's
	// budget, and the tables were given back by no one.
	beatCtx context.Context
	halt    context.CancelFunc
}

var (
	_ table.Claims = (*Node)(nil)
	_ table.Adrift = (*Node)(nil) // the scan asks by type assertion: a typo there would go unseen
)

// Join registers this server and starts its heartbeat; from then on the
// store's table writes are fenced by this server's claims. Close ends it.
func (db *DB) Join(ctx context.Context, o NodeOptions) (*Node, error) {
	n := newNode(db, o, time.Now())
	o = n.o
	cfg := db.cfg.Copy()
	cfg.MaxConns, cfg.MinConns = 1, 1
	// Named so that Close finds the heartbeat's backends, which may
	// outlive their connection (beatsGone).
	cfg.ConnConfig.RuntimeParams["application_name"] = n.beatsName()
	raw, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: the heartbeat's connection: %w", err)
	}
	n.beats = pool{raw: raw}
	if _, err := n.beats.Exec(ctx, `INSERT INTO servers (id, addr) VALUES ($1, $2)`, n.id, o.Addr); err != nil {
		raw.Close()
		return nil, fmt.Errorf("pgstore: registering the server: %w", err)
	}
	db.node.Store(n)
	// The heartbeat: renews the lease every Beat until Close.
	go func() {
		defer close(n.done)
		defer n.beats.raw.Close()
		t := time.NewTicker(o.Beat)
		defer t.Stop()
		for beats := 1; ; beats++ {
			select {
			case <-n.stop:
				return
			case <-t.C:
				bctx, cancel := context.WithTimeout(n.beatCtx, o.Lease)
				err := n.beat(bctx)
				if n.beatCtx.Err() != nil {
					cancel()
					return // Close cut it: no failure to log
				}
				if err != nil {
					o.Logf("server heartbeat: %v", err)
				}
				n.beaten(err, time.Now())
				if beats%n.forgetEvery == 0 {
					// Close may cut it too: no failure to log then.
					if err := n.forget(bctx); err != nil && n.beatCtx.Err() == nil {
						o.Logf("forgetting dead servers: %v", err)
					}
				}
				cancel()
			}
		}
	}()
	return n, nil
}

// newNode is a Node of db with o's defaults filled in, started at now.
func newNode(db *DB, o NodeOptions, now time.Time) *Node {
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
	beatCtx, halt := context.WithCancel(context.Background())
	return &Node{db: db, id: rand.Text()[:16], o: o, epochs: map[string]int64{}, forgetEvery: forgetEvery,
		// A new server is as one just back from an outage: it may have
		// started just after PostgreSQL's return, when every other
		// server's lease is stale; it waits a lease (calm).
		h:    health{lastOK: now, backAt: now, firstBack: now},
		stop: make(chan struct{}), done: make(chan struct{}),
		beatCtx: beatCtx, halt: halt}
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
	tag, err := n.beats.Exec(ctx, `UPDATE servers SET heartbeat = clock_timestamp(), load = $2,
		lobby = coalesce($3, lobby) WHERE id = $1`, n.id, len(sums), lobby)
	if err == nil && tag.RowsAffected() == 0 {
		_, err = n.beats.Exec(ctx, `INSERT INTO servers (id, addr, load, lobby) VALUES ($1, $2, $3, coalesce($4, '[]'))`,
			n.id, n.o.Addr, len(sums), lobby)
	}
	if err == nil && lobby != nil {
		n.lobby = lobby.(string)
	}
	return err
}

// Drain marks the server stopping: it is no longer chosen for new
// tables, and takes none. The mark is written on the tables' side of the
// pool, as the claims and Close are: a server stops while its requests
// may still hold their share (12 of 16) waiting on a slow database, and
// behind them the mark missed serve's 2 s, so the others went on sending
// it new tables as it stopped.
func (n *Node) Drain(ctx context.Context) error {
	n.draining.Store(true)
	_, err := n.db.tables.Exec(ctx, `UPDATE servers SET draining = true WHERE id = $1`, n.id)
	return err
}

// giveBackWithin bounds giving the tables back when Close's own budget
// ran out waiting for the heartbeat.
const giveBackWithin = time.Second

// Close stops the heartbeat, gives up every table the server still holds
// (the others take them at their next scan, not after the lease) and
// removes its row. A heartbeat in flight is cancelled, not waited for,
// so ctx's whole budget goes to giving the tables back. A second Close
// returns what the first did.
func (n *Node) Close(ctx context.Context) error {
	n.closeMu.Lock()
	defer n.closeMu.Unlock()
	if n.closed {
		return n.closeErr
	}
	n.closed = true
	n.closeErr = n.close(ctx)
	return n.closeErr
}

func (n *Node) close(ctx context.Context) error {
	select {
	case <-n.stop:
		return nil // stopped without Close (a crash, in tests)
	default:
	}
	close(n.stop)
	n.halt()
	// The heartbeat returns once its statement sees the cancel.
	select {
	case <-n.done:
	case <-ctx.Done():
		// The tables are given back all the same (the heartbeat never
		// writes them), with a budget of their own; the row stays, dead
		// after its lease, as the heartbeat may still write it.
		gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), giveBackWithin)
		defer cancel()
		err := fmt.Errorf("pgstore: the heartbeat did not stop: %w", ctx.Err())
		if gerr := n.releaseAll(gctx); gerr != nil {
			err = fmt.Errorf("%w; giving the tables back: %w", err, gerr)
		}
		return err
	}
	if err := n.releaseAll(ctx); err != nil {
		return err
	}
	// The row is removed once no statement of the heartbeat can write it
	// again: cut, a statement may still run in PostgreSQL (the driver
	// drops its connection; the backend goes on until it next reads it),
	// and the heartbeat's INSERT of a row found gone, landing after the
	// DELETE, made the row of a gone server again, alive for a lease.
	if err := n.beatsGone(ctx); err != nil {
		return err
	}
	_, err := n.db.tables.Exec(ctx, `DELETE FROM servers WHERE id = $1`, n.id)
	return err
}

// releaseAll gives back every table this server holds.
func (n *Node) releaseAll(ctx context.Context) error {
	n.mu.Lock()
	clear(n.epochs)
	n.mu.Unlock()
	_, err := n.db.tables.Exec(ctx, `UPDATE live_tables SET owner = NULL WHERE owner = $1`, n.id)
	return err
}

// beatsName is the application_name of the heartbeat's connections.
func (n *Node) beatsName() string { return "cardtable heartbeat " + n.id }

// beatsGone cancels what the heartbeat's backends still run and waits
// (within ctx) until none is left. The heartbeat has stopped and closed
// its connections: a backend left is one whose statement was cut, and it
// ends once that statement does.
func (n *Node) beatsGone(ctx context.Context) error {
	// A refusal (a role not allowed to signal) only makes the wait longer.
	_, _ = n.db.tables.Exec(ctx, `SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, n.beatsName())
	for {
		var left bool
		if err := n.db.tables.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = $1)`,
			n.beatsName()).Scan(&left); err != nil {
			return fmt.Errorf("pgstore: waiting for the heartbeat's statements to end: %w", err)
		}
		if !left {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("pgstore: the heartbeat's statement still runs in PostgreSQL: %w", ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// forget deletes the rows of servers dead for forgetAfter.
func (n *Node) forget(ctx context.Context) error {
	_, err := n.beats.Exec(ctx, `DELETE FROM servers s WHERE NOT (s.heartbeat > clock_timestamp() - make_interval(secs => $1))`,
		secs(forgetAfter))
	return err
}
