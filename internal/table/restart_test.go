package table_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
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

// restartTable stops hub h and closes its store db, as a stopped server
// does, then opens the store at path again with a new hub and returns
// table id as that hub restored it, with the store opened. The new store
// is closed when the test ends.
func restartTable(tb testing.TB, h *table.Hub, db storetest.Store, path, id string) (*table.Table, storetest.Store) {
	tb.Helper()
	h.Close()
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	db2 := openDB(tb, path)
	tb.Cleanup(func() { db2.Close() })
	t, err := newHub(tb, db2, newFakeClock()).Table(id)
	if err != nil {
		tb.Fatalf("table %s not restored: %v", id, err)
	}
	return t, db2
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

// TestRestartKeepsChat: chat lines are stored before anyone sees them; a
// table restored on a new hub (after a restart, or on another server) has
// its last ChatHistory lines as they were sent, a client back with the
// number of the last line it has gets each later line once and in order,
// and the numbering goes on.
func TestRestartKeepsChat(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) { restartKeepsChat(t, b.New(t)) })
	}
}

func restartKeepsChat(t *testing.T, path string) {
	ctx := context.Background()
	db := openDB(t, path)
	clk := newFakeClock()
	h1 := newHub(t, db, clk)
	tb := mustCreate(t, h1, "p", table.Config{Players: 2})
	id := tb.ID()
	mustJoin(t, tb, "p", 0)
	w := mustSub(t, tb, "", -1)
	next(t, w)
	const said = table.ChatHistory + 7
	var seen []table.ChatLine // what the watcher was sent, in order
	for i := 1; i <= said; i++ {
		who := table.Player{ID: fmt.Sprint("s", i), Name: "Spectator"}
		if i%5 == 0 {
			who.ID = "p" // from the seat, within its rate
			clk.Advance(table.ChatEvery)
		}
		if err := tb.Chat(ctx, who, fmt.Sprint("line ", i, " ♣")); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, next(t, w).Chat...)
	}
	for i, l := range seen {
		if l.N != i+1 || l.Text != fmt.Sprint("line ", i+1, " ♣") {
			t.Fatalf("sent line %d: %+v", i, l)
		}
	}
	tb2, db2 := restartTable(t, h1, db, path, id)
	if got := next(t, mustSub(t, tb2, "", -1)).Chat; !reflect.DeepEqual(got, seen[said-table.ChatHistory:]) {
		t.Fatalf("a new client's chat after the restart:\n%+v\nwant the last %d sent:\n%+v", got, table.ChatHistory, seen[said-table.ChatHistory:])
	}
	have := said - 3
	back, err := tb2.SubscribeChat(ctx, "p", "", -1, have)
	if err != nil {
		t.Fatal(err)
	}
	if got := next(t, back).Chat; !reflect.DeepEqual(got, seen[have:]) {
		t.Fatalf("a client back with line %d got %+v, want lines %d to %d", have, got, have+1, said)
	}
	if err := tb2.Chat(ctx, table.Player{ID: "p"}, "after"); err != nil {
		t.Fatal(err)
	}
	if got := next(t, back).Chat; len(got) != 1 || got[0].N != said+1 || got[0].Seat != 0 || got[0].Text != "after" {
		t.Fatalf("the next line: %+v", got)
	}
	full, err := tb2.SubscribeChat(ctx, "", "", -1, said+1)
	if err != nil {
		t.Fatal(err)
	}
	if got := next(t, full).Chat; len(got) != 0 {
		t.Fatalf("a client with every line got %+v again", got)
	}
	stored, err := db2.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(stored.Chat); n != table.ChatHistory || stored.Chat[n-1].N != said+1 || stored.Chat[0].N != said+2-table.ChatHistory {
		t.Fatalf("stored chat: %d lines, %+v ... %+v", n, stored.Chat[0], stored.Chat[n-1])
	}
}

// TestChatStoredBeforeSent: a line the store refuses is an error for its
// sender and reaches nobody; the next line takes its number.
func TestChatStoredBeforeSent(t *testing.T) {
	st := newMemStore()
	h := newHub(t, st, newFakeClock())
	tb := mustCreate(t, h, "a", table.Config{Players: 2})
	w := mustSub(t, tb, "", -1)
	next(t, w)
	st.setFail(errors.New("disk gone"))
	if err := tb.Chat(bg, table.Player{ID: "x", Name: "X"}, "lost"); !errors.Is(err, table.ErrStore) {
		t.Fatalf("chat with the store failing: %v", err)
	}
	st.setFail(nil)
	if err := tb.Chat(bg, table.Player{ID: "y", Name: "Y"}, "kept"); err != nil {
		t.Fatal(err)
	}
	if got := next(t, w).Chat; len(got) != 1 || got[0].N != 1 || got[0].Text != "kept" {
		t.Fatalf("sent %+v, want only line 1, kept", got)
	}
	if c := st.get(tb.ID()).Chat; len(c) != 1 || c[0].Text != "kept" {
		t.Fatalf("stored %+v", c)
	}
}
