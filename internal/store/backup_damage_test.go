package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardtable/internal/dbcopy"
	"cardtable/internal/sqlitetest"
)

// resultRows is how many rows sourceWithRows puts in results and in
// game_log: enough for each, and the index results_player, to span many
// pages.
const resultRows = 2000

// sourceWithRows makes a cardtable database at path holding resultRows
// rows in results and in game_log (the log of one game, g1, which it
// holds too: sound but for the damage a test makes), in one file (no
// -wal), and returns its page size.
func sourceWithRows(t *testing.T, path string) int {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	sqlitetest.Exec(t, path, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
		INSERT INTO results (lineage, variant, suits, won, score, at, player)
		SELECT printf('lineage-%05d', i), 'spider', 4, 0, i, i, printf('aaaaaaaa%05d', i) FROM n;
		INSERT INTO games (id, lineage, save, variant, suits, deal, moves, score, created, updated)
		VALUES ('g1', 'lineage-g1', '{}', 'spider', 4, '1', 2000, 0, 1, 1);
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
		INSERT INTO game_log (game, seq, cmd) SELECT 'g1', i, printf('move %05d to pile 3', i) FROM n;
		PRAGMA journal_mode = DELETE`)
	var size int
	c, err := sql.Open("sqlite", "file:"+path)
	if err == nil {
		err = c.QueryRow("PRAGMA page_size").Scan(&size)
		c.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return size
}

// rootPage is the root page of the table or index name in the file at path.
func rootPage(t *testing.T, path, name string) int {
	t.Helper()
	c, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var root int
	if err := c.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = ?", name).Scan(&root); err != nil {
		t.Fatal(err)
	}
	return root
}

// editPage changes page n (from 1) of the file at path by edit, which is
// given the page's bytes.
func editPage(t *testing.T, path string, size, n int, edit func(page []byte)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edit(b[(n-1)*size : n*size])
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// loseRows damages the table game_log (a WITHOUT ROWID table, no index
// besides its own b-tree) as a lost page would: its root, an interior
// page, forgets its last child but one, whose rows a reader of the table
// no longer meets (SQLite's integrity check finds its pages never used).
func loseRows(t *testing.T, path string, size int) {
	t.Helper()
	editPage(t, path, size, rootPage(t, path, "game_log"), func(p []byte) {
		if p[0] != 2 {
			t.Fatalf("game_log's root is of type %d, not an interior page", p[0])
		}
		cells := binary.BigEndian.Uint16(p[3:5])
		binary.BigEndian.PutUint16(p[3:5], cells-1)
	})
}

// damageIndex damages the index results_player alone: the first entry
// of its first leaf page names another player than its row has, as a
// bit flipped on the disk would.
func damageIndex(t *testing.T, path string, size int) {
	t.Helper()
	root := rootPage(t, path, "results_player")
	var leaf int
	editPage(t, path, size, root, func(p []byte) {
		if p[0] != 2 {
			t.Fatalf("results_player's root is of type %d, not an interior index page", p[0])
		}
		cell := binary.BigEndian.Uint16(p[12:14]) // the first cell's offset
		leaf = int(binary.BigEndian.Uint32(p[cell : cell+4]))
	})
	editPage(t, path, size, leaf, func(p []byte) {
		cell := int(binary.BigEndian.Uint16(p[8:10])) // the first cell's offset
		i := bytes.Index(p[cell:], []byte("aaaaaaaa"))
		if p[0] != 10 || i < 0 || i > 8 {
			t.Fatalf("page %d is not results_player's leaf with a player first", leaf)
		}
		p[cell+i] = 'b'
	})
}

// TestBackupLostRowsRefused: a database a page of whose table is lost
// (its parent no longer names it) is refused by Backup as damaged, from
// SQLite's integrity check of it, nothing written. VACUUM INTO read past
// the page without an error and the copy, sound in itself, passed its
// check: the backup was written and exit 0, 120 of game_log's 2,000 rows
// missing from it.
func TestBackupLostRowsRefused(t *testing.T) {
	dir := t.TempDir()
	src, to := filepath.Join(dir, "src.db"), filepath.Join(dir, "backup.db")
	loseRows(t, src, sourceWithRows(t, src))
	err := Backup(context.Background(), src, to)
	want := "backup: " + src + " is damaged (SQLite's integrity check: "
	if !errors.Is(err, ErrCorrupt) || !strings.HasPrefix(fmt.Sprint(err), want) ||
		!strings.Contains(fmt.Sprint(err), "): rows of it may be lost, which a copy would miss without a word; nothing written: put a backup in its place") {
		t.Fatalf("backup of a database with rows lost: %v; want ErrCorrupt, %q..., rows may be lost, nothing written", err, want)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("files beside the source: %v, want it alone", names)
	}
}

// TestBackupIndexesMadeAnew: a database damaged in an index alone (an
// entry naming another player than its row) has whole tables: Backup
// writes the backup with every row, its indexes made anew from them
// (VACUUM INTO copies an index as it is) and checked, and still reports
// the source damaged (ErrCorrupt), naming the backup as the remedy. The
// copy failed its check and was refused as if the copy were at fault.
func TestBackupIndexesMadeAnew(t *testing.T) {
	dir := t.TempDir()
	src, to := filepath.Join(dir, "src.db"), filepath.Join(dir, "backup.db")
	damageIndex(t, src, sourceWithRows(t, src))
	err := Backup(context.Background(), src, to)
	want := "backup: " + src + " is damaged in its indexes only (SQLite's integrity check: row 1 missing from index results_player); the backup " +
		to + " holds every row, its indexes made anew and checked: stop the server and restore that backup in the database's place (docs/operating.md)"
	if !errors.Is(err, ErrCorrupt) || fmt.Sprint(err) != want {
		t.Fatalf("backup of a database with an index damaged: %v; want ErrCorrupt and\n%s", err, want)
	}
	if err := checkCopy(context.Background(), to); err != nil {
		t.Fatalf("the backup: %v", err)
	}
	c, err := sql.Open("sqlite", "file:"+to+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var rows, found int
	err = c.QueryRow("SELECT count(*), (SELECT count(*) FROM results INDEXED BY results_player WHERE player = 'aaaaaaaa00001') FROM results").Scan(&rows, &found)
	if err != nil || rows != resultRows || found != 1 {
		t.Errorf("the backup holds %d results, %d found by the index for the damaged entry (%v); want %d and 1", rows, found, err, resultRows)
	}
	if names := dirNames(t, dir); len(names) != 2 {
		t.Errorf("files: %v, want the source and the backup", names)
	}
}

// dirNames is the names of the files in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestBackupStaleTablePageRefused: a results leaf page written back as
// it was before row 1000 was removed from it, the indexes keeping that
// row's entries, is a page that lost a row: SQLite's integrity check
// finds only "wrong # of entries in index ..." (its quick check, ok).
// Backup refuses it, nothing written. It was taken for damage in the
// indexes alone: the backup was written, said to hold every row, and
// its REINDEX dropped the entries that told of row 1000.
func TestBackupStaleTablePageRefused(t *testing.T) {
	dir := t.TempDir()
	src, to, stale := filepath.Join(dir, "src.db"), filepath.Join(dir, "backup.db"), filepath.Join(dir, "stale")
	size := sourceWithRows(t, src)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	page := -1
	for off := 0; off < len(b); off += size {
		if b[off] == 13 && bytes.Contains(b[off:off+size], []byte("lineage-01000")) {
			page = off/size + 1 // a table leaf page (type 13) holding row 1000
		}
	}
	if page < 0 {
		t.Fatal("no table leaf page holds row 1000")
	}
	if err := os.WriteFile(stale, b, 0o600); err != nil {
		t.Fatal(err)
	}
	sqlitetest.Exec(t, stale, "PRAGMA secure_delete = ON; DELETE FROM results WHERE rowid = 1000") // its bytes zeroed
	s, err := os.ReadFile(stale)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(s[(page-1)*size:page*size], []byte("lineage-01000")) {
		t.Fatalf("page %d still holds row 1000 after its delete", page)
	}
	editPage(t, src, size, page, func(p []byte) { copy(p, s[(page-1)*size:page*size]) })
	if err := os.Remove(stale); err != nil {
		t.Fatal(err)
	}

	err = Backup(context.Background(), src, to)
	want := "backup: " + src + " is damaged (SQLite's integrity check: wrong # of entries in index "
	if !errors.Is(err, ErrCorrupt) || !strings.HasPrefix(fmt.Sprint(err), want) ||
		!strings.Contains(fmt.Sprint(err), "): rows of it may be lost, which a copy would miss without a word; nothing written") {
		t.Fatalf("backup of a database whose table page lost a row: %v; want ErrCorrupt, %q..., rows may be lost, nothing written", err, want)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("files beside the source: %v, want it alone", names)
	}
}

// TestCheckCopySourceDamage: db copy's look at its source finds damage
// as Backup does, with SQLite's full integrity check, and refuses the
// file, leaving it as it was: damage in an index alone, which SQLite's
// quick check passes (a copy reads games and saves through their keys'
// index, and failed halfway, "database disk image is malformed", its
// target made), names cardtable backup as the way to a sound copy; a
// table's page lost, rows that may be gone.
func TestCheckCopySourceDamage(t *testing.T) {
	dir := t.TempDir()
	indexes, lost := filepath.Join(dir, "indexes.db"), filepath.Join(dir, "lost.db")
	damageIndex(t, indexes, sourceWithRows(t, indexes))
	loseRows(t, lost, sourceWithRows(t, lost))
	before := files(t, dir)
	for _, tc := range []struct{ path, want string }{
		{indexes, indexes + " is damaged in its indexes only (SQLite's integrity check: row 1 missing from index results_player), " +
			"through which a copy reads rows; nothing changed: write a backup of it with cardtable backup, which makes the indexes anew " +
			"from the tables, and copy from that backup (docs/operating.md)"},
		{lost, lost + " is damaged (SQLite's integrity check: "},
	} {
		err := CheckCopySource(context.Background(), tc.path)
		if !errors.Is(err, ErrCorrupt) || !strings.HasPrefix(fmt.Sprint(err), tc.want) {
			t.Errorf("db copy's look at %s: %v; want ErrCorrupt and\n%s", filepath.Base(tc.path), err, tc.want)
		}
	}
	if err := CheckCopySource(context.Background(), lost); !strings.Contains(fmt.Sprint(err), "): rows of it may be lost, which a copy would miss without a word; nothing changed") {
		t.Errorf("db copy's look at a table's page lost: %v; want rows may be lost, nothing changed", err)
	}
	sameFiles(t, dir, before)
	// The way named: a backup of it, then a copy from the backup, which
	// carries every row.
	backup, target := filepath.Join(t.TempDir(), "backup.db"), filepath.Join(t.TempDir(), "copy.db")
	if err := Backup(context.Background(), indexes, backup); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("the backup of the source damaged in its indexes: %v, want it written and ErrCorrupt", err)
	}
	if err := CheckCopySource(context.Background(), backup); err != nil {
		t.Fatalf("db copy's look at the backup: %v", err)
	}
	copied := copyAll(t, backup, target)
	for _, table := range []string{"results", "game_log", "games"} {
		want := map[string]int{"results": resultRows, "game_log": resultRows, "games": 1}[table]
		if copied[table] != want {
			t.Errorf("the copy from the backup holds %d rows of %s, want %d (%v)", copied[table], table, want, copied)
		}
	}
}

// copyAll copies the database at from into a new one at to, as db copy
// does, and returns how many rows each table of the copy holds.
func copyAll(t *testing.T, from, to string) map[string]int {
	t.Helper()
	ctx := context.Background()
	src, err := OpenCopySource(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := OpenCopyTarget(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dbcopy.Copy(ctx, src, dst); err != nil {
		dst.Close()
		t.Fatalf("the copy: %v", err)
	}
	dst.Close()
	c, err := sql.Open("sqlite", "file:"+to+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rows := map[string]int{}
	for _, table := range []string{"results", "game_log", "games"} {
		var n int
		if err := c.QueryRow(`SELECT count(*) FROM "` + table + `"`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		rows[table] = n
	}
	return rows
}

// TestCheckCopyTargetRowsFirst: db copy's target holding rows is refused
// for its rows (dbcopy.ErrNotEmpty) before any integrity check: one
// damaged in an index too is still told it has rows. The full integrity
// check ran first, took seconds on a large file, and told such a target
// "damaged, cut short or overwritten".
func TestCheckCopyTargetRowsFirst(t *testing.T) {
	target := filepath.Join(t.TempDir(), "target.db")
	damageIndex(t, target, sourceWithRows(t, target))
	err := CheckCopyTarget(context.Background(), target)
	if !errors.Is(err, dbcopy.ErrNotEmpty) || errors.Is(err, ErrCorrupt) {
		t.Fatalf("db copy's look at a target with rows, damaged in an index: %v; want dbcopy.ErrNotEmpty", err)
	}
}
