package table_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

const killChildEnv = "CARDTABLE_TABLE_KILL_CHILD"

// TestKillChild is the server TestRestartAfterKill9 kills: it plays seat 0
// of a new table and prints each action once Act has acknowledged it.
func TestKillChild(t *testing.T) {
	path := os.Getenv(killChildEnv)
	if path == "" {
		t.Skip("run by TestRestartAfterKill9")
	}
	ctx := context.Background()
	db := openDB(t, path)
	h, err := table.NewHub(ctx, table.Options{Store: db, Bots: newBot})
	if err != nil {
		t.Fatal(err)
	}
	tb := mustCreate(t, h, "p", table.Config{Players: 3, Bots: []string{"", "random", "random"}})
	mustJoin(t, tb, "p", 0)
	fmt.Printf("TABLE %s\n", tb.ID())
	sub := mustSub(t, tb, "p", 0)
	for acted := -1; ; {
		u := next(t, sub)
		if over(u) {
			fmt.Println("OVER")
			break
		}
		if u.View == nil || u.View.ToMove != 0 || u.View.EventCount == acted {
			continue
		}
		acted = u.View.EventCount
		a := anyLegal(t, u)
		if err := tb.Act(ctx, "p", 0, a); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("ACK %v\n", a)
	}
	_, _ = io.Copy(io.Discard, os.Stdin) // wait to be killed
}

// TestRestartAfterKill9 kills a server process (SIGKILL) in the middle of a
// hand; a new hub on its database (SQLite, and PostgreSQL) restores the
// table with every action the dead server acknowledged.
func TestRestartAfterKill9(t *testing.T) {
	if os.Getenv(killChildEnv) != "" {
		t.Skip("in the child")
	}
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) { restartAfterKill9(t, b.New(t)) })
	}
}

func restartAfterKill9(t *testing.T, path string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var id string
	var acked []string
	sc := bufio.NewScanner(out)
	for sc.Scan() && len(acked) < 12 {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "TABLE "); ok {
			id = v
		}
		if v, ok := strings.CutPrefix(line, "ACK "); ok {
			acked = append(acked, v)
		}
		if line == "OVER" {
			t.Fatal("the game ended before the kill")
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait() // killed: the error says so
	if id == "" || len(acked) < 12 {
		t.Fatalf("child: table %q, %d actions acknowledged (%v)", id, len(acked), sc.Err())
	}

	db := openDB(t, path)
	defer db.Close()
	h := newHub(t, db, newFakeClock())
	tb, err := h.Table(id)
	if err != nil {
		t.Fatalf("not restored: %v", err)
	}
	rec, err := h.Record(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var mine []string
	for _, line := range movesOf(t, rec) {
		if v, ok := strings.CutPrefix(line, "0 "); ok {
			mine = append(mine, v)
		}
	}
	if len(mine) < len(acked) || strings.Join(mine[:len(acked)], "|") != strings.Join(acked, "|") {
		t.Fatalf("acknowledged actions lost:\nacked  %v\nstored %v", acked, mine)
	}
	// The game goes on: seat 0's player reconnects and plays.
	u := until(t, mustSub(t, tb, "p", -1), func(u table.Update) bool { return u.View != nil })
	if u.View.Phase == arlington.PhaseOver || u.View.EventCount < len(acked) {
		t.Fatalf("restored at phase %v with %d events", u.View.Phase, u.View.EventCount)
	}
}
