// Package pgstore keeps cardtable's games, saves, statistics, settings and
// live tables in PostgreSQL (github.com/jackc/pgx/v5), with the same
// guarantees as the SQLite store (internal/store): a write that returns
// nil is committed; a game's writes are conditional on its version
// (ErrStale); a table's moves are appended in sequence only, which holds
// across processes (a conditional update and the (table, seq) key); named
// saves are bounded; old games and finished tables are pruned. The schema
// comes from the embedded migrations, applied at Open.
//
// Durability is PostgreSQL's: a commit returns once its WAL is flushed,
// unless the server runs with synchronous_commit off (do not, for
// cardtable: an acknowledged move could be lost in a crash).
package pgstore

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"cardtable/internal/dbcopy"
	"cardtable/internal/spidergame"
	"cardtable/internal/table"
)

// The sentinel errors are the services', as the SQLite store's are.
var (
	ErrNotFound = spidergame.ErrNotFound
	ErrStale    = spidergame.ErrStale
	ErrTooMany  = spidergame.ErrTooMany
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is an open cardtable database on a PostgreSQL server. It is safe for
// concurrent use.
type DB struct {
	pool pool // every error classified (pool.go); requests' calls, their share of the connections
	// tables is the same connections for the live tables' writes and
	// claims, which may use every one of them (tableShare).
	tables pool
	// noConns counts calls refused for want of a connection (pool.go).
	noConns atomic.Int64
	cfg     *pgxpool.Config // the pool's settings, copied for the heartbeat's own (Join)
	name    string          // the URL without its password, for the log
	quota   SaveQuota       // set before serving (SetSaveQuota)
	// node is this server in the registry once it joined (Join): its
	// claims fence every write of a table. nil: one server alone.
	node atomic.Pointer[Node]
	// closeOnce runs Close's wait once.
	closeOnce sync.Once
	// logger is the server's (SetLogger); nil: slog's default.
	logger atomic.Pointer[slog.Logger]
}

// SetLogger makes the store write what an operator must see (a close
// that could not wait) through l, the server's logger, so those lines
// take the server's format (--log-format json) and go where its other
// lines go. It may be called while the store runs.
func (db *DB) SetLogger(l *slog.Logger) { db.logger.Store(l) }

// log is the logger set with SetLogger, else slog's default.
func (db *DB) log() *slog.Logger {
	if l := db.logger.Load(); l != nil {
		return l
	}
	return slog.Default()
}

// IsURL reports whether a --db value names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// addressLike is a --db value meant as a PostgreSQL address in a form
// IsURL does not take: the URL's scheme in another case (POSTGRES://),
// or pgx's keyword/value form (host=H password=P), known by a keyword
// first or a password keyword anywhere.
var addressLike = regexp.MustCompile(`(?i)^\s*postgres(?:ql)?://|^\s*(?:host|hostaddr|port|dbname|user|password|passfile|` +
	`service|sslmode|sslpassword|connect_timeout|application_name|options|target_session_attrs)\s*=|(?:^|\s)[a-z_]*password\s*=`)

// LooksLikeAddress reports whether a --db value IsURL does not take is
// meant as a PostgreSQL address all the same. Taken as a SQLite file
// name it would be logged and made a file of, password and all, so the
// commands refuse it (docs/cli.md).
func LooksLikeAddress(s string) bool {
	return !IsURL(s) && addressLike.MatchString(s)
}

// poolSize is the connections a server keeps unless the URL says
// (pool_max_conns): writes of many tables and games go on in parallel.
const poolSize = 16

// statementTimeout is PostgreSQL's statement_timeout on the server's
// connections unless one is set anywhere else (defaultTimeout): a
// statement still running after it is cancelled by PostgreSQL and its
// request answered 503. Without it a request waiting on a lock (an
// operator's connection left in a transaction) waited as long as the lock
// was held, holding a connection of the pool, and those behind it waited
// for a connection: nothing answered, nothing was bounded. 15 s is
// hundreds of times a statement's usual time and within the minute a
// proxy waits (nginx's proxy_read_timeout). A variable for the tests.
var statementTimeout = 15 * time.Second

// Open connects to the database at url (postgres://USER@HOST/DB?...) and
// brings its schema up to date.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", urlError(url, err))
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = poolSize
	}
	cfg.AfterConnect = defaultTimeout(statementTimeout)
	pgp, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", urlError(url, err))
	}
	db := &DB{cfg: cfg, name: Redact(url), quota: spidergame.DefaultSaveQuota}
	db.setPools(pgp)
	if err := db.migrate(ctx); err != nil {
		pgp.Close()
		return nil, fmt.Errorf("pgstore: %w", urlError(url, connectWords(err)))
	}
	if err := db.foldNames(ctx); err != nil {
		pgp.Close()
		return nil, fmt.Errorf("pgstore: %w", urlError(url, fmt.Errorf("ratings' names: %w", err)))
	}
	return db, nil
}

