package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
)

// ownAll gives player a row in every table forgetting deletes, and a
// record as seen at seen.
func ownAll(tb testing.TB, db *DB, player string, seen time.Time) {
	tb.Helper()
	ctx := context.Background()
	ms := seen.UnixMilli()
	ahead := time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	id := "g-" + player
	for table, row := range map[string]any{
		"games":    dbcopy.Game{ID: id, Player: player, Lineage: id, Save: "x", Variant: "spider", Suits: 1, Deal: "1", Moves: 1, Created: ahead, Updated: ahead, Version: 2, LogN: 1},
		"saves":    dbcopy.Save{Player: player, Name: "s", Lineage: id, Save: "x", Variant: "spider", Suits: 1, Deal: "1", Updated: ms},
		"results":  dbcopy.Result{Player: player, Lineage: id, Variant: "spider", Suits: 1, Won: true, Score: 9, At: ms},
		"settings": dbcopy.Setting{Player: player, JSON: "{}"},
		"ratings":  dbcopy.Rating{Entrant: "p:" + player, Name: "N" + player, Mu: 25, Sigma: 8, Games: 7, Updated: ms, Folded: "n" + player},
		"players":  dbcopy.Player{Player: player, Seen: ms},
	} {
		if err := db.Import(ctx, table, []any{row}); err != nil {
			tb.Fatal(table, err)
		}
	}
}

// ownedRows counts player's rows in each table forgetting deletes.
func ownedRows(tb testing.TB, db *DB, player string) string {
	tb.Helper()
	var n [6]int
	err := db.r.QueryRowContext(context.Background(), `SELECT
		(SELECT count(*) FROM games WHERE player = ?1), (SELECT count(*) FROM saves WHERE player = ?1),
		(SELECT count(*) FROM results WHERE player = ?1), (SELECT count(*) FROM settings WHERE player = ?1),
		(SELECT count(*) FROM ratings WHERE entrant = 'p:' || ?1), (SELECT count(*) FROM players WHERE player = ?1)`,
		player).Scan(&n[0], &n[1], &n[2], &n[3], &n[4], &n[5])
	if err != nil {
		tb.Fatal(err)
	}
	return fmt.Sprint(n)
}

// TestForgetSparesReturning: a player read in a batch to forget who is
// seen before the batch is forgotten keeps everything (forget's re-check);
// the other one of the batch is forgotten.
func TestForgetSparesReturning(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "cardtable.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, p := range []string{"back", "gone"} {
		ownAll(t, db, p, now.Add(-500*24*time.Hour))
	}
	before := millis(now.Add(-402 * 24 * time.Hour))
	ids, err := db.unseen(ctx, before)
	if err != nil || len(ids) != 2 {
		t.Fatalf("unseen: %v, %v; want both players", ids, err)
	}
	if known, err := db.Seen(ctx, "back", now); err != nil || !known {
		t.Fatalf("Seen: %v, %v", known, err)
	}
	n, err := db.forget(ctx, ids, before)
	if err != nil || n != 1 {
		t.Errorf("forget: %d players, %v; want 1", n, err)
	}
	if got := ownedRows(t, db, "back"); got != "[1 1 1 1 1 1]" {
		t.Errorf("the returning player's rows (games, saves, results, settings, ratings, players): %s, want one each", got)
	}
	if got := ownedRows(t, db, "gone"); got != "[0 0 0 0 0 0]" {
		t.Errorf("the unseen player's rows: %s, want none", got)
	}
}
