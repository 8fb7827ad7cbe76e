package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cardtable/internal/table"
)

func createTables(tb testing.TB, db *DB, ids ...string) {
	tb.Helper()
	for _, id := range ids {
		s := table.Stored{ID: id, Creator: "c", Config: "{}", Seats: make([]table.StoredSeat, 2),
			Status: table.StatusOpen, Created: t0, Updated: t0}
		if err := db.CreateTable(context.Background(), s); err != nil {
			tb.Fatal(err)
		}
	}
}

func movesOf(tb testing.TB, db *DB, id string) []table.StoredMove {
	tb.Helper()
	s, err := db.LoadTable(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	return s.Moves
}

// One batch holds actions of several tables: a refused one is answered
// alone and the others are stored; a transaction that fails stores none
// of its actions and tells every caller.
func TestAppendBatch(t *testing.T) {
	db, _ := openTemp(t)
	createTables(t, db, "a", "b", "c", "d")
	req := func(id string, seq int) appendReq {
		return appendReq{id: id, seq: seq, m: table.StoredMove{Seat: 1, Action: "lead 7H"}, err: make(chan error, 1)}
	}
	t.Run("refusals answered alone", func(t *testing.T) {
		batch := []appendReq{req("a", 0), req("b", 5), req("none", 0), req("c", 0)}
		db.app.commit(batch)
		for i, want := range []error{nil, ErrStale, table.ErrNotFound, nil} {
			if err := <-batch[i].err; !errors.Is(err, want) || (want == nil && err != nil) {
				t.Errorf("request %d (%s %d): %v, want %v", i, batch[i].id, batch[i].seq, err, want)
			}
		}
		for id, n := range map[string]int{"a": 1, "b": 0, "c": 1} {
			if got := movesOf(t, db, id); len(got) != n {
				t.Errorf("table %s: %d moves stored, want %d", id, len(got), n)
			}
		}
	})
	t.Run("failed transaction stores nothing", func(t *testing.T) {
		// A move row already there (a damaged table): the insert fails.
		if _, err := db.w.Exec(`INSERT INTO live_table_moves (tbl, seq, seat, action) VALUES ('d', 0, 0, 'pass')`); err != nil {
			t.Fatal(err)
		}
		batch := []appendReq{req("a", 1), req("d", 0)}
		db.app.commit(batch)
		for i := range batch {
			if err := <-batch[i].err; err == nil {
				t.Errorf("request %d answered stored in a failed transaction", i)
			}
		}
		if got := movesOf(t, db, "a"); len(got) != 1 {
			t.Errorf("table a: %d moves stored, want the 1 from before", len(got))
		}
	})
}

// Many tables storing their actions at once (each waiting for its own
// before the next, as a table does) get every action stored in order.
func TestAppendConcurrent(t *testing.T) {
	db, _ := openTemp(t)
	const tables, each = 20, 10
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = fmt.Sprint("t", i)
	}
	createTables(t, db, ids...)
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			for seq := range each {
				m := table.StoredMove{Seat: seq % 2, Action: fmt.Sprint("play ", seq)}
				if err := db.AppendAction(context.Background(), id, seq, m); err != nil {
					t.Errorf("%s %d: %v", id, seq, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, id := range ids {
		got := movesOf(t, db, id)
		if len(got) != each {
			t.Fatalf("%s: %d moves stored, want %d", id, len(got), each)
		}
		for seq, m := range got {
			if m.Action != fmt.Sprint("play ", seq) {
				t.Fatalf("%s move %d is %q", id, seq, m.Action)
			}
		}
	}
}

// After Close, an action is refused at once (it does not hang).
func TestAppendAfterClose(t *testing.T) {
	db, _ := openTemp(t)
	createTables(t, db, "a")
	db.Close()
	if err := db.AppendAction(context.Background(), "a", 0, table.StoredMove{Action: "pass"}); !errors.Is(err, errClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// The WAL is checkpointed by the background checkpointer, not inside a
// commit: SQLite's automatic checkpoint is off on every connection (each
// change to the database file is the store's own), and a checkpoint copies
// every committed page.
func TestCheckpointInBackground(t *testing.T) {
	db, _ := openTemp(t)
	for _, pool := range []*sql.DB{db.w, db.r} {
		var auto int
		if err := pool.QueryRow("PRAGMA wal_autocheckpoint").Scan(&auto); err != nil || auto != 0 {
			t.Fatalf("wal_autocheckpoint = %d, %v; want 0 (off)", auto, err)
		}
	}
	createTables(t, db, "a", "b", "c")
	for seq := range 20 {
		if err := db.AppendAction(context.Background(), "a", seq, table.StoredMove{Action: "pass"}); err != nil {
			t.Fatal(err)
		}
	}
	log, done, err := db.checkpoint(context.Background())
	if err != nil || log == 0 || done != log {
		t.Fatalf("checkpoint: %d of %d pages, %v", done, log, err)
	}
}

// TestCheckpointBackstop: writes faster than the background pass do not
// grow the WAL past the backstop: the writer checkpoints after the commit
// that crosses it.
func TestCheckpointBackstop(t *testing.T) {
	defer func(n int64) { walBackstop = n }(walBackstop)
	walBackstop = 8
	db, path := openTemp(t)
	db.ckpt.stop() // only the writer's backstop checkpoints now
	createTables(t, db, "a")
	// The WAL file keeps the size of its largest commit: a new
	// database's schema, written in one commit, may pass the limit below.
	before, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 3000)
	for seq := range 60 {
		if err := db.AppendAction(context.Background(), "a", seq, table.StoredMove{Action: big}); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	// 60 commits of a page or more each: without the backstop the WAL
	// holds them all. A PASSIVE checkpoint restarts the WAL from its
	// start, so it stays within the backstop and one commit's frames.
	if limit := max((walBackstop+4)*int64(db.pageSize+24), before.Size()); fi.Size() > limit {
		t.Fatalf("WAL is %d bytes, want at most %d", fi.Size(), limit)
	}
}

// TestBackstopAfterFlood: once a flood has grown the WAL past the backstop
// and the writer has checkpointed it, the writes that follow, small, draw
// no checkpoint: the backstop goes by what the WAL holds since it started
// over, not by the size its file once reached. The file's limit counts in
// the database's pages, as the backstop does: a database of 1 KiB pages
// (one an older SQLite made, say) is cut back below its backstop too.
func TestBackstopAfterFlood(t *testing.T) {
	for _, page := range []int{0, 1024} { // 0: a new database's own size
		t.Run(fmt.Sprint("page", page), func(t *testing.T) {
			defer func(n int64) { walBackstop = n }(walBackstop)
			walBackstop = 32 // pages
			path := filepath.Join(t.TempDir(), "ct.db")
			if page != 0 {
				makeWithPageSize(t, path, page)
			}
			db, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if page != 0 && db.pageSize != page {
				t.Fatalf("page size %d, want %d", db.pageSize, page)
			}
			db.ckpt.stop() // only the writer's backstop checkpoints now
			var ckpts int
			db.ckptHook = func(s ckptStep) {
				if s == ckptLocked {
					ckpts++
				}
			}
			ctx := context.Background()
			// About 80 pages of 4 KiB, 320 of 1 KiB.
			flood := strings.Repeat("move 1 2 3\n", 30000)
			if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: "flood", Lineage: "x", Save: flood, Updated: t0}); err != nil {
				t.Fatal(err)
			}
			if ckpts != 1 {
				t.Fatalf("the flood drew %d checkpoints, want 1", ckpts)
			}
			for i := range 3 {
				if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: fmt.Sprint("small", i), Lineage: "x", Save: "s", Updated: t0}); err != nil {
					t.Fatal(err)
				}
			}
			fi, err := os.Stat(path + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			if ckpts != 1 {
				t.Fatalf("3 small writes after the flood drew %d more checkpoints (the -wal file is %d bytes), want none", ckpts-1, fi.Size())
			}
		})
	}
}

// makeWithPageSize makes an empty SQLite database at path with pages of
// size bytes.
func makeWithPageSize(t *testing.T, path string, size int) {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(fmt.Sprintf("PRAGMA page_size = %d; VACUUM", size)); err != nil {
		t.Fatal(err)
	}
}

// TestWALLimitOnEveryConnection: the writer's connection, and one dialled
// in its place after database/sql discarded it, have the -wal file's
// limit in the database's pages (the DSN cannot carry it: the page size
// is read after the first connection opens).
func TestWALLimitOnEveryConnection(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ct.db")
	makeWithPageSize(t, path, 1024)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := walBackstop * 1024 / 4
	for round := range 2 {
		c, err := db.w.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got int64
		if err := c.QueryRowContext(ctx, "PRAGMA journal_size_limit").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("connection %d: journal_size_limit %d, want %d", round, got, want)
		}
		// Discarded as broken: the pool dials another in its place.
		c.Raw(func(any) error { return driver.ErrBadConn })
		c.Close()
	}
}
