package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"cardtable/internal/table"
)

// TestBackupWhileOpen: a backup taken while the store is open and being
// written holds every write committed before it, passes the integrity
// check, and never overwrites a file.
func TestBackupWhileOpen(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t)
	fillSaves(t, db, 12) // in the WAL, not yet checkpointed
	line := table.ChatLine{N: 1, Seat: -1, Name: "Ann", Text: "hello ♦", At: t0}
	if err := db.CreateTable(ctx, table.Stored{ID: "t", Config: "{}", Seats: []table.StoredSeat{{}, {}}, Created: t0, Updated: t0}); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendChat(ctx, "t", line, table.ChatHistory); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(t.TempDir(), "backup.db")
	if err := Backup(ctx, path, to); err != nil {
		t.Fatal(err)
	}
	if n := checkFile(t, to); n != 12 {
		t.Fatalf("backup has %d saves, want 12", n)
	}
	b, err := Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := b.LoadTable(ctx, "t")
	b.Close()
	if err != nil || len(tb.Chat) != 1 || tb.Chat[0] != line {
		t.Fatalf("the backup's table chat: %+v, %v", tb.Chat, err)
	}
	if err := Backup(ctx, path, to); !errors.Is(err, ErrExists) {
		t.Fatalf("backup over an existing file: %v", err)
	}
	// The store goes on writing.
	if err := db.PutSettings(ctx, "p", `{}`); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(to), ".*tmp*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// TestBackupSaysWhatIsWrong: a missing database or a --to in a directory
// that does not exist, or a missing backup to restore, is told in those words, not as SQLite's error about
// the temporary file.
func TestBackupSaysWhatIsWrong(t *testing.T) {
	ctx := context.Background()
	_, path := openTemp(t)
	dir := t.TempDir()
	to := filepath.Join(dir, "no", "such", "b.db")
	err := Backup(ctx, path, to)
	if err == nil || !strings.Contains(err.Error(), "the directory "+filepath.Join(dir, "no", "such")+" does not exist") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("backup into a missing directory: %v", err)
	}
	missing := filepath.Join(dir, "none.db")
	if err := Backup(ctx, missing, filepath.Join(dir, "b.db")); err == nil || !strings.Contains(err.Error(), "no database at "+missing) {
		t.Errorf("backup of a missing database: %v", err)
	}
	if _, err := Restore(ctx, path, missing); err == nil || !strings.Contains(err.Error(), "no backup at "+missing) {
		t.Errorf("restore from a missing file: %v", err)
	}
	// Each is the caller's bad input, and keeps its cause.
	for _, err := range []error{Backup(ctx, path, to), Backup(ctx, missing, filepath.Join(dir, "b.db"))} {
		if !errors.Is(err, ErrBadPath) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%v: not ErrBadPath and fs.ErrNotExist", err)
		}
	}
	if _, err := Restore(ctx, path, missing); !errors.Is(err, ErrBadPath) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v: not ErrBadPath and fs.ErrNotExist", err)
	}
	// A --to under a regular file: that file is named, not a directory
	// said to be missing.
	afile := filepath.Join(dir, "afile")
	if err := os.WriteFile(afile, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	err = Backup(ctx, path, filepath.Join(afile, "b.db"))
	if err == nil || !strings.Contains(err.Error(), afile+" is a file, not a directory") || !errors.Is(err, ErrBadPath) {
		t.Errorf("backup into a regular file: %v", err)
	}
	err = Backup(ctx, path, filepath.Join(afile, "sub", "b.db"))
	if err == nil || !strings.Contains(err.Error(), "a part of that path is a file") || !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("backup under a regular file: %v", err)
	}
	// A directory this user cannot write in says so. Root ignores
	// permission bits, so as root the directory is made immutable
	// (makeReadOnly: chattr +i, which binds root too); only where that
	// cannot be done (no chattr, a file system without the flag) is the
	// case skipped, saying why. A path under a regular file or in /proc
	// would not do: those fail as "not a directory" or "does not exist",
	// the cases above, not as a directory that refuses new files.
	t.Run("unwritable directory", func(t *testing.T) {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o755); err != nil {
			t.Fatal(err)
		}
		makeReadOnly(t, ro)
		err := Backup(ctx, path, filepath.Join(ro, "b.db"))
		if err == nil || !strings.Contains(err.Error(), "cannot write in the directory "+ro) || !errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "does not exist") {
			t.Errorf("backup into a read-only directory: %v", err)
		}
		if left, _ := os.ReadDir(ro); len(left) != 0 {
			t.Errorf("the refused backup left %d files in %s", len(left), ro)
		}
	})
}

// TestRestoreRefusedForSwappedServer: a restore refused because a server
// whose database file was replaced still has the -shm at the path says
// so, with restore's advice, not serve's; docs/operating.md quotes the
// words as printed.
func TestRestoreRefusedForSwappedServer(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, swapped, backup := filepath.Join(dir, "ct.db"), filepath.Join(dir, "swapped.db"), filepath.Join(dir, "backup.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// No checkpoint of the store's own runs: its pass finds the swap too
	// and lets go of the -shm, so a pass before the restore (a second on
	// a loaded machine) let the restore go ahead.
	db.ckpt.stop()
	fillSaves(t, db, 3)
	copyDB(t, db, swapped)
	copyDB(t, db, backup)
	if err := os.Rename(swapped, path); err != nil {
		t.Fatal(err)
	}
	_, err = Restore(ctx, path, backup)
	want := "restore: " + path + "-shm is in use by a running cardtable server " +
		"(a server whose database file was renamed or replaced still uses the -wal and -shm beside it): stop it first; nothing changed"
	if err == nil || err.Error() != want {
		t.Fatalf("restore beside a swapped server's -shm: %v\nwant %s", err, want)
	}
	if strings.Contains(err.Error(), "another database file") {
		t.Fatalf("restore gives serve's advice: %v", err)
	}
	// docs/operating.md quotes it as printed.
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "operating.md"))
	if err != nil {
		t.Fatal(err)
	}
	quoted := strings.TrimPrefix(want, "restore: "+path)
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "`..."+quoted+"`") {
		t.Errorf("docs/operating.md does not quote %q", quoted)
	}
}

