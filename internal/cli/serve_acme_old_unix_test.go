//go:build unix

package cli

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/acme/autocert"

	"cardtable/internal/storetest"
)

// TestACMEMoveOldFIFO: a named pipe in the old directory under the name
// of one of the server's own entries is refused without being read: the
// start does not wait for a writer that never comes, and nothing is
// moved for it.
func TestACMEMoveOldFIFO(t *testing.T) {
	ctx := context.Background()
	s := storetest.OpenTB(t, storetest.Backends()[0].New(t))
	old := t.TempDir()
	fifo := filepath.Join(old, "cards.example")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	c := dbCache{db: s, old: autocert.DirCache(old), log: slog.New(slog.NewTextHandler(&logged, nil)),
		domains: []string{"cards.example"}}
	done := make(chan struct{})
	go func() { // exits when moveOld returns; a hang is ended below
		defer close(done)
		c.moveOld(ctx)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		// Opening the pipe for writing lets a reader blocked on it go.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("moving the old directory waited on a named pipe")
	}
	if keys := acmeKeys(t, s); len(keys) != 0 {
		t.Fatalf("the database holds %q", keys)
	}
	if log := logged.String(); strings.Count(log, "level=WARN") != 1 || !strings.Contains(log, "refused=1") {
		t.Fatalf("log: %s", log)
	}
}