// setPools makes the store's two sides of raw (pool.go): the tables'
// which may use every connection, and the requests', which may hold all
// but tableShare of them. Both are counted in noConns.
func (db *DB) setPools(raw *pgxpool.Pool) {
	db.tables = pool{raw: raw, wait: acquireWait, refused: &db.noConns}
	db.pool = db.tables
	db.pool.share = make(chan struct{}, raw.Config().MaxConns-tableShare(raw.Config().MaxConns))
	db.pool.held = new(atomic.Int64)
}

// defaultTimeout is the pool's AfterConnect: it sets statement_timeout
// to d on a new connection only where PostgreSQL's own is its built-in
// default (pg_settings' source "default", no timeout). Decision: an
// operator's setting wins wherever it was made: the URL's
// statement_timeout or options=-c, PGOPTIONS, ALTER ROLE or ALTER
// DATABASE ... SET, postgresql.conf or ALTER SYSTEM. Given as a
// connection parameter, as it once was, the 15 s came after all of
// those but the URL's and overrode them.
func defaultTimeout(d time.Duration) func(context.Context, *pgx.Conn) error {
	ms := strconv.FormatInt(d.Milliseconds(), 10)
	return func(ctx context.Context, c *pgx.Conn) error {
		var source string
		if err := c.QueryRow(ctx, `SELECT source FROM pg_settings WHERE name = 'statement_timeout'`).Scan(&source); err != nil {
			return fmt.Errorf("reading statement_timeout's source: %w", err)
		}
		if source != "default" {
			return nil
		}
		if _, err := c.Exec(ctx, `SELECT set_config('statement_timeout', $1, false)`, ms); err != nil {
			return fmt.Errorf("setting statement_timeout: %w", err)
		}
		return nil
	}
}

// PoolStats is the connection pool's figures for /metrics: connections
// in use, the most it opens (pool_max_conns), and the time acquires have
// waited for a connection since the start. The heartbeat's own
// connection is not counted.
func (db *DB) PoolStats() (inUse, most int, waited time.Duration) {
	st := db.pool.raw.Stat()
	return int(st.AcquiredConns()), int(st.MaxConns()), st.EmptyAcquireWaitTime()
}

// Ping proves the database answers now to a request, for the server's
// readiness check: it takes a connection as a request does. A ping that
// ran out of time while every connection requests may hold was in use
// says so in the pool's words (acquire): the database may answer at
// once, but requests wait on it (a lock held, a slow database), and
// "context deadline exceeded" alone sent the operator looking for a
// network fault. Decision: a ping refused so is not counted in Refused:
// the checks come at the monitoring's interval, and the count would
// grow with it, not with the players' calls refused.
func (db *DB) Ping(ctx context.Context) error {
	p := db.pool
	p.refused = nil
	return p.Ping(ctx) // worded already: the log's not-ready line gives the cause, no package name
}

