package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync/atomic"

	"modernc.org/sqlite"
)

// SQLite names a database's -wal and -shm files after the path it was
// opened by, and a connection opened by a path reaches whatever file is at
// the path then. A connection opened after the database file was renamed
// away or replaced would open (or create) another file, and SQLite, seeing
// that file with the original's -wal beside it, deletes that WAL or
// replays it into the wrong file: acknowledged writes lost, a restored
// backup damaged. So every connection is bound to the file the store
// opened and locked:
//
//   - both pools are filled when the store opens and never shrink: no idle
//     timeout, no lifetime, as many idle connections as open ones, so
//     database/sql never closes a healthy connection and dials again;
//   - a connection database/sql does discard (one whose query was
//     interrupted, say) is replaced only through fileConnector, which
//     first checks that the path still names the locked file and refuses
//     otherwise;
//   - the path is opened with mode=rw: a missing file is never created.

// fileConnector dials SQLite connections for one locked database file.
type fileConnector struct {
	file *dbFile
	base driver.Connector
	// walKeep, once the page size is read (limitWAL), is the -wal file's
	// size limit each connection dialled from then on gets.
	walKeep atomic.Int64
}

func newConnector(dsn string, file *dbFile) (*fileConnector, error) {
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return &fileConnector{file: file, base: base}, nil
}

// Connect opens a connection only while the path names the locked file,
// checked before and after the open (a swap during the open closes it).
func (c *fileConnector) Connect(ctx context.Context) (driver.Conn, error) {
	if err := c.file.check(); err != nil {
		return nil, err
	}
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.file.check(); err != nil {
		conn.Close()
		return nil, err
	}
	if keep := c.walKeep.Load(); keep > 0 {
		ex, ok := conn.(driver.ExecerContext)
		if !ok {
			conn.Close()
			return nil, errors.New("store: the SQLite driver's connection cannot execute")
		}
		q := fmt.Sprintf("PRAGMA journal_size_limit(%d)", keep)
		if _, err := ex.ExecContext(ctx, q, nil); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

func (c *fileConnector) Driver() driver.Driver { return c.base.Driver() }

// openPool opens a pool of exactly n connections to the locked file, all
// dialled now, none ever closed by the pool itself.
func openPool(ctx context.Context, c *fileConnector, n int) (*sql.DB, error) {
	p := sql.OpenDB(c)
	p.SetMaxOpenConns(n)
	p.SetMaxIdleConns(n)
	p.SetConnMaxLifetime(0)
	p.SetConnMaxIdleTime(0)
	conns := make([]*sql.Conn, 0, n)
	var err error
	for range n {
		var cn *sql.Conn
		if cn, err = p.Conn(ctx); err != nil {
			break
		}
		if err = cn.PingContext(ctx); err != nil {
			cn.Close()
			break
		}
		conns = append(conns, cn)
	}
	for _, cn := range conns {
		cn.Close() // back to the pool, idle
	}
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("store: open %s: %w", c.file.path, err)
	}
	return p, nil
}

// poolSize is the reader pool's size: readers beyond it wait for one.
const poolSize = 4

// pageCacheKiB bounds each connection's SQLite page cache: with the
// writer, (1 + poolSize) × 2 MiB = 10 MiB for the store at most.
const pageCacheKiB = 2048
