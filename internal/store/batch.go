package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"cardtable/internal/table"
)

// The live tables' actions are committed in batches (group commit): each
// table's goroutine waits for its action to be stored before anything is
// acknowledged or broadcast, and with many tables in play their actions
// arrive together. One transaction for the actions waiting at that moment
// costs about what one costs alone (the commit, the WAL frames of the
// shared pages, the checkpoints they cause), so the store keeps up with a
// thousand tables; no action waits for a timer, only for the batch in
// progress. Persist-before-acknowledge holds: a caller returns only after
// the transaction holding its action has committed.

// maxBatch bounds one transaction's actions.
const maxBatch = 128

// batchTimeout bounds one batch's transaction (as a table bounds a write).
const batchTimeout = 10 * time.Second

var errClosed = errors.New("store: closed")

type appendReq struct {
	id  string
	seq int
	m   table.StoredMove
	err chan error // the answer, buffered
}

// appender is the goroutine that commits the batches. Its exit: Close
// closes quit and waits for done.
type appender struct {
	db   *DB
	reqs chan appendReq // unbuffered: a request taken is a request answered
	quit chan struct{}
	done chan struct{}
	once sync.Once
}

func startAppender(db *DB) *appender {
	a := &appender{db: db, reqs: make(chan appendReq), quit: make(chan struct{}), done: make(chan struct{})}
	go a.run()
	return a
}

// stop ends the goroutine; requests not yet taken get errClosed. It may
// be called more than once (as DB.Close may).
func (a *appender) stop() {
	a.once.Do(func() { close(a.quit) })
	<-a.done
}

// append hands r to the goroutine and waits for its commit. Once taken,
// r is answered whatever ctx does, so a caller never mistakes a
// committed action for a lost one.
func (a *appender) append(ctx context.Context, r appendReq) error {
	r.err = make(chan error, 1)
	select {
	case a.reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-a.quit:
		return errClosed
	}
	return <-r.err
}

func (a *appender) run() {
	defer close(a.done)
	batch := make([]appendReq, 0, maxBatch)
	for {
		batch = batch[:0]
		select {
		case r := <-a.reqs:
			batch = append(batch, r)
		case <-a.quit:
			return
		}
	more: // take every request already waiting, without waiting for more
		for len(batch) < maxBatch {
			select {
			case r := <-a.reqs:
				batch = append(batch, r)
			default:
				break more
			}
		}
		a.commit(batch)
	}
}

// commit stores batch in one transaction. A refused action (stale, or its
// table gone) changes nothing and is answered alone; a failing
// transaction fails every action in it (none is stored).
func (a *appender) commit(batch []appendReq) {
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	refused := make([]error, len(batch))
	now := millis(time.Now())
	err := a.db.tx(ctx, func(tx *sql.Tx) error {
		for i, r := range batch {
			var err error
			if refused[i], err = appendOne(ctx, tx, r, now); err != nil {
				return err
			}
		}
		return nil
	})
	for i, r := range batch {
		if err != nil {
			r.err <- err
		} else {
			r.err <- refused[i]
		}
	}
}
