package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/arlclient"
)

// TestArlingtonConnectInterruptBeforeStart: Ctrl+C while connect waits
// for the other seats to be taken gives the seat up, against the real
// server: at a table of people without a turn timer, a game started with
// that person gone would wait for ever. Before, the seat stayed taken.
func TestArlingtonConnectInterruptBeforeStart(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,human", "--turn-timer", "off")
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	_, stdin := openPTY(t) // a terminal: no line comes
	out := &syncBuffer{}
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"arlington", "connect", link, "--identity", ""}, stdin, out, &errb)
	}()
	arlWaitOut(t, out, "waiting for every seat to be taken")
	cancel(Interrupt{Signal: os.Interrupt})
	select {
	case code := <-done:
		if code != 130 || !strings.Contains(out.String(), "left the table; seat 1 is open again for anyone\n") {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("connect did not end")
	}
	c, id, err := arlclient.FromLink(link)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := c.Table(t.Context(), id)
	if err != nil || tb.OpenSeats != 2 || tb.Started {
		t.Fatalf("the table after the interrupt: %+v, %v; want both seats open", tb, err)
	}
}
