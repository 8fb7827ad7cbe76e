package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/storetest"
)

// TestDBCopy: SQLite to PostgreSQL and back gives the same rows, checked
// by the command and again here; a non-empty target is refused and left
// as it was; bad flags are usage errors.
func TestDBCopy(t *testing.T) {
	dir := t.TempDir()
	from, back := filepath.Join(dir, "from.db"), filepath.Join(dir, "back.db")
	fill(t, from)
	pg := pgtest.DB(t)
	for _, c := range [][2]string{{from, pg}, {pg, back}} {
		out, errOut, code := run(t, "", "db", "copy", "--from", c[0], "--to", c[1])
		if code != exitOK || !strings.Contains(out, "checked, the same on both sides") || !strings.Contains(out, "live_table_chat") {
			t.Fatalf("copy %s to %s: exit %d: %s%s", c[0], c[1], code, out, errOut)
		}
	}
	want := sums(t, from)
	if want[0].Rows != 4 || want[len(want)-1].Rows != 4 {
		t.Fatalf("the source's sums: %+v", want)
	}
	if got := sums(t, pg); !reflect.DeepEqual(got, want) {
		t.Fatalf("PostgreSQL copy %+v, source %+v", got, want)
	}
	if got := sums(t, back); !reflect.DeepEqual(got, want) {
		t.Fatalf("copied back %+v, source %+v", got, want)
	}
	// The certificate cache is carried both ways, byte for byte.
	for _, db := range []string{pg, back} {
		acmeCarried(t, db)
	}
	// Onto a database with rows: refused, nothing written.
	_, errOut, code := run(t, "", "db", "copy", "--from", back, "--to", pg)
	if code != exitUsage || errOut != "cardtable: db copy: "+pgstore.Redact(pg)+": the target database is not empty (table games has rows): copy only into a new database; nothing changed\n" {
		t.Fatalf("copy onto a full database: exit %d: %s", code, errOut)
	}
	if got := sums(t, pg); !reflect.DeepEqual(got, want) {
		t.Fatalf("the refused copy wrote: %+v", got)
	}
	for _, args := range [][]string{{"--from", from}, {"--from", from, "--to", from}, {"--to", pg, "x"}} {
		if _, errOut, code := run(t, "", append([]string{"db", "copy"}, args...)...); code != exitUsage {
			t.Fatalf("db copy %v: exit %d: %s", args, code, errOut)
		}
	}
	if _, errOut, code := run(t, "", "db", "copy", "--from", "postgres://nobody@127.0.0.1:1/none?connect_timeout=2", "--to", back); code == exitOK || !strings.Contains(errOut, "the source") {
		t.Fatalf("an unreachable source: exit %d: %s", code, errOut)
	}
}

// TestDBCopyMissingSource: a --from SQLite file that does not exist is
// bad input, and neither it nor the target is created (it was opened as a
// new, empty database and "copied").
func TestDBCopyMissingSource(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "typo.db"), filepath.Join(dir, "new.db")
	_, errOut, code := run(t, "", "db", "copy", "--from", from, "--to", to)
	if code != exitUsage || !strings.Contains(errOut, "no database at "+from) {
		t.Fatalf("exit %d, %q; want exit 2 and no database at %s", code, errOut, from)
	}
	for _, f := range []string{from, to} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was created", f)
		}
	}
}

