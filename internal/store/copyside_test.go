package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"cardtable/internal/dbcopy"

	"cardtable/internal/sqlitetest"
)

// files is every file in dir by name, with its content.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// sameFiles fails unless dir holds the files of before, byte for byte,
// and no other.
func sameFiles(t *testing.T, dir string, before map[string][]byte) {
	t.Helper()
	after := files(t, dir)
	names := func(m map[string][]byte) []string {
		var n []string
		for k := range m {
			n = append(n, k)
		}
		sort.Strings(n)
		return n
	}
	if !reflect.DeepEqual(names(after), names(before)) {
		t.Fatalf("files now %v, were %v", names(after), names(before))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed", name)
		}
	}
}

// TestOpenNewerUntouched: a rollback-journal file whose schema version
// is past this program's (a newer cardtable's, or another program's) is
// refused by Open byte for byte as it was, nothing made beside it. Open
// made it a WAL database (its header rewritten) before reading the
// version.
func TestOpenNewerUntouched(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "newer.db")
	sqlitetest.Exec(t, path, "CREATE TABLE t(x); INSERT INTO t VALUES (1); PRAGMA user_version = 50")
	before := files(t, dir)
	db, err := Open(context.Background(), path)
	if err == nil {
		db.Close()
		t.Fatal("opened")
	}
	if !errors.Is(err, ErrNewer) || !strings.Contains(err.Error(), "database schema version 50 is newer than this program's") {
		t.Fatalf("Open: %v; want ErrNewer, schema version 50", err)
	}
	sameFiles(t, dir, before)
}

