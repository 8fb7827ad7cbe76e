package cli

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
)

// TestDrainOnStopExits: the goroutine that marks a server stopping in the
// registry ends with serve on every path. Stopped before ctx ends (serve
// failing after joining the other servers), it is gone once stop returns
// and has marked nothing; once ctx has ended, stop returns with the mark
// written.
func TestDrainOnStopExits(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	db, err := pgstore.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	draining := func(n *pgstore.Node) bool {
		t.Helper()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var d bool
		if err := conn.QueryRow(ctx, `SELECT draining FROM servers WHERE id = $1`, n.ID()).Scan(&d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, ended := range []bool{false, true} {
		n, err := db.Join(ctx, pgstore.NodeOptions{Addr: "a:1", Lease: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		sctx, cancel := context.WithCancel(ctx)
		stop := drainOnStop(sctx, n, log)
		if ended {
			cancel()
		}
		stop()
		if g := drainGoroutines(); g != "" {
			t.Errorf("ctx ended %v: a drainOnStop goroutine outlives stop:\n%s", ended, g)
		}
		if got := draining(n); got != ended {
			t.Errorf("ctx ended %v: marked stopping %v, want %v", ended, got, ended)
		}
		if err := n.Close(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
	}
}

// drainGoroutines are the stacks of the goroutines running in
// drainOnStop ("" if none). One that stop has seen end may still be
// taking its last step (its deferred close done, the exit not yet): it is
// given a second to be gone, and one blocked in drainOnStop never is.
func drainGoroutines() string {
	deadline := time.Now().Add(time.Second)
	for {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var out []string
		for g := range strings.SplitSeq(string(buf), "\n\n") {
			if strings.Contains(g, "cli.drainOnStop") {
				out = append(out, g)
			}
		}
		if len(out) == 0 || time.Now().After(deadline) {
			return strings.Join(out, "\n\n")
		}
		time.Sleep(5 * time.Millisecond) // polled until the deadline above
	}
}
