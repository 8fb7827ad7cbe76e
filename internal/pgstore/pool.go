package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pool is the connection pool with every error passed through full (a
// disk full, a database out of reach: down), so that no query can
// forget it and answer a request 500 where 503 is meant. It offers only
// the calls the store makes; raw is pgxpool's, for Close and its counts.
//
// Each call first takes a connection, waiting for one at most wait
// (docs/operating.md, "When PostgreSQL misbehaves"): past it the call
// fails with a noConnection error (503, Retry-After) rather than wait behind
// requests held by a lock or a slow database. share, if not nil, bounds
// the connections its calls hold at once: the requests' side leaves the
// rest of raw's connections to the live tables' side, which has none.
type pool struct {
	raw   *pgxpool.Pool
	share chan struct{}
	wait  time.Duration // 0: no bound but ctx's
	// refused counts the calls refused for want of a connection in
	// time, for /metrics; shared by the sides of one store.
	refused *atomic.Int64
	// held counts the connections share's callers hold (not those they
	// are still opening), set with share: whether the side had every
	// connection it may hold in use when a wait ran out (allInUse).
	held *atomic.Int64
}

// acquireWait is the longest a statement waits for a connection of the
// pool (its own statement_timeout starts only once it has one).
// Decision: 5 s. A healthy pool hands a connection over in well under a
// millisecond; 256 Spider statistics reads at once on a 2-core machine
// made a move wait 1.8 s at the worst; a wait past 5 s means the
// connections are held by statements waiting on PostgreSQL (a lock, a
// database too slow), and the request would wait up to a multiple of
// statement_timeout. A variable for the tests.
var acquireWait = 5 * time.Second

// retryAfterNoConnection is the Retry-After of a request refused for want
// of a connection: as long as it waited, since what held the
// connections is unlikely to be gone sooner.
const retryAfterNoConnection = 5 * time.Second

// tableShare is how many of n connections the live tables keep for
// themselves: a quarter, at least one when there are two. Requests
// (Spider's, the lobby's, statistics) may hold the others; the tables
// may use all n. Decision: a burst of requests held every connection
// and a move waited behind it (measured in docs/operating.md); the
// tables' writes are short (one statement a move), so a few
// connections carry a server's tables (1,000 tables, 500 moves a
// second, keep about half of one busy).
func tableShare(n int32) int32 {
	if n < 2 {
		return 0
	}
	return max(1, n/4)
}

// noConnection is a call refused because no connection of the pool was
// free within the wait: a 503, to be tried again in RetryAfter.
type noConnection struct{ err error }

func (e noConnection) Error() string             { return e.err.Error() }
func (e noConnection) Unwrap() error             { return e.err }
func (e noConnection) Unavailable() bool         { return true }
func (e noConnection) TooSlow() bool             { return true }
func (e noConnection) SlowReason() string        { return "database too slow: no connection free" }
func (e noConnection) RetryAfter() time.Duration { return retryAfterNoConnection }

// allInUse is whether, at the moment a wait for a connection ended,
// every connection this side may hold was in use: all of the pool's, or
// all of the requests' share. Only then was the call refused for want of
// a connection; else a connection was being opened and PostgreSQL did
// not answer it (notAnswering).
func (p pool) allInUse() bool {
	st := p.raw.Stat()
	if st.AcquiredConns() >= st.MaxConns() {
		return true
	}
	return p.held != nil && p.held.Load() >= int64(cap(p.share))
}

// busyWords says why no connection came: how many are in use, and how
// many of them this side may hold.
func busyWords(p pool) string {
	st := p.raw.Stat()
	side := ""
	if p.held != nil {
		side = fmt.Sprintf(", %d of the %d requests may hold (the rest are kept for the live tables)", p.held.Load(), cap(p.share))
	}
	return fmt.Sprintf("%d of %d in use (pool_max_conns)%s; "+
		"queries are waiting on PostgreSQL (a lock held, a slow database, or PostgreSQL no longer answering its open connections; see pg_stat_activity)",
		st.AcquiredConns(), st.MaxConns(), side)
}

// notAnswering is the error of a wait for a connection that ended while
// connections were free to open but PostgreSQL answered none (a paused
// server, a network dropping packets, a proxy that accepts and stays
// silent): pgx gives the caller's timeout while the connection is still
// being opened. Out of reach, not "no connection free": those words sent
// the operator after a lock that was not there.
func notAnswering(p pool, wait time.Duration, err error) error {
	st := p.raw.Stat()
	return unreachable{fmt.Errorf("PostgreSQL did not answer within %v: %d of %d connections in use (pool_max_conns), "+
		"%d being opened got no answer (a database paused or overwhelmed, a network dropping packets): %w",
		wait, st.AcquiredConns(), st.MaxConns(), st.ConstructingConns(), err)}
}

// acquire takes a connection for one call; release gives it back.
//
// A wait that runs out (the pool's wait, or the call's own shorter
// deadline: a visit's record, 2 s) while every connection this side may
// hold is in use is refused as no connection free, and counted.
// Decision: a call cut short by its own deadline is counted too, so that
// a pool held by a lock shows in the count before requests have waited
// the full 5 s. A wait that runs out with connections free to open is
// PostgreSQL not answering (notAnswering): out of reach, not counted. A
// call whose context was canceled (its client went away) is not counted.
func (p pool) acquire(ctx context.Context) (c *pgxpool.Conn, release func(), err error) {
	wctx, wait := ctx, p.wait
	if p.wait > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, p.wait)
		defer cancel()
	}
	if dl, ok := ctx.Deadline(); ok && (wait <= 0 || time.Until(dl) < wait) {
		wait = max(0, time.Until(dl)).Round(time.Millisecond)
	}
	// given: the wait ended through the caller's own context, canceled
	// (not a refusal) rather than past its deadline (one).
	given := func() bool { return ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) }
	refuse := func(err error) error {
		if !p.allInUse() {
			return notAnswering(p, wait, err)
		}
		if p.refused != nil {
			p.refused.Add(1)
		}
		return noConnection{fmt.Errorf("no connection of the pool free within %v: %s: %w", wait, busyWords(p), err)}
	}
	if p.share != nil {
		select {
		case p.share <- struct{}{}:
		case <-wctx.Done():
			if given() {
				return nil, nil, ctx.Err()
			}
			return nil, nil, refuse(wctx.Err())
		}
	}
	unshare := func() {
		if p.share != nil {
			<-p.share
		}
	}
	c, err = p.raw.Acquire(wctx)
	if err != nil {
		unshare()
		var ce *pgconn.ConnectError
		if !given() && wctx.Err() != nil && !errors.As(err, &ce) {
			return nil, nil, refuse(err)
		}
		return nil, nil, full(err)
	}
	if p.held != nil {
		p.held.Add(1)
	}
	var once sync.Once
	return c, func() {
		once.Do(func() {
			if p.held != nil {
				p.held.Add(-1)
			}
			c.Release()
			unshare()
		})
	}, nil
}