// damagedCopy makes at path a rollback-journal copy of the database
// good (as a backup is) with the root page of its table acme_cache (a
// WITHOUT ROWID table, whose damage makes the check fail rather than list
// a problem) overwritten: damage the quick check alone finds, which Open
// would find only once it had made the file a WAL database.
func damagedCopy(t *testing.T, good, path string) {
	t.Helper()
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	sqlitetest.Exec(t, path, "PRAGMA journal_mode = DELETE")
	if b, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	if b[18] != 1 || b[19] != 1 {
		t.Fatalf("the damaged file's header says WAL (%d %d)", b[18], b[19])
	}
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var root, size int
	err = conn.QueryRow(`SELECT rootpage FROM sqlite_schema WHERE name = 'acme_cache'`).Scan(&root)
	if err == nil {
		err = conn.QueryRow(`PRAGMA page_size`).Scan(&size)
	}
	if err = errors.Join(err, conn.Close()); err != nil {
		t.Fatal(err)
	}
	for i := (root - 1) * size; i < root*size; i++ {
		b[i] = 0x5a
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestCheckCopyUntouched: a cardtable database with rows is refused as a
// target, one without passes; the files db copy refuses on either side
// because Open would change them first (not SQLite, damaged past the
// first page, a newer schema in a rollback-journal file) are refused by
// the checks, in Backup's words; and no check, passing or not, leaves
// anything beside a WAL database (a read-only connection made its -wal
// and -shm, and left them).
func TestCheckCopyUntouched(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	db, err := Open(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutSettings(ctx, "p", "{}"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	blank := filepath.Join(dir, "blank.db")
	if db, err = Open(ctx, blank); err != nil {
		t.Fatal(err)
	}
	db.Close()
	newer := filepath.Join(dir, "newer.db")
	sqlitetest.Exec(t, newer, "CREATE TABLE t(x); PRAGMA user_version = 50")
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, bytes.Repeat([]byte("not a database\n"), 300), 0o600); err != nil {
		t.Fatal(err)
	}
	damagedDB := filepath.Join(dir, "damaged.db")
	damagedCopy(t, good, damagedDB)
	before := files(t, dir)
	if len(before) != 5 {
		t.Fatalf("files to check: %d", len(before))
	}
	if err := CheckCopySource(ctx, good); err != nil {
		t.Errorf("source good: %v", err)
	}
	// A cardtable database with rows is no target (Copy's refusal,
	// made before the source is opened); one without is.
	if err := CheckCopyTarget(ctx, good); !errors.Is(err, dbcopy.ErrNotEmpty) ||
		err.Error() != good+": the target database is not empty (table settings has rows): copy only into a new database; nothing changed" {
		t.Errorf("target good: %v; want ErrNotEmpty", err)
	}
	if err := CheckCopyTarget(ctx, blank); err != nil {
		t.Errorf("target blank: %v", err)
	}
	for _, tc := range []struct {
		path, want string
		is         error
	}{
		{notes, notes + " is not a cardtable database: it is not an SQLite database at all; nothing changed", ErrNotCardtable},
		{damagedDB, damagedDB + " is damaged, cut short or overwritten (SQLite: ", ErrCorrupt},
		{newer, newer + " was made by a newer cardtable (schema version 50; this one knows 1 to ", ErrNewer},
	} {
		for side, check := range map[string]func(context.Context, string) error{"source": CheckCopySource, "target": CheckCopyTarget} {
			err, want, is := check(ctx, tc.path), tc.want, tc.is
			if side == "target" && tc.path == damagedDB {
				// Its rows, still read, refuse it first: a target
				// with rows is no target, damaged or not. Kept local:
				// the source side of the same case wants tc's answer.
				want, is = damagedDB+": the target database is not empty (table settings has rows)", dbcopy.ErrNotEmpty
			}
			if !errors.Is(err, is) || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "; nothing changed") {
				t.Errorf("%s %s: %v; want %q", side, filepath.Base(tc.path), err, want)
			}
		}
	}
	sameFiles(t, dir, before)
}

// TestOpenCopyTarget: a target with nothing at its path is made the
// owner's alone, exclusively: a file another program makes there
// between the check and the open is refused, left as it was. An empty
// file given is made the owner's alone too.
func TestOpenCopyTarget(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// A new file in a directory that is missing is refused, nothing
	// made; in one that exists it is made.
	if _, err := OpenCopyTarget(ctx, filepath.Join(dir, "sub", "fresh.db")); !errors.Is(err, ErrBadPath) ||
		!strings.Contains(err.Error(), "the directory "+filepath.Join(dir, "sub")+" does not exist: create it first") {
		t.Errorf("a target in a missing directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a target in a missing directory made it: %v", err)
	}
	fresh := filepath.Join(dir, "fresh.db")
	db, err := OpenCopyTarget(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(empty, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err = OpenCopyTarget(ctx, empty)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, p := range []string{fresh, empty} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v; want mode 0600", p, fi.Mode(), err)
		}
	}

	late := filepath.Join(dir, "late.db")
	copyTargetHook = func() { sqlitetest.Exec(t, late, "CREATE TABLE theirs(x); INSERT INTO theirs VALUES ('mine')") }
	defer func() { copyTargetHook = nil }()
	before := files(t, dir)
	db, err = OpenCopyTarget(ctx, late)
	copyTargetHook = nil
	if err == nil {
		db.Close()
		t.Fatal("the target made meanwhile was opened")
	}
	if !errors.Is(err, ErrExists) || !strings.HasPrefix(err.Error(), late+" already exists: another program made it") {
		t.Fatalf("OpenCopyTarget: %v; want ErrExists", err)
	}
	if now := files(t, dir); len(now) != len(before)+1 {
		t.Fatalf("files now %d, were %d: more than the other program's file", len(now), len(before))
	}
	// The other program's file as it made it.
	var x string
	check, err := sql.Open("sqlite", "file:"+late+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	if err := check.QueryRow("SELECT x FROM theirs").Scan(&x); err != nil || x != "mine" {
		t.Fatalf("the other program's row: %q %v", x, err)
	}
	var v int
	if err := check.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != 0 {
		t.Fatalf("its schema version %d (%v): cardtable's schema was added", v, err)
	}
}

// TestOpenCopyTargetLink: a symbolic link to a file not there yet is
// followed: the file is made at the link's target, and the copy goes
// there. O_EXCL refused the link itself, saying another program had
// made the file.
func TestOpenCopyTargetLink(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	link := filepath.Join(dir, "link.db")
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("data", "real.db"), link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := CheckCopyTarget(ctx, link); err != nil {
		t.Fatal(err)
	}
	db, err := OpenCopyTarget(ctx, link)
	if err != nil {
		t.Fatalf("OpenCopyTarget through a link: %v", err)
	}
	if err := db.PutSettings(ctx, "p", "{}"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link: %v %v", fi, err)
	}
	fi, err := os.Stat(filepath.Join(dir, "data", "real.db"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the link's target: %v %v; want a file of mode 0600", fi, err)
	}
}

// TestCheckCopyHotJournal: a file with a hot journal beside it (a write
// left half done) is refused in words saying so and what to do, both
// as a source and as a target, and left as it was.
func TestCheckCopyHotJournal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	hot := sqlitetest.HotFile(t, dir)
	before := files(t, dir)
	for side, check := range map[string]func(context.Context, string) error{"source": CheckCopySource, "target": CheckCopyTarget} {
		err := check(ctx, hot)
		want := hot + " has an unfinished write: its -journal is a write a program left half done"
		if !errors.Is(err, ErrUnfinished) || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "then copy it; nothing changed") {
			t.Errorf("%s: %v; want %q", side, err, want)
		}
	}
	sameFiles(t, dir, before)
}

// TestBackupHotJournal: Backup refuses a database with a hot journal
// in db copy's words (ErrUnfinished), writing nothing; it said
// "reading FILE: attempt to write a readonly database (776)".
func TestBackupHotJournal(t *testing.T) {
	dir := t.TempDir()
	hot := sqlitetest.HotFile(t, dir)
	before := files(t, dir)
	err := Backup(context.Background(), hot, filepath.Join(dir, "backup.db"))
	want := "backup: " + hot + " has an unfinished write: its -journal is a write a program left half done"
	if !errors.Is(err, ErrUnfinished) || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "then back it up; nothing written") {
		t.Fatalf("Backup: %v; want ErrUnfinished, %q", err, want)
	}
	sameFiles(t, dir, before)
}
