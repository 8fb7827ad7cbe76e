package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"cardtable/internal/arlclient"
)

// TestArlingtonConnectLeavesAtTheEnd: connect leaves the table when the
// game is over, and says so: a rematch then holds no seat for a person
// who cannot take it from the terminal.
func TestArlingtonConnectLeavesAtTheEnd(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", "1", "--turn-timer", "off")
	_, wait := arlConnect(t, link, "", "--bot", "random")
	c := wait()
	arlCheckFinished(t, c)
	if !strings.Contains(c.out, "left the table: a rematch of this game holds no seat for you") {
		t.Errorf("no word of leaving in:\n%s", c.out)
	}
	cl, id, err := arlclient.FromLink(link)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := cl.Table(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if s := tb.Seats[0]; !s.Away {
		t.Errorf("after connect ended the seat is %+v, want left (away)", s)
	}
}

// TestArlingtonLeaveOverFailureWarns: a failed leave at the end, other
// than a table gone, is a warning line and no failing exit (here the
// server refuses the leave of someone who holds no seat there).
func TestArlingtonLeaveOverFailureWarns(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", "1", "--turn-timer", "off")
	cl, id, err := arlclient.FromLink(link)
	if err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	r := &arlRemote{env: &Env{Stdout: &out, Stderr: &errs}, client: cl, id: id}
	if err := r.leaveOver(context.Background()); err != nil {
		t.Fatalf("leaveOver: %v, want a warning only", err)
	}
	if !strings.Contains(errs.String(), "warning: the game is over, but leaving the table failed") {
		t.Errorf("no warning on the standard error: %q (out %q)", errs.String(), out.String())
	}
}
