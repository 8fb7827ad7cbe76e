package pgstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/dbcopy"
	"cardtable/internal/pgtest"
)

// unseenPair is a fresh database with two players, back and gone, each
// owning a row in every table forgetting deletes and unseen for 500 days
// by the database's clock, and the cut-off of 402 days.
func unseenPair(t *testing.T) (*DB, string, int64) {
	t.Helper()
	ctx := context.Background()
	url := pgtest.DB(t)
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ahead := time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	for _, player := range []string{"back", "gone"} {
		id := "g-" + player
		for table, row := range map[string]any{
			"games":    dbcopy.Game{ID: id, Player: player, Lineage: id, Save: "x", Variant: "spider", Suits: 1, Deal: "1", Moves: 1, Created: ahead, Updated: ahead, Version: 2, LogN: 1},
			"saves":    dbcopy.Save{Player: player, Name: "s", Lineage: id, Save: "x", Variant: "spider", Suits: 1, Deal: "1", Updated: 1},
			"results":  dbcopy.Result{Player: player, Lineage: id, Variant: "spider", Suits: 1, Won: true, Score: 9, At: 1},
			"settings": dbcopy.Setting{Player: player, JSON: "{}"},
			"ratings":  dbcopy.Rating{Entrant: "p:" + player, Name: "N" + player, Mu: 25, Sigma: 8, Games: 7, Updated: 1, Folded: "n" + player},
		} {
			if err := db.Import(ctx, table, []any{row}); err != nil {
				t.Fatal(table, err)
			}
		}
		if _, err := db.pool.Exec(ctx, `INSERT INTO players (player, seen) VALUES ($1, `+dbNow+` - $2::bigint)
			ON CONFLICT (player) DO UPDATE SET seen = excluded.seen`, player, (500 * 24 * time.Hour).Milliseconds()); err != nil {
			t.Fatal(err)
		}
	}
	var before int64
	if err := db.pool.QueryRow(ctx, `SELECT `+dbNow+` - $1::bigint`, (402 * 24 * time.Hour).Milliseconds()).Scan(&before); err != nil {
		t.Fatal(err)
	}
	return db, url, before
}

// wantPair checks that back keeps one row in each table and gone none.
func wantPair(t *testing.T, db *DB) {
	t.Helper()
	for player, want := range map[string]string{"back": "[1 1 1 1 1 1]", "gone": "[0 0 0 0 0 0]"} {
		var n [6]int
		err := db.pool.QueryRow(context.Background(), `SELECT
			(SELECT count(*) FROM games WHERE player = $1), (SELECT count(*) FROM saves WHERE player = $1),
			(SELECT count(*) FROM results WHERE player = $1), (SELECT count(*) FROM settings WHERE player = $1),
			(SELECT count(*) FROM ratings WHERE entrant = 'p:' || $1), (SELECT count(*) FROM players WHERE player = $1)`,
			player).Scan(&n[0], &n[1], &n[2], &n[3], &n[4], &n[5])
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(n); got != want {
			t.Errorf("%s's rows (games, saves, results, settings, ratings, players): %s, want %s", player, got, want)
		}
	}
}

// TestForgetSparesReturning: a player read in a batch to forget who is
// seen before the batch is forgotten keeps everything (forget's re-check);
// the other one of the batch is forgotten.
func TestForgetSparesReturning(t *testing.T) {
	ctx := context.Background()
	db, _, before := unseenPair(t)
	ids, err := db.unseen(ctx, before)
	if err != nil || len(ids) != 2 {
		t.Fatalf("unseen: %v, %v; want both players", ids, err)
	}
	if known, err := db.Seen(ctx, "back", time.Time{}); err != nil || !known {
		t.Fatalf("Seen: %v, %v", known, err)
	}
	if n, err := db.forget(ctx, ids, before); err != nil || n != 1 {
		t.Errorf("forget: %d players, %v; want 1", n, err)
	}
	wantPair(t, db)
}

// TestForgetSparesReturnUnderWay: a player whose return is being written
// while their batch is forgotten (a transaction holding their record, as
// Seen's does, committed only after the deletes were issued) keeps
// everything: the deletes leave out the players rows they cannot lock,
// rather than trusting a subquery's snapshot, and never wait for them.
func TestForgetSparesReturnUnderWay(t *testing.T) {
	ctx := context.Background()
	db, url, before := unseenPair(t)
	ids, err := db.unseen(ctx, before)
	if err != nil || len(ids) != 2 {
		t.Fatalf("unseen: %v, %v; want both players", ids, err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `UPDATE players SET seen = `+dbNow+` WHERE player = 'back'`); err != nil {
		t.Fatal(err)
	}
	type result struct {
		n   int64
		err error
	}
	done := make(chan result, 1)
	go func() { // ends when forget returns, at the latest once tx ends
		n, err := db.forget(ctx, ids, before)
		done <- result{n, err}
	}()
	// Commit the return once forget is done or waits for a lock.
	var r result
	finished := false
	deadline, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	for !finished {
		select {
		case r = <-done:
			finished = true
			continue
		case <-deadline.Done():
			t.Fatal("forget neither returned nor waited for a lock in 20 s")
		default:
		}
		var waiting bool
		if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if !finished {
		r = <-done
	}
	if r.err != nil || r.n != 1 {
		t.Errorf("forget: %d players, %v; want 1", r.n, r.err)
	}
	wantPair(t, db)
}

// TestForgetKeepsRecordOfSkipped: a player whose record was locked during
// the first deletes (a return that then rolled back) loses rows only in
// the later steps; their record stays while they own anything, so the
// next round finds and forgets the rest, rather than their rows staying
// for good with no record to find them by.
func TestForgetKeepsRecordOfSkipped(t *testing.T) {
	ctx := context.Background()
	db, url, before := unseenPair(t)
	ids, err := db.unseen(ctx, before)
	if err != nil || len(ids) != 2 {
		t.Fatalf("unseen: %v, %v; want both players", ids, err)
	}
	begin := func() pgx.Tx {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close(ctx) })
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
	back := begin() // a return under way, rolled back below
	if _, err := back.Exec(ctx, `UPDATE players SET seen = seen WHERE player = 'back'`); err != nil {
		t.Fatal(err)
	}
	hold := begin() // holds gone's game, so the games step waits
	if _, err := hold.Exec(ctx, `SELECT 1 FROM games WHERE player = 'gone' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { // ends when forget returns, once hold commits at the latest
		_, err := db.forget(ctx, ids, before)
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for waiting := false; !waiting; {
		if time.Now().After(deadline) {
			t.Fatal("forget did not wait for the held game in 20 s")
		}
		if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := back.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := hold.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var games, recorded int
	if err := db.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM games WHERE player = 'back'),
		(SELECT count(*) FROM players WHERE player = 'back')`).Scan(&games, &recorded); err != nil {
		t.Fatal(err)
	}
	if games == 1 && recorded == 0 {
		t.Fatal("back's game was left with no record: no round would ever forget it")
	}
	if _, err := db.PruneUnseen(ctx, time.Time{}, 402*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM saves)
		+ (SELECT count(*) FROM results) + (SELECT count(*) FROM settings)
		+ (SELECT count(*) FROM ratings WHERE NOT bot) + (SELECT count(*) FROM players)`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d rows left after the next round; want 0", left)
	}
}
