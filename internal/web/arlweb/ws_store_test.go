package arlweb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

// dbWords is what a store's error says of itself: the database's words,
// its file's path, which are for the operator's log only.
const dbWords = "sqlite: disk I/O error (SQLITE_IOERR_WRITE) writing /srv/cardtable/cardtable.db"

// failWrites is a store whose chat, move and seat writes fail, while
// fail is set (with the database out of reach while down is set too),
// and whose leaderboard and players' games reads fail, while failReads
// is set, with the database's own words.
type failWrites struct {
	*store.DB
	fail, failReads, down atomic.Bool
	// full, if set, is the error the writes fail with: one the store
	// really gave.
	full atomic.Pointer[error]
}

func (s *failWrites) TopRatings(ctx context.Context, minGames, limit int) ([]table.Rating, error) {
	if s.failReads.Load() {
		return nil, errors.New(dbWords)
	}
	return s.DB.TopRatings(ctx, minGames, limit)
}

func (s *failWrites) PlayerTables(ctx context.Context, player string, limit int) ([]table.Stored, error) {
	if s.failReads.Load() {
		return nil, errors.New(dbWords)
	}
	return s.DB.PlayerTables(ctx, player, limit)
}

func (s *failWrites) refused() error {
	if err := s.full.Load(); err != nil {
		return *err
	}
	if s.fail.Load() && s.down.Load() {
		return fmt.Errorf("%s: %w", dbWords, outOfReach{})
	}
	if s.fail.Load() {
		return errors.New(dbWords)
	}
	return nil
}

func (s *failWrites) AppendChat(ctx context.Context, id string, l table.ChatLine, keep int) error {
	if err := s.refused(); err != nil {
		return err
	}
	return s.DB.AppendChat(ctx, id, l, keep)
}

func (s *failWrites) AppendAction(ctx context.Context, id string, seq int, m table.StoredMove) error {
	if err := s.refused(); err != nil {
		return err
	}
	return s.DB.AppendAction(ctx, id, seq, m)
}

func (s *failWrites) SaveSeats(ctx context.Context, id string, seats []table.StoredSeat) error {
	if err := s.refused(); err != nil {
		return err
	}
	return s.DB.SaveSeats(ctx, id, seats)
}

// newEnvLogged is newEnv over st (the database wrapped) whose handlers
// log to log.
func newEnvLogged(tb testing.TB, log *webtest.Log) (*env, *failWrites) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "test.db"))
	if err != nil {
		tb.Fatal(err)
	}
	st := &failWrites{DB: db}
	hub, err := table.NewHub(ctx, table.Options{Store: st, Bots: newBot, BotTime: time.Second, Logf: tb.Logf})
	if err != nil {
		tb.Fatal(err)
	}
	o := wired(Limits{})
	o.Log = slog.New(slog.NewJSONHandler(log, nil))
	arl := New(hub, o)
	s := web.New(web.Options{Games: []web.Routes{arl}, Log: o.Log})
	srv := httptest.NewServer(s)
	tb.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		hub.Close()
		cancel()
		db.Close()
	})
	return &env{tb: tb, srv: srv, hub: hub, db: db, site: s, arl: arl}, st
}

// TestStoreFailureWords: a chat line, a move or a seat the store could
// not write is refused in one plain sentence, the same on the WebSocket
// as over HTTP (a chat line's names the message, with its ref), never
// in the database's words, which go to the server's log.
func TestStoreFailureWords(t *testing.T) {
	var log webtest.Log
	e, st := newEnvLogged(t, &log)
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	w := a.dial(id, -1)
	mine := w.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Legal) > 0 })
	st.fail.Store(true)

	w.send(map[string]any{"type": "chat", "text": "hello", "ref": "c1"})
	m := w.waitFor(isError)
	if m.Class != "unavailable" || m.Ref != "c1" || m.Error != chatNotStored {
		t.Errorf("a chat line not stored: %+v; want class unavailable, ref c1, %q", m, chatNotStored)
	}
	w.send(map[string]any{"type": "action", "action": mine.Legal[0]})
	if m := w.waitFor(isError); m.Class != "unavailable" || m.Error != notStored {
		t.Errorf("a move not stored: %+v; want class unavailable, %q", m, notStored)
	}
	b := e.client()
	var got struct{ Error string }
	other := b.create("", "")
	if code := b.do("POST", "/api/arlington/tables/"+other+"/join", joinRequest{Name: "Bo"}, &got); code != http.StatusServiceUnavailable || got.Error != notStored {
		t.Errorf("a seat not stored: %d %q; want 503 %q", code, got.Error, notStored)
	}
	st.fail.Store(false)
	w.send(map[string]any{"type": "ping"}) // the reader has logged the refusals before it answers this
	w.waitFor(func(m srvMsg) bool { return m.Type == "pong" })
	if n := strings.Count(log.String(), dbWords); n < 3 {
		t.Errorf("the log names the database's words %d times, want the 3 refusals:\n%s", n, log.String())
	}
}

// The sentences a player reads of a store failure: a chat line's, and
// any other read or write's.
const (
	chatNotStored = "the server could not save your message; try again"
	notStored     = "the server's storage failed; try again"
)