func (p pool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	c, release, err := p.acquire(ctx)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	defer release()
	tag, err := c.Exec(ctx, sql, args...)
	return tag, full(err)
}

func (p pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	c, release, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := c.Query(ctx, sql, args...)
	if err != nil {
		release()
		return nil, full(err)
	}
	return &classifiedRows{Rows: rows, release: release}, nil
}

func (p pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	c, release, err := p.acquire(ctx)
	if err != nil {
		return errRow{err}
	}
	return classifiedRow{c.QueryRow(ctx, sql, args...), release}
}

func (p pool) Ping(ctx context.Context) error {
	c, release, err := p.acquire(ctx)
	if err != nil {
		return down(err)
	}
	defer release()
	return down(c.Ping(ctx))
}

// Begin and BeginTx make pool a pgx.BeginFunc's and BeginTxFunc's
// beginner; the transaction's own statements' errors are classified
// where the transaction's error is returned (tx, read). The connection
// goes back at the transaction's end (Commit or Rollback).
func (p pool) Begin(ctx context.Context) (pgx.Tx, error) {
	return p.BeginTx(ctx, pgx.TxOptions{})
}

func (p pool) BeginTx(ctx context.Context, o pgx.TxOptions) (pgx.Tx, error) {
	c, release, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := c.BeginTx(ctx, o)
	if err != nil {
		release()
		return nil, full(err)
	}
	return &poolTx{Tx: tx, release: release}, nil
}

// poolTx is a transaction that gives its connection back when it ends.
type poolTx struct {
	pgx.Tx
	release func()
}

func (t *poolTx) Commit(ctx context.Context) error {
	defer t.release()
	return t.Tx.Commit(ctx)
}

func (t *poolTx) Rollback(ctx context.Context) error {
	defer t.release()
	return t.Tx.Rollback(ctx)
}

// errRow is a row whose connection could not be had.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

// classifiedRow is a pool's row: Scan's error (the query's, the
// connection's) passed through full; Scan gives the connection back.
type classifiedRow struct {
	pgx.Row
	release func()
}

func (r classifiedRow) Scan(dest ...any) error {
	defer r.release()
	return full(r.Row.Scan(dest...))
}

// classifiedRows is a pool's rows: a connection lost while they are read
// is said by Err (and Scan), passed through full. The connection goes
// back once they are closed, or read to their end.
type classifiedRows struct {
	pgx.Rows
	release func()
}

func (r *classifiedRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Close()
	return false
}

func (r *classifiedRows) Close() {
	r.Rows.Close()
	r.release()
}

func (r *classifiedRows) Err() error             { return full(r.Rows.Err()) }
func (r *classifiedRows) Scan(dest ...any) error { return full(r.Rows.Scan(dest...)) }
