package pgstore

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/pgtest"
)

// TestCloseGivesUp: a connection a caller still holds (rows not closed)
// keeps pgxpool's Close waiting until it is given back; the store's Close
// waits closeWithin for it, then says in one warning that Close did not
// finish, with the connections in use when it gave up, and returns; a
// second Close returns at once. The database it names shows no password.
func TestCloseGivesUp(t *testing.T) {
	defer func(d time.Duration) { closeWithin = d }(closeWithin)
	closeWithin = 50 * time.Millisecond
	var log lockedBuffer
	defer func(l *slog.Logger) { slog.SetDefault(l) }(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&log, nil)))
	ctx := context.Background()
	// With passwords (the server trusts this test's connections, so any
	// will do), which the warning must not show.
	url := strings.Replace(pgtest.DB(t), "postgres@", "postgres:pw1@", 1) + "&password=secret2&sslpassword=s3"
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	held, err := db.pool.raw.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Given back however the test ends (a Fatal included), so that the
	// pool's Close, waiting for it, returns; Release is a no-op the
	// second time.
	defer held.Release()
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }() // exits when Close returns
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second): // a bound on a hang, far past closeWithin
		t.Fatal("Close did not return while a connection was held")
	}
	got := log.String()
	if strings.Count(got, "level=WARN") != 1 ||
		!strings.Contains(got, `msg="pgstore: Close did not finish in time; returned without waiting longer"`) ||
		!strings.Contains(got, "waited=50ms in_use=1") || !strings.Contains(got, `db="postgres://`) {
		t.Fatalf("Close with a connection held logged %q, want one warning that it did not finish", got)
	}
	for _, secret := range []string{"pw1", "secret2", "s3"} {
		if strings.Contains(got, secret) {
			t.Fatalf("the warning shows the password %q: %s", secret, got)
		}
	}
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
