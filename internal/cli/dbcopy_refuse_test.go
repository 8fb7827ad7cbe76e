package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"cardtable/internal/sqlitetest"
	"cardtable/internal/storetest"
)

// oneRow makes a cardtable database at path with one row, a player's
// settings.
func oneRow(t *testing.T, path string) {
	t.Helper()
	withStore(t, path, func(ctx context.Context, s storetest.Store) {
		if err := s.PutSettings(ctx, "p", `{"v":1}`); err != nil {
			t.Fatal(err)
		}
	})
}

// TestDBCopyRefusals: a SQLite --from that is no cardtable database
// (another program's, an empty file, one not SQLite, a newer
// cardtable's), and a --to that cannot take the copy (another program's
// database, one not SQLite or a newer cardtable's, a directory, a path
// through a file) are bad input: exit 2, one line saying what the file
// is, and every file left byte for byte as it was, nothing made beside
// them. A --from or --to of another program's once had cardtable's
// schema added to it (exit 0, nothing copied from it); the other --to
// refusals exited 1, a --to with rows
// too. A rollback-journal file with a newer schema version
// was made a WAL database before it was refused; the check of a WAL
// database left an empty -wal and a -shm beside it. An empty --to file is
// a new database, as a path with nothing there is.
func TestDBCopyRefusals(t *testing.T) {
	t.Parallel() // its own files and schema, no hook or environment: alongside the others
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	oneRow(t, good)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.db", nil)
	notes := write("notes.txt", bytes.Repeat([]byte("not a database\n"), 300))
	afile := write("afile", []byte("a file"))
	other, newer := filepath.Join(dir, "other.db"), filepath.Join(dir, "newer.db")
	sqlitetest.Exec(t, other, "CREATE TABLE t(x); INSERT INTO t VALUES ('theirs')")
	emptyStore(t, newer)
	sqlitetest.Exec(t, newer, "PRAGMA user_version = 999")
	// A rollback-journal file with a schema version past this program's:
	// opening it made it a WAL database before its version was read.
	newer50 := filepath.Join(dir, "newer50.db")
	sqlitetest.Exec(t, newer50, "CREATE TABLE t(x); PRAGMA user_version = 50")
	adir := filepath.Join(dir, "adir")
	if err := os.Mkdir(adir, 0o755); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh.db")
	goodBytes, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	full := write("full.db", goodBytes) // a cardtable database with rows
	loop, thru := filepath.Join(dir, "loop"), filepath.Join(dir, "thru")
	if os.Symlink("loop", loop) != nil || os.Symlink(filepath.Join("afile", "x.db"), thru) != nil {
		t.Skip("no symbolic links here")
	}
	before := dirBytes(t, dir)
	for _, tc := range []struct {
		from, to, want string
	}{
		{other, fresh, "cardtable: db copy: the source: " + other + " is not a cardtable database: it is an SQLite database with no cardtable schema (schema version 0); nothing changed\n"},
		{empty, fresh, "cardtable: db copy: the source: " + empty + " is not a cardtable database: it is an empty file; nothing changed\n"},
		{good, other, "cardtable: db copy: the target: " + other + " is not a cardtable database: it is an SQLite database with another program's schema (schema version 0): give a new file, or an empty one; nothing changed\n"},
		{notes, fresh, "cardtable: db copy: the source: " + notes + " is not a cardtable database: it is not an SQLite database at all; nothing changed\n"},
		{good, notes, "cardtable: db copy: the target: " + notes + " is not a cardtable database: it is not an SQLite database at all; nothing changed\n"},
		{good, newer, "cardtable: db copy: the target: " + newer + " was made by a newer cardtable (schema version 999; this one knows 1 to "},
		{newer50, fresh, "cardtable: db copy: the source: " + newer50 + " was made by a newer cardtable (schema version 50; this one knows 1 to "},
		{good, newer50, "cardtable: db copy: the target: " + newer50 + " was made by a newer cardtable (schema version 50; this one knows 1 to "},
		{good, adir, "cardtable: db copy: the target: " + adir + " is a directory, not a database file; nothing changed\n"},
		// A target with rows: the command named once (it was named twice,
		// "db copy: db copy X to Y: ..."), exit 2 (it was 1).
		{good, full, "cardtable: db copy: the target: " + full + ": the target database is not empty (table settings has rows): copy only into a new database; nothing changed\n"},
		// Links in a loop, a link through a file: a raw stat error, exit 1.
		{good, loop, "cardtable: db copy: the target: " + loop + " cannot be a database file: its symbolic links make a loop, or a chain too long to follow (too many levels of symbolic links); nothing changed\n"},
		{good, thru, "cardtable: db copy: the target: " + thru + " cannot be a database file: it is a symbolic link through a file (not a directory); nothing changed\n"},
		{good, filepath.Join(afile, "x.db"), "cardtable: db copy: the target: " + filepath.Join(afile, "x.db") + ": " + afile + " is a file, not a directory; nothing changed\n"},
	} {
		t.Run(filepath.Base(tc.from)+" to "+filepath.Base(tc.to), func(t *testing.T) {
			out, errOut, code := run(t, "", "db", "copy", "--from", tc.from, "--to", tc.to)
			if code != exitUsage || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tc.want)
			}
		})
	}
	sameDir(t, before, dirBytes(t, dir))
	// An empty file is a new database to copy into.
	out, errOut, code := run(t, "", "db", "copy", "--from", good, "--to", empty)
	if code != exitOK || !strings.Contains(out, "checked, the same on both sides") {
		t.Fatalf("copy into an empty file: exit %d: %s%s", code, out, errOut)
	}
	if got, want := sums(t, empty), sums(t, good); !reflect.DeepEqual(got, want) || want[4].Rows != 1 {
		t.Fatalf("the copy into an empty file %+v, source %+v", got, want)
	}
}

// TestDBCopyNewerPostgres: a PostgreSQL database a newer cardtable made is
// bad input as --from and as --to, as a SQLite one is (exit 2), with the
// same advice and "nothing changed"; it exited 1, the PostgreSQL store's
// refusal not telling why.
func TestDBCopyNewerPostgres(t *testing.T) {
	t.Parallel() // its own files and schema, no hook or environment: alongside the others
	dir := t.TempDir()
	good, fresh := filepath.Join(dir, "good.db"), filepath.Join(dir, "fresh.db")
	fill(t, good)
	pg, conn := newerPostgres(t)
	for _, args := range [][]string{{"--from", pg, "--to", fresh}, {"--from", good, "--to", pg}} {
		_, errOut, code := run(t, "", append([]string{"db", "copy"}, args...)...)
		if code != exitUsage || !strings.Contains(errOut, ": database schema version 999 is newer than this program's ") ||
			!strings.HasSuffix(errOut, ": it was made by a newer cardtable: copy it with that version; nothing changed\n") {
			t.Fatalf("db copy %v: exit %d, %q; want exit 2, schema version 999 made by a newer cardtable", args, code, errOut)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("the refused copy made its target")
	}
	stillNewer(t, conn)
}