// TestBackupRefusesPostgres: backup and restore work on the SQLite file;
// given a PostgreSQL URL they say what to use instead.
func TestBackupRefusesPostgres(t *testing.T) {
	url := "postgres://u@127.0.0.1:1/db"
	for _, args := range [][]string{{"backup", "--db", url, "--to", "x.db"}, {"restore", "--db", url, "--from", "x.db"}} {
		_, errOut, code := run(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, args[0]+" of a PostgreSQL database: use pg_") {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
}

// TestDBCopyRefusals: a SQLite --from that is no cardtable database
// (another program's, an empty file, one not SQLite, a newer
// cardtable's), and a --to that cannot take the copy (another program's
// database, one not SQLite or a newer cardtable's, a directory, a path
// through a file) are bad input: exit 2, one line saying what the file
// is, and every file left byte for byte as it was, nothing made beside
// them. A --from or --to of another program's once had cardtable's
// schema added to it (exit 0, nothing copied from it); the other --to
// refusals exited 1, a --to with rows too. A rollback-journal file with
// a newer schema version was made a WAL database before it was refused;
// the check of a WAL database left an empty -wal and a -shm beside it.
// An empty --to file is a new database, as a path with nothing there is.
func TestDBCopyRefusals(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	s, err := storetest.Open(context.Background(), good)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutSettings(context.Background(), "p", `{"v":1}`); err != nil {
		t.Fatal(err)
	}
	s.Close()
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
	sqlExec(t, other, "CREATE TABLE t(x); INSERT INTO t VALUES ('theirs')")
	s, err = storetest.Open(context.Background(), newer)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	sqlExec(t, newer, "PRAGMA user_version = 999")
	// A rollback-journal file with a schema version past this program's:
	// opening it made it a WAL database before its version was read.
	newer50 := filepath.Join(dir, "newer50.db")
	sqlExec(t, newer50, "CREATE TABLE t(x); PRAGMA user_version = 50")
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
	before := dirBytes(t, dir)
	for _, tc := range []struct {
		from, to, want string
	}{
		{other, fresh, "cardtable: db copy: the source: " + other + " is not a cardtable database: it is an SQLite database with no cardtable schema (schema version 0); nothing changed\n"},
		{empty, fresh, "cardtable: db copy: the source: " + empty + " is not a cardtable database: it is an empty file; nothing changed\n"},
		{good, other, "cardtable: db copy: the target: " + other + " is not a cardtable database: it is an SQLite database with another program's schema (schema version 0): give a new file, or an empty one; nothing changed\n"},
		{notes, fresh, "cardtable: db copy: the source: " + notes + " is not a cardtable database: it is not an SQLite database at all (file is not a database (26)); nothing changed\n"},
		{good, notes, "cardtable: db copy: the target: " + notes + " is not a cardtable database: it is not an SQLite database at all (file is not a database (26)); nothing changed\n"},
		{good, newer, "cardtable: db copy: the target: " + newer + " was made by a newer cardtable (schema version 999; this one knows 1 to "},
		{newer50, fresh, "cardtable: db copy: the source: " + newer50 + " was made by a newer cardtable (schema version 50; this one knows 1 to "},
		{good, newer50, "cardtable: db copy: the target: " + newer50 + " was made by a newer cardtable (schema version 50; this one knows 1 to "},
		{good, adir, "cardtable: db copy: the target: " + adir + " is a directory, not a database file; nothing changed\n"},
		// A target with rows: the command's name once, where it was
		// given twice ("db copy: db copy X to Y: ..."), and exit 2, where
		// it was 1.
		{good, full, "cardtable: db copy: " + full + ": the target database is not empty (table settings has rows): copy only into a new database; nothing changed\n"},
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
// bad input as --from and as --to, as a SQLite one is (exit 2); it exited
// 1, the PostgreSQL store's refusal not telling why.
func TestDBCopyNewerPostgres(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good, fresh := filepath.Join(dir, "good.db"), filepath.Join(dir, "fresh.db")
	fill(t, good)
	pg := pgtest.DB(t)
	s, err := storetest.Open(ctx, pg)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	conn, err := pgx.Connect(ctx, pg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE cardtable_schema SET version = 999`); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--from", pg, "--to", fresh}, {"--from", good, "--to", pg}} {
		_, errOut, code := run(t, "", append([]string{"db", "copy"}, args...)...)
		if code != exitUsage || !strings.Contains(errOut, ": database schema version 999 is newer than this program's ") ||
			!strings.HasSuffix(errOut, ": it was made by a newer cardtable\n") {
			t.Fatalf("db copy %v: exit %d, %q; want exit 2, schema version 999 made by a newer cardtable", args, code, errOut)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("the refused copy made its target")
	}
	var v int
	if err := conn.QueryRow(ctx, `SELECT version FROM cardtable_schema`).Scan(&v); err != nil || v != 999 {
		t.Fatalf("the newer database's schema version is now %d (%v)", v, err)
	}
}