// Refused is how many calls were refused since the start because no
// connection of the pool was free within the wait (pool.go), for
// /metrics.
func (db *DB) Refused() int64 { return db.noConns.Load() }

// closeWithin bounds Close's wait for connections still in use, as the
// SQLite store's Close is bounded; a variable for the test of the wait
// running out.
var closeWithin = 5 * time.Second

// Close closes the connections, the heartbeat's included. pgxpool's Close returns only once every
// connection was given back: one a caller still holds (rows not closed)
// would keep a server's shutdown waiting for ever. So Close waits for it
// at most closeWithin, then logs that it did not finish, with how many
// connections were in use then, and returns without them (the pool's
// Close goes on, and ends when they are given back or the process
// exits). A second Close returns at once.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		done := make(chan struct{})
		go func() { // exits once pgxpool's Close has returned
			defer close(done)
			// The heartbeat's own connection goes too: a lease renewed
			// after the tables' connections are gone would keep every
			// other server from taking this one's tables.
			if n := db.node.Load(); n != nil && n.beats.raw != nil {
				n.beats.raw.Close()
			}
			db.pool.raw.Close()
		}()
		select {
		case <-done:
		case <-time.After(closeWithin):
			// What is known when giving up is that Close has not
			// finished: in_use, read now, may be 0 by then (a connection
			// given back just after the wait, or pgxpool still closing
			// idle ones).
			db.log().Warn("pgstore: Close did not finish in time; returned without waiting longer",
				"db", db.name, "waited", closeWithin, "in_use", db.pool.raw.Stat().AcquiredConns())
		}
	})
	return nil
}

// Version is the schema version the embedded migrations reach.
func Version() int {
	names, _ := migrationNames()
	return len(names)
}

func migrationNames() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// migrateLock is the advisory lock key under which migrations run, so two
// servers starting together apply each migration once.
const migrateLock = 0x63617264 // "card"

