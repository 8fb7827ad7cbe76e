package store

import (
	"bytes"
	"context"
	"log/slog"
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
