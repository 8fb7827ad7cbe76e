package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCloseWaitsForConnections: Close returns only once both pools'
// connections have all closed, a connection still in use when it began
// included (one a transaction cut short gives back from database/sql's
// own goroutine): until then that connection holds the -shm's lock and
// would run SQLite's closing checkpoint after Close.
func TestCloseWaitsForConnections(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	held, err := db.r.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	given := make(chan struct{})
	// Exits once Close has closed the readers' pool: it gives the held
	// connection back then.
	go func() {
		defer close(given)
		for db.r.PingContext(ctx) == nil {
			runtime.Gosched()
		}
		held.Close()
	}()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	r, w := db.r.Stats().OpenConnections, db.w.Stats().OpenConnections
	<-given
	if r != 0 || w != 0 {
		t.Fatalf("Close returned with %d readers' and %d writer's connections open, want none", r, w)
	}
}

// TestCloseGivesUp: a caller holding rows open past Close keeps its
// connection; Close waits closeConnsWithin for it, then says so in a
// warning naming the pool, and a second Close returns at once.
func TestCloseGivesUp(t *testing.T) {
	defer func(d time.Duration) { closeConnsWithin = d }(closeConnsWithin)
	closeConnsWithin = 50 * time.Millisecond
	var log lockedBuffer
	defer func(l *slog.Logger) { slog.SetDefault(l) }(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&log, nil)))
	db, _ := openTemp(t)
	rows, err := db.r.QueryContext(context.Background(), "SELECT 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	got := log.String()
	if !strings.Contains(got, "level=WARN") || !strings.Contains(got, "pool=readers") ||
		!strings.Contains(got, "open_connections=1") || strings.Contains(got, "pool=writer") {
		t.Fatalf("Close with rows held open logged %q, want a warning naming the readers' pool", got)
	}
	closeConnsWithin = 10 * time.Second
	start := time.Now()
	if err := db.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("a second Close took %v, want it at once", d)
	}
	if strings.Count(log.String(), "level=WARN") != 1 {
		t.Fatalf("a second Close logged again: %q", log.String())
	}
}

// lockedBuffer is a log's buffer written by several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestFailedOpenWaitsForWriter: an open that fails once the file was
// copied over in place (cp backup.db ct.db while the store opened it)
// closes the writer only once its last connection has closed, one still
// in use included (a migration's transaction cut short by its context is
// given back by database/sql's own goroutine), before it moves the WAL
// aside: that connection's close runs SQLite's closing checkpoint, which
// would write the old WAL's pages into the copy.
func TestFailedOpenWaitsForWriter(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, backup := filepath.Join(dir, "ct.db"), filepath.Join(dir, "backup.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	fillSaves(t, db, 3)
	if _, _, err := db.checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	copyDB(t, db, backup)
	// As open leaves it when it fails: the writer alone, and the file;
	// what it has written since the last checkpoint is in the WAL only.
	db.ckpt.stop()
	db.app.stop()
	if err := closeConns(slog.Default(), path, namedPool{"readers", db.r}); err != nil {
		t.Fatal(err)
	}
	defer db.file.Close()
	for i := range 3 {
		if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: fmt.Sprint("n", i), Lineage: "x", Save: "s", Updated: t0}); err != nil {
			t.Fatal(err)
		}
	}
	held, err := db.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	copyOver(t, backup, path)
	want, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan struct{})
	connsWaitHook = func() { close(waiting) }
	defer func() { connsWaitHook = nil }()
	done := make(chan error, 1)
	go func() { done <- db.failOpen(errors.New("a migration failed")) }() // exits when failOpen returns
	var early error
	select {
	case <-waiting: // failOpen waits for the held connection
	case early = <-done:
		t.Errorf("the failed open returned with a writer's connection still in use: %v", early)
	}
	held.Close()
	err = early
	if err == nil {
		err = <-done
	}
	if !errors.Is(err, ErrReplaced) {
		t.Fatalf("the failed open: %v, want ErrReplaced", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Fatalf("the file copied over is no longer the copy: %d bytes, the copy's %d", len(got), len(want))
	}
	if aside, _ := filepath.Glob(path + "-wal.overwritten-*"); len(aside) != 1 {
		t.Fatalf("the old WAL moved aside: %v", aside)
	}
	if n := checkFile(t, path); n != 3 {
		t.Fatalf("the copied-over file has %d saves, want the backup's 3", n)
	}
}

// TestFailOpenLogsThroughServerLogger: the warning of an open that failed
// and could not wait for a connection goes through the logger given to
// OpenLogged (the server's: --log-format json), not slog's default, whose
// plain text lines broke a JSON log.
func TestFailOpenLogsThroughServerLogger(t *testing.T) {
	defer func(d time.Duration) { closeConnsWithin = d }(closeConnsWithin)
	closeConnsWithin = 50 * time.Millisecond
	var plain, js lockedBuffer
	defer func(l *slog.Logger) { slog.SetDefault(l) }(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&plain, nil)))
	ctx := context.Background()
	db, err := OpenLogged(ctx, filepath.Join(t.TempDir(), "cardtable.db"), slog.New(slog.NewJSONHandler(&js, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer db.file.Close()
	// As open leaves it when it fails: the writer alone.
	db.ckpt.stop()
	db.app.stop()
	if err := closeConns(db.log(), db.file.path, namedPool{"readers", db.r}); err != nil {
		t.Fatal(err)
	}
	held, err := db.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	db.failOpen(errors.New("a migration failed"))
	if got := js.String(); !strings.Contains(got, `"level":"WARN"`) || !strings.Contains(got, `"pool":"writer"`) {
		t.Errorf("the server's logger got %q, want the warning as JSON", got)
	}
	if plain.String() != "" {
		t.Errorf("slog's default got %q", plain.String())
	}
}
