package storetest_test

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/web"
)

// execOn runs stmt on db through a connection of its own (not the
// store's), as another program would.
func execOn(tb testing.TB, b storetest.Backend, db, stmt string) {
	tb.Helper()
	ctx := context.Background()
	if b.Name == "sqlite" {
		conn, err := sql.Open("sqlite", db)
		if err == nil {
			_, err = conn.ExecContext(ctx, stmt)
			err = errors.Join(err, conn.Close())
		}
		if err != nil {
			tb.Fatal(err)
		}
		return
	}
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		tb.Fatal(err)
	}
}

// eachServerClock runs body on the SQLite store alone: a test of the
// times Seen records and pruning counts from on the server's clock (a
// test clock). On PostgreSQL both are the database's clock, which no test
// can set: TestSharedStoreUsesDatabaseClock covers it there.
func eachServerClock(t *testing.T, body func(t *testing.T, b storetest.Backend, db string, s storetest.Store)) {
	b := storetest.Backends()[0]
	t.Run(b.Name, func(t *testing.T) {
		db := b.New(t)
		body(t, b, db, storetest.OpenTB(t, db))
	})
}

// wantSeen checks that player is recorded as seen on the clock the store
// records by: the server's on SQLite, at; the database's on PostgreSQL,
// whatever at says, so within a minute of now (the test's database runs
// on this machine).
func wantSeen(tb testing.TB, b storetest.Backend, s storetest.Store, player string, at time.Time) {
	tb.Helper()
	seen, ok := seenAt(tb, s, player)
	switch {
	case !ok:
		tb.Errorf("%s not recorded as seen", player)
	case b.Name == "sqlite" && !seen.Equal(at):
		tb.Errorf("%s recorded as seen at %v, want the server's clock's %v", player, seen, at)
	case b.Name != "sqlite" && (seen.Before(time.Now().Add(-time.Minute)) || seen.After(time.Now().Add(time.Minute))):
		tb.Errorf("%s recorded as seen at %v, want the database's now, about %v", player, seen, time.Now())
	}
}

// backdate moves every recorded last-seen time d back, as if d had
// passed on every clock since.
func backdate(tb testing.TB, b storetest.Backend, db string, d time.Duration) {
	tb.Helper()
	execOn(tb, b, db, `UPDATE players SET seen = seen - `+strconv.FormatInt(d.Milliseconds(), 10))
}

// seenAt is when player is recorded as seen (zero and false if not).
func seenAt(tb testing.TB, s storetest.Store, player string) (time.Time, bool) {
	tb.Helper()
	_, seen, ok := owned(tb, s, player)
	return seen, ok
}

// TestForgetOnlyLapsedCookies: an identity recorded at its first request
// of a day whose last page load that day renewed its cookie for
// web.PlayerMaxAge keeps everything while that cookie is valid, up to
// and at PlayerMaxAge plus spidergame.ForgetMargin after the recorded
// time; one millisecond later it is forgotten. SQLite, on a test clock
// (eachServerClock).
func TestForgetOnlyLapsedCookies(t *testing.T) {
	eachServerClock(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		first := time.Date(2030, 6, 1, 0, 0, 30, 0, time.UTC)
		clock := first
		svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return clock }, Forget: web.PlayerMaxAge})
		storePlayer(t, s, "late", first)
		if err := svc.Seen(ctx, "late"); err != nil {
			t.Fatal(err)
		}
		// The day's last page load renews the cookie; the day's record
		// stands.
		clock = first.Add(23*time.Hour + 59*time.Minute)
		if err := svc.Seen(ctx, "late"); err != nil {
			t.Fatal(err)
		}
		if seen, _ := seenAt(t, s, "late"); !seen.Equal(first) {
			t.Fatalf("recorded at %v, want the day's first request, %v", seen, first)
		}
		lapses := clock.Add(web.PlayerMaxAge)
		for _, at := range []time.Time{first.Add(web.PlayerMaxAge), lapses.Add(-time.Millisecond),
			first.Add(web.PlayerMaxAge + spidergame.ForgetMargin)} {
			clock = at
			if _, err := svc.Prune(ctx); err != nil {
				t.Fatal(err)
			}
			wantAll(t, s, "late", 1)
			if t.Failed() {
				t.Fatalf("pruned at %v, the cookie lapsing at %v", at, lapses)
			}
		}
		clock = first.Add(web.PlayerMaxAge + spidergame.ForgetMargin + time.Millisecond)
		if _, err := svc.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		wantAll(t, s, "late", 0)
	})
}