// TestRestore: refused while a store holds the database, and for a file
// that is not a sound cardtable database (nothing changes); otherwise the
// backup is in place, whole, the old database kept aside with its WAL, and
// no WAL of the old database is replayed into it.
func TestRestore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, backup := filepath.Join(dir, "ct.db"), filepath.Join(dir, "backup.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	fillSaves(t, db, 5)
	if err := Backup(ctx, path, backup); err != nil {
		t.Fatal(err)
	}
	fillMore := func() {
		for i := range 7 {
			if err := db.PutSave(ctx, SaveRecord{Player: "p", Name: strings.Repeat("x", i+1), Lineage: "l", Save: "s", Updated: t0}); err != nil {
				t.Fatal(err)
			}
		}
	}
	fillMore()
	want := "restore: " + path + " is in use by a running cardtable server: stop it first; nothing changed"
	if _, err := Restore(ctx, path, backup); !errors.Is(err, errInUse) || err.Error() != want {
		t.Fatalf("restore under an open store: %v\nwant %s", err, want)
	}
	notDB := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDB, []byte(strings.Repeat("not a database\n", 300)), 0o644)
	if _, err := Restore(ctx, path, notDB); !errors.Is(err, ErrBadBackup) {
		t.Fatalf("restore of a text file: %v", err)
	}
	// Kill -9 leaves the newer saves in ct.db-wal only: simulated by
	// copying the files while the store is open.
	crashed := filepath.Join(dir, "crashed")
	os.Mkdir(crashed, 0o755)
	var wal []byte
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(crashed, "ct.db"+suffix), b, 0o644)
		wal = b
	}
	db.Close()
	path = filepath.Join(crashed, "ct.db")
	if _, err := Restore(ctx, path, notDB); err == nil {
		t.Fatal("a text file was restored")
	}
	kept, err := Restore(ctx, path, backup)
	if err != nil {
		t.Fatal(err)
	}
	if n := checkFile(t, path); n != 5 {
		t.Fatalf("restored database has %d saves, want the backup's 5", n)
	}
	if n := checkFile(t, kept); n != 12 {
		t.Fatalf("the old database kept as %s has %d saves, want 12", kept, n)
	}
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("open after restore: %v", err)
	}
	db.Close()
	// A -wal left without its database (deleted by hand) is moved aside,
	// not replayed into the backup.
	gone := filepath.Join(dir, "gone.db")
	if err := os.WriteFile(gone+"-wal", wal, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ctx, gone, backup); err != nil {
		t.Fatal(err)
	}
	if n := checkFile(t, gone); n != 5 {
		t.Fatalf("restored beside a stale -wal: %d saves, want 5", n)
	}
}

// TestCopyRefusalWords: checkCopy's refusal of the user's file and
// copyFailed's of a copy this program made say the same of the file, the
// one "not a usable backup" (ErrBadBackup, SQLite's error kept), the
// other "not usable" with nothing of the chain, for each kind of file.
func TestCopyRefusalWords(t *testing.T) {
	sqliteErr := errors.New("SQLite's error")
	cases := []struct {
		class      fileClass
		user, copy string
	}{
		{fileClass{kind: kindNotSQLite, err: sqliteErr},
			"is not a usable backup: it is not an SQLite database at all",
			"is not usable: it is not an SQLite database at all"},
		{fileClass{kind: kindDamaged, err: sqliteErr},
			"is not a usable backup: it is damaged, cut short or overwritten (SQLite: SQLite's error)",
			"is not usable: it is damaged, cut short or overwritten (SQLite: SQLite's error)"},
		{fileClass{kind: kindUnreadable, err: sqliteErr},
			"is not a usable backup: SQLite cannot read it (SQLite's error)",
			"is not usable: SQLite cannot read it (SQLite's error)"},
		{fileClass{kind: kindNoSchema},
			"is not a usable backup: it is an SQLite database, but not cardtable's (schema version 0)",
			"is not usable: it is an SQLite database, but not cardtable's (schema version 0)"},
		{fileClass{kind: kindNewer, version: 999},
			fmt.Sprintf("is not a usable backup for this cardtable: a newer one made it (schema version 999; this one knows 1 to %d): restore it with that version", Version()),
			fmt.Sprintf("is not usable for this cardtable: a newer one made it (schema version 999; this one knows 1 to %d): restore it with that version", Version())},
	}
	for _, c := range cases {
		err := error(notUsable("x.db", c.class))
		if err.Error() != c.user || !errors.Is(err, ErrBadBackup) || (c.class.err != nil && !errors.Is(err, sqliteErr)) {
			t.Errorf("kind %d: the user's file: %q", c.class.kind, err)
		}
		if got := copyFailed(err); got != c.copy {
			t.Errorf("kind %d: a copy: %q, want %q", c.class.kind, got, c.copy)
		}
	}
}
