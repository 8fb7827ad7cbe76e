package table_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/internal/pgtest"
	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

// openDB opens the database db names (a SQLite file or a PostgreSQL
// URL), as the server does.
func openDB(tb testing.TB, db string) storetest.Store {
	tb.Helper()
	s, err := storetest.Open(context.Background(), db)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func movesOf(tb testing.TB, rec string) []string {
	tb.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(rec), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] >= "0" && f[0] <= "9" {
			out = append(out, line)
		}
	}
	return out
}

// TestRestartResumes: a table stored through the real store (SQLite, and
// PostgreSQL) is stopped mid-hand; a new hub on the reopened database
// restores it with every acknowledged action, the event numbering goes
// on, and the game plays to its end.
func TestRestartResumes(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) { restartResumes(t, b.New(t)) })
	}
}

func restartResumes(t *testing.T, path string) {
	ctx := context.Background()
	db := openDB(t, path)
	opts := func(db table.Store, clk table.Clock) table.Options {
		return table.Options{Store: db, Bots: newBot, Clock: clk, BotTime: time.Hour}
	}
	h1, err := table.NewHub(ctx, opts(db, newFakeClock()))
	if err != nil {
		t.Fatal(err)
	}
	tb := mustCreate(t, h1, "p", table.Config{Players: 3, Target: 12, Bots: []string{"", "random", "random"}})
	id := tb.ID()
	mustJoin(t, tb, "p", 0)
	sub, err := tb.Subscribe(ctx, "p", 0)
	if err != nil {
		t.Fatal(err)
	}
	// Play p's turns until well into the first hand, then act once more
	// and stop the server at once.
	var u table.Update
	for acted := -1; ; {
		u = next(t, sub)
		if u.View == nil || u.View.ToMove != 0 || u.View.EventCount == acted {
			continue
		}
		acted = u.View.EventCount
		if err := tb.Act(ctx, "p", 0, anyLegal(t, u)); err != nil {
			t.Fatal(err)
		}
		if u.View.EventCount >= 12 {
			break
		}
	}
	before, err := h1.Record(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	acked := movesOf(t, before)
	if strings.Contains(before, "\nseed ") {
		t.Fatalf("a game in play gives its seed:\n%s", before)
	}
	h1.Close()
	if _, ok := <-tb.Done(); ok {
		t.Fatal("Done delivered a value")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db2 := openDB(t, path)
	defer db2.Close()
	h2, err := table.NewHub(ctx, opts(db2, newFakeClock()))
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	tb2, err := h2.Table(id)
	if err != nil {
		t.Fatalf("not restored: %v", err)
	}
	after, err := h2.Record(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got := movesOf(t, after)
	if len(got) < len(acked) || strings.Join(got[:len(acked)], "\n") != strings.Join(acked, "\n") {
		t.Fatalf("acknowledged moves lost:\nbefore %v\nafter  %v", acked, got)
	}
	if s := tb2.Summary(); !s.Started || s.Seats[0].Name != "name p" {
		t.Fatalf("restored summary %+v", s)
	}
	// p reconnects with the event count it had: the numbering goes on.
	seen := u.View.EventCount
	sub2 := mustSub(t, tb2, "p", seen)
	first := next(t, sub2)
	if first.Seat != 0 || first.View.EventsFrom != seen || first.View.EventCount < seen+1 || first.View.Events[0].N != seen {
		t.Fatalf("reconnected since %d: seat %d, events from %d, count %d", seen, first.Seat, first.View.EventsFrom, first.View.EventCount)
	}
	p := &player{tb: t, t: tb2, id: "p", seat: 0, sub: sub2, acted: -1}
	if !over(first) && first.View.ToMove == 0 {
		p.acted = first.View.EventCount
		if err := tb2.Act(ctx, "p", 0, anyLegal(t, first)); err != nil {
			t.Fatal(err)
		}
	}
	p.until(over)
	stored, err := db2.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Status != table.StatusOver {
		t.Fatalf("stored status %q", stored.Status)
	}
	final, err := h2.Record(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, s, err := arlington.Load(strings.NewReader(final)); err != nil || !s.Terminal() {
		t.Fatalf("final record: %v", err)
	}
	if _, err := db2.LoadTable(ctx, "nope"); !errors.Is(err, table.ErrNotFound) || !errors.Is(err, spidergame.ErrNotFound) {
		t.Fatalf("missing table: %v", err)
	}
}