// TestStoreReadFailureWords: the leaderboard or a player's games the
// store could not read are answered 503 in a sentence true of a read,
// never in the database's words, which go to the log. Store failures
// were all told as writes: "the server could not save this", though
// nothing was being saved; and logged as "could not store the table".
func TestStoreReadFailureWords(t *testing.T) {
	var log webtest.Log
	e, st := newEnvLogged(t, &log)
	c := e.client()
	c.create("", "") // a player, with its identity cookie
	st.failReads.Store(true)
	for _, path := range []string{"/api/arlington/ratings", "/api/arlington/games"} {
		var got struct{ Error string }
		if code := c.do("GET", path, nil, &got); code != http.StatusServiceUnavailable || got.Error != notStored {
			t.Errorf("GET %s, the store failing: %d %q; want 503 %q", path, code, got.Error, notStored)
		}
	}
	if n := strings.Count(log.String(), dbWords); n < 2 {
		t.Errorf("the log names the database's words %d times, want the 2 failures:\n%s", n, log.String())
	}
	// Nor does the log call a failed read a failure to store.
	if strings.Contains(log.String(), "could not store") {
		t.Errorf("a failed read logged as a write:\n%s", log.String())
	}
}

// TestWSRefusalOutOfReachLogged: a WebSocket message refused because
// the database is out of reach is logged through the server's event log
// (at WARN, with its reason, the client and the table, at most the
// minute's share), as a failed request is; not at ERROR, a line each,
// as every move of every table would be while PostgreSQL is stopped.
func TestWSRefusalOutOfReachLogged(t *testing.T) {
	var log webtest.Log
	e, st := newEnvLogged(t, &log)
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	w := a.dial(id, -1)
	mine := w.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Legal) > 0 })
	st.fail.Store(true)
	st.down.Store(true)
	w.send(map[string]any{"type": "action", "action": mine.Legal[0]})
	if m := w.waitFor(isError); m.Class != "unavailable" {
		t.Errorf("a move refused with the database out of reach: %+v", m)
	}
	w.send(map[string]any{"type": "ping"}) // the reader has logged the refusal before it answers this
	w.waitFor(func(m srvMsg) bool { return m.Type == "pong" })
	var found []map[string]any
	for line := range strings.Lines(log.String()) {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		if l["msg"] == "arlington: a WebSocket message refused" {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d refusal lines, want 1:\n%s", len(found), log.String())
	}
	l := found[0]
	if l["level"] != "WARN" || l["reason"] != "database out of reach" || l["client"] != "127.0.0.1" || l["table"] != id ||
		!strings.Contains(fmt.Sprint(l["err"]), dbWords) {
		t.Errorf("the refusal's line: %v", l)
	}
}

// TestWSRefusalDiskFullLogged: a move refused because the database is
// full (the store's own error from a real SQLITE_FULL, its page bound
// reached) reaches the player as storage_full, in the words that say it
// was not saved, and the log as one WARN line with reason "disk full";
// the same move is taken once there is room.
func TestWSRefusalDiskFullLogged(t *testing.T) {
	ctx := context.Background()
	var log webtest.Log
	e, st := newEnvLogged(t, &log)
	if _, err := e.db.SetMaxPages(ctx, 1); err != nil { // the pages in use
		t.Fatal(err)
	}
	full := e.db.PutSave(ctx, store.SaveRecord{Player: "p", Name: "big", Lineage: "l",
		Save: strings.Repeat("move 3 7 2\n", 10000), Updated: time.Now()}) // 110 KB: pages more
	if !errors.Is(full, store.ErrDiskFull) {
		t.Fatalf("a write past the page bound: %v", full)
	}
	if _, err := e.db.SetMaxPages(ctx, 1<<30); err != nil {
		t.Fatal(err)
	}
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	w := a.dial(id, -1)
	mine := w.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Legal) > 0 })
	st.full.Store(&full)
	w.send(map[string]any{"type": "action", "action": mine.Legal[0]})
	if m := w.waitFor(isError); m.Class != "storage_full" || m.Error != "the server's disk is full: this was not saved; try again later" {
		t.Errorf("a move refused on a full disk: %+v", m)
	}
	w.send(map[string]any{"type": "ping"}) // the reader has logged the refusal before it answers this
	w.waitFor(func(m srvMsg) bool { return m.Type == "pong" })
	var found []map[string]any
	for _, l := range log.Lines(t) {
		if l["msg"] == "arlington: a WebSocket message refused" {
			found = append(found, l)
		}
	}
	if len(found) != 1 || found[0]["level"] != "WARN" || found[0]["reason"] != "disk full" || found[0]["table"] != id {
		t.Fatalf("the refusal logged %v, want one WARN line with reason \"disk full\"", found)
	}
	st.full.Store(nil)
	w.send(map[string]any{"type": "action", "action": mine.Legal[0]})
	// Nothing changed at the table since the refusal: the next view is
	// the move's, and an error its refusal.
	m := w.waitFor(func(m srvMsg) bool { return isView(m) || isError(m) })
	if isError(m) {
		t.Fatalf("the move once there was room: %+v", m)
	}
	taken := false
	for _, ev := range m.View.Events {
		taken = taken || ev.Kind == arlington.EventMove && ev.Seat == mine.Seat && ev.Action.String() == mine.Legal[0]
	}
	if !taken {
		t.Fatalf("the view after the move once there was room has no move %q by seat %d: %+v", mine.Legal[0], mine.Seat, m.View.Events)
	}
}