// migrate applies the migrations the database has not seen, in one
// transaction with the schema version (cardtable_schema): all or nothing.
// A database from a newer program is refused, not touched.
func (db *DB) migrate(ctx context.Context) error {
	names, err := migrationNames()
	if err != nil {
		return err
	}
	return db.tx(ctx, func(tx pgx.Tx) error {
		// A migration may rewrite a large table, and may wait for
		// another server's: statementTimeout is for requests.
		if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS cardtable_schema (version integer NOT NULL)`); err != nil {
			return fmt.Errorf("reading schema version: %w", err)
		}
		have := 0
		err := tx.QueryRow(ctx, `SELECT version FROM cardtable_schema`).Scan(&have)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = tx.Exec(ctx, `INSERT INTO cardtable_schema (version) VALUES (0)`)
		}
		if err != nil {
			return fmt.Errorf("reading schema version: %w", err)
		}
		if have > len(names) {
			return fmt.Errorf("database schema version %d is newer than this program's %d: it was %w", have, len(names), dbcopy.ErrNewer)
		}
		for i := have; i < len(names); i++ {
			text, err := migrations.ReadFile(names[i])
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, string(text)); err != nil {
				return fmt.Errorf("migration %s: %w", names[i], err)
			}
		}
		_, err = tx.Exec(ctx, `UPDATE cardtable_schema SET version = $1`, len(names))
		return err
	})
}

// tx runs f in a transaction, committing if it returns nil: a nil from tx
// is a commit.
func (db *DB) tx(ctx context.Context, f func(pgx.Tx) error) error {
	return txOn(ctx, db.pool, f)
}

// txOn runs f in a transaction on p's side of the pool, committing if f
// returns nil and rolling back otherwise; the error is classified
// (full) once, here.
func txOn(ctx context.Context, p pool, f func(pgx.Tx) error) error {
	return full(pgx.BeginFunc(ctx, p, f))
}

// exec is one statement, its own transaction.
func (db *DB) exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return db.pool.Exec(ctx, sql, args...)
}

// full classifies a write the server had no room for (SQLSTATE 53100,
// disk_full) as ErrDiskFull, both services' sentinels, as the SQLite
// store does; and a database out of reach as unreachable (down).
func full(err error) error {
	if errors.Is(err, spidergame.ErrDiskFull) {
		return err // told already (a scan through the pool's wrapper)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "53100" {
		return fmt.Errorf("%w: %w", errors.Join(spidergame.ErrDiskFull, table.ErrDiskFull), err)
	}
	return down(err)
}

// read runs f in a read-only snapshot, so rows read together agree (a
// game and its log, a table and its moves).
func (db *DB) read(ctx context.Context, f func(pgx.Tx) error) error {
	return readOn(ctx, db.pool, f)
}

// readOn is read on p's side of the pool (pool.go): db.tables for the
// tables' own loads (starting one, taking one over, checking a refused
// write), which requests holding their share must not stall.
func readOn(ctx context.Context, p pool, f func(pgx.Tx) error) error {
	return down(pgx.BeginTxFunc(ctx, p, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, f))
}

// down marks err unreachable when the database could not be reached or
// its connection broke (PostgreSQL restarting, stopped, out of reach):
// a web request then answers 503, to be tried again, not 500 (the
// Unavailable method is internal/web's contract). Other errors are
// returned as they are.
func down(err error) error {
	var u unreachable
	var slow tooSlow
	if err == nil || errors.As(err, &u) || errors.As(err, &slow) {
		return err
	}
	if timedOut(err) {
		return tooSlow{fmt.Errorf("PostgreSQL did not finish the statement in time (statement_timeout or lock_timeout: "+
			"a lock held by another connection, or a slow database): %w", err)}
	}
	var ce *pgconn.ConnectError
	var op *net.OpError
	if !(errors.As(err, &ce) || errors.As(err, &op) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, io.ErrUnexpectedEOF) || goneAway(err)) {
		return err
	}
	return unreachable{connectWords(err)}
}

// goneAway is whether PostgreSQL said it is stopping or not yet taking
// connections: 57P01 admin_shutdown (a fast stop or restart ends every
// connection with it), 57P02 crash_shutdown, 57P03 cannot_connect_now
// (starting up, shutting down), 57P05 idle_session_timeout, and class 08,
// the connection exceptions. Each passes once the server is back. 08P01
// (protocol violation) is kept: PgBouncer says its own limits with it
// (docs/scaling.md).
func goneAway(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case "57P01", "57P02", "57P03", "57P05":
		return true
	}
	return strings.HasPrefix(pe.Code, "08")
}

// timedOut is whether PostgreSQL cancelled a statement for running past
// statement_timeout (SQLSTATE 57014, query_canceled) or a lock's wait
// past lock_timeout (55P03, lock_not_available), which an operator may
// set. Either passes once the lock is released or the database is fast
// again: a "try again". Decision: the code alone decides, never the
// message, which is in the server's lc_messages language; 57014 is also
// a cancel the client asked for, which pgx reports with the context's
// error in the chain, and that is left to the context's own handling
// (a client gone, a request out of time).
func timedOut(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	return pe.Code == "57014" || pe.Code == "55P03"
}

// tooSlow is an error of a statement PostgreSQL cancelled for its
// timeout (timedOut): a database that answered, but not in time. It is
// a 503 as a database out of reach is (Unavailable), told apart by
// TooSlow for the player's words and the log's reason (internal/web).
type tooSlow struct{ err error }

func (e tooSlow) Error() string     { return e.err.Error() }
func (e tooSlow) Unwrap() error     { return e.err }
func (e tooSlow) Unavailable() bool { return true }
func (e tooSlow) TooSlow() bool     { return true }

// unreachable is an error of a database out of reach.
type unreachable struct{ err error }

func (e unreachable) Error() string     { return e.err.Error() }
func (e unreachable) Unwrap() error     { return e.err }
func (e unreachable) Unavailable() bool { return true }

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