// TestMadeUpIdentitiesNotRecorded: identities owning nothing (a client
// inventing cookies) are not recorded and cost no write, however many
// requests they make; an identity owning something is recorded. Both
// backends: SQLite's data_version and PostgreSQL's next transaction id,
// read on a connection of the test's own, show whether anything was
// written.
func TestMadeUpIdentitiesNotRecorded(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
		svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return now }, Forget: web.PlayerMaxAge})
		storePlayer(t, s, "real", now)
		writes := writeCounter(t, b, db)
		before := writes()
		for i := range 200 {
			if err := svc.Seen(ctx, "made-up-"+strconv.Itoa(i%100)); err != nil {
				t.Fatal(err)
			}
		}
		if after := writes(); after != before {
			t.Errorf("made-up identities wrote to the database (%d to %d)", before, after)
		}
		n := 0
		if err := s.Export(ctx, "players", func(any) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%d made-up identities recorded", n)
		}
		if err := svc.Seen(ctx, "real"); err != nil {
			t.Fatal(err)
		}
		wantSeen(t, b, s, "real", now)
	})
}

// writeCounter returns a function reading a figure of db that changes
// when anyone commits a write to it.
func writeCounter(t *testing.T, b storetest.Backend, db string) func() int64 {
	t.Helper()
	ctx := context.Background()
	if b.Name == "sqlite" {
		conn, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetMaxOpenConns(1) // data_version is a connection's own
		t.Cleanup(func() { conn.Close() })
		return func() int64 {
			var v int64
			if err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	return func() int64 {
		var v int64
		// The next transaction id: only a transaction that writes takes one.
		if err := conn.QueryRow(ctx, `SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// TestSeenForwardOnly: a clock stepping back (or another server's, behind
// this one's) never moves an identity's last-seen time back, whether the
// same server records it on an earlier day, a restarted one (nothing
// remembered) does, or the store is told directly. SQLite, on a test
// clock (eachServerClock).
func TestSeenForwardOnly(t *testing.T) {
	eachServerClock(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
		clock := now
		svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return clock }, Forget: web.PlayerMaxAge})
		storePlayer(t, s, "p", now)
		if err := svc.Seen(ctx, "p"); err != nil {
			t.Fatal(err)
		}
		clock = now.Add(-3 * day)
		if err := svc.Seen(ctx, "p"); err != nil {
			t.Fatal(err)
		}
		restarted := spidergame.New(s, spidergame.Options{Now: func() time.Time { return now.Add(-time.Hour) }, Forget: web.PlayerMaxAge})
		if err := restarted.Seen(ctx, "p"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Seen(ctx, "p", now.Add(-10*day)); err != nil {
			t.Fatal(err)
		}
		if seen, _ := seenAt(t, s, "p"); !seen.Equal(now) {
			t.Fatalf("recorded at %v after earlier times, want %v", seen, now)
		}
		clock = now.Add(day)
		if err := svc.Seen(ctx, "p"); err != nil {
			t.Fatal(err)
		}
		if seen, _ := seenAt(t, s, "p"); !seen.Equal(clock) {
			t.Fatalf("recorded at %v, want the later day's %v", seen, clock)
		}
	})
}

// TestSeenRetriedAfterFailure: a record that failed (the table out of
// reach for a moment) is tried again at the identity's next request the
// same day, not taken as done. Both backends.
func TestSeenRetriedAfterFailure(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
		clock := now
		svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return clock }, Forget: web.PlayerMaxAge})
		storePlayer(t, s, "p", now.Add(-5*day))
		execOn(t, b, db, `ALTER TABLE players RENAME TO players_away`)
		if err := svc.Seen(ctx, "p"); err == nil {
			t.Fatal("recorded with the players table away")
		}
		execOn(t, b, db, `ALTER TABLE players_away RENAME TO players`)
		clock = now.Add(time.Hour)
		if err := svc.Seen(ctx, "p"); err != nil {
			t.Fatal(err)
		}
		wantSeen(t, b, s, "p", clock)
	})
}

// TestRatedPersonRecorded: a person whose rated game ends is recorded as
// seen then, even with no request recorded before (they joined owning
// nothing and played over one WebSocket), so their rating is forgotten
// with them once unseen for the cookie's life; a bot level is no
// identity and is not recorded. A later game's end moves the time on,
// an earlier one's never back. Both backends (on PostgreSQL the time is
// the database's now, whatever the game's end says).
func TestRatedPersonRecorded(t *testing.T) {
	each(t, func(t *testing.T, b storetest.Backend, db string, s storetest.Store) {
		ctx := context.Background()
		at := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
		for i, end := range []time.Time{at.Add(-time.Hour), at, at.Add(-2 * time.Hour)} {
			id := "t" + strconv.Itoa(i)
			openTable(t, s, id)
			if err := s.FinishRated(ctx, id, end, bump([]string{"p:pat", "bot:hard"}, "Pat", 1)); err != nil {
				t.Fatal(err)
			}
		}
		wantSeen(t, b, s, "pat", at)
		if _, ok := seenAt(t, s, "hard"); ok {
			t.Error("a bot level recorded as a player")
		}
		backdate(t, b, db, web.PlayerMaxAge+spidergame.ForgetMargin+time.Minute)
		svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return at }, Forget: web.PlayerMaxAge})
		if _, err := svc.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		rs := must(s.Ratings(ctx, []string{"p:pat", "bot:hard"}))
		if len(rs) != 1 || rs[0].Key != "bot:hard" {
			t.Fatalf("after the person went unseen, ratings %+v, want the bot level's alone", rs)
		}
	})
}
