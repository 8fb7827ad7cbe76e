package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"

	"cardtable/internal/sqlitetest"
)

// backups makes, in dir, good.db with rows and two backups of it:
// backup.db (a rollback-journal file, as every backup is) and older.db,
// brought back to schema version 9, before the certificate cache and
// the players' record.
func backups(t *testing.T, dir string) (backup, older string) {
	t.Helper()
	good := filepath.Join(dir, "good.db")
	backup, older = filepath.Join(dir, "backup.db"), filepath.Join(dir, "older.db")
	fill(t, good)
	for _, to := range []string{backup, older} {
		if _, errOut, code := run(t, "", "backup", "--db", good, "--to", to); code != exitOK {
			t.Fatalf("backup: exit %d: %s", code, errOut)
		}
	}
	sqlitetest.Exec(t, older, "DROP TABLE acme_cache; DROP TABLE players; PRAGMA user_version = 9")
	return backup, older
}

// TestDBCopyTargetCheckedFirst: a copy refused for its target (another
// program's file, a database with rows, a directory that cannot be
// made) leaves its source as it was: a backup (a rollback-journal file)
// not made a WAL database, an older schema not migrated. The target was
// checked only once the source had been opened, which did both; a
// directory that could not be made was found only by the open.
func TestDBCopyTargetCheckedFirst(t *testing.T) {
	t.Parallel() // its own files and schema, no hook or environment: alongside the others
	dir := t.TempDir()
	backup, older := backups(t, dir)
	other := filepath.Join(dir, "other.db")
	sqlitetest.Exec(t, other, "CREATE TABLE t(x); INSERT INTO t VALUES ('theirs')")
	full := filepath.Join(dir, "full.db")
	fill(t, full)
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("nowhere", dangling); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	before := dirBytes(t, dir)
	const refused = "cardtable: db copy: the target: " // then other's refusal
	for _, from := range []string{backup, older} {
		for to, want := range map[string]string{
			other:                              refused + other + " is not a cardtable database",
			full:                               refused + full + ": the target database is not empty (table games has rows)",
			filepath.Join(dangling, "x.db"):    refused + filepath.Join(dangling, "x.db") + ": the directory " + dangling + " is a symbolic link to nothing there",
			filepath.Join("/proc/1/nope/x.db"): refused + "/proc/1/nope/x.db: the directory /proc/1/nope does not exist: create it first",
		} {
			out, errOut, code := run(t, "", "db", "copy", "--from", from, "--to", to)
			if code != exitUsage || !strings.HasPrefix(errOut, want) || !strings.HasSuffix(errOut, "; nothing changed\n") || out != "" {
				t.Fatalf("from %s to %s: exit %d, %q %q; want exit 2, %q", filepath.Base(from), to, code, out, errOut, want)
			}
		}
	}
	sameDir(t, before, dirBytes(t, dir))
}

// TestDBCopyPostgresSourceFirst: a PostgreSQL source of an older schema
// (before the certificate cache) is not migrated by a copy refused for
// its target; an empty PostgreSQL source is refused: nothing to copy.
func TestDBCopyPostgresSourceFirst(t *testing.T) {
	t.Parallel() // its own files and schema, no hook or environment: alongside the others
	ctx := context.Background()
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	sqlitetest.Exec(t, other, "CREATE TABLE t(x); INSERT INTO t VALUES ('theirs')")
	before := dirBytes(t, dir)
	pgOld := pgtest.DB(t)
	fill(t, pgOld)
	oc, err := pgx.Connect(ctx, pgOld)
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close(ctx)
	oldVersion := pgstore.Version() - 1
	for _, stmt := range []string{`DROP TABLE players`, fmt.Sprintf(`UPDATE cardtable_schema SET version = %d`, oldVersion)} {
		if _, err := oc.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if _, errOut, code := run(t, "", "db", "copy", "--from", pgOld, "--to", other); code != exitUsage || !strings.HasPrefix(errOut, "cardtable: db copy: the target: "+other) {
		t.Fatalf("from an older PostgreSQL: exit %d, %q; want exit 2, the target refused", code, errOut)
	}
	var n int
	if err := oc.QueryRow(ctx, `SELECT version FROM cardtable_schema`).Scan(&n); err != nil || n != oldVersion {
		t.Fatalf("the older PostgreSQL source is now at schema version %d (%v), was %d", n, err, oldVersion)
	}
	fresh := filepath.Join(dir, "fresh.db")
	_, errOut, code := run(t, "", "db", "copy", "--from", pgtest.DB(t), "--to", fresh)
	if code != exitUsage || !strings.HasSuffix(errOut, ": holds no cardtable schema: nothing to copy; nothing changed\n") {
		t.Fatalf("from an empty PostgreSQL: exit %d, %q; want exit 2, no cardtable schema", code, errOut)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("the refused copy made its target")
	}
	sameDir(t, before, dirBytes(t, dir))
}

// TestDBCopyFullPostgresTarget: a PostgreSQL target with rows is refused
// before the source is opened (the source, a backup, left as it was).
func TestDBCopyFullPostgresTarget(t *testing.T) {
	t.Parallel() // its own files and schema, no hook or environment: alongside the others
	dir := t.TempDir()
	backup, _ := backups(t, dir)
	pg := pgtest.DB(t)
	fill(t, pg)
	before := dirBytes(t, dir)
	_, errOut, code := run(t, "", "db", "copy", "--from", backup, "--to", pg)
	want := "cardtable: db copy: the target: " + pgstore.Redact(pg) + ": the target database is not empty (table games has rows): copy only into a new database; nothing changed\n"
	if code != exitUsage || errOut != want {
		t.Fatalf("exit %d, %q; want exit 2, %q", code, errOut, want)
	}
	sameDir(t, before, dirBytes(t, dir))
}

// TestDBCopyForeignPostgresTarget: a PostgreSQL target holding another
// program's tables, and no cardtable schema, is refused as a SQLite
// file of another program's is, read-only: exit 2, nothing added to it,
// the source (a backup) left as it was. It passed, and was given
// cardtable's tables beside its own.
func TestDBCopyForeignPostgresTarget(t *testing.T) {
	t.Parallel() // its own files and schema, no hook or environment: alongside the others
	ctx := context.Background()
	dir := t.TempDir()
	backup, _ := backups(t, dir)
	pg := pgtest.DB(t)
	conn, err := pgx.Connect(ctx, pg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE TABLE invoices (id int); INSERT INTO invoices VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	before := dirBytes(t, dir)
	_, errOut, code := run(t, "", "db", "copy", "--from", backup, "--to", pg)
	want := "cardtable: db copy: the target: " + pgstore.Redact(pg) + ": holds no cardtable schema but another program's tables (invoices among them): give a new database, or an empty one; nothing changed\n"
	if code != exitUsage || errOut != want {
		t.Fatalf("exit %d, %q; want exit 2, %q", code, errOut, want)
	}
	var tables []string
	rows, err := conn.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	if tables, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil || strings.Join(tables, " ") != "invoices" {
		t.Fatalf("the target's tables now %v (%v); want invoices alone", tables, err)
	}
	sameDir(t, before, dirBytes(t, dir))
}

// TestDBCopyTargetFilledMeanwhile: a target that gains rows between its
// check and its open (after the source's) is refused as one with rows
// from the start is: exit 2, saying nothing changed. It exited 1,
// without.
func TestDBCopyTargetFilledMeanwhile(t *testing.T) {
	dir := t.TempDir()
	good, to := filepath.Join(dir, "good.db"), filepath.Join(dir, "to.db")
	oneRow(t, good)
	emptyStore(t, to)
	dbCopySourceOpened = func() { oneRow(t, to) }
	defer func() { dbCopySourceOpened = nil }()
	_, errOut, code := run(t, "", "db", "copy", "--from", good, "--to", to)
	want := "cardtable: db copy: the target: " + to + ": the target database is not empty (table settings has rows): copy only into a new database; nothing changed\n"
	if code != exitUsage || errOut != want {
		t.Fatalf("exit %d, %q; want exit 2, %q", code, errOut, want)
	}
}

// TestDBCopyHotJournal: a --from with a hot journal beside it (a write a
// crashed program left half done) is bad input, exit 2, in words saying
// how to roll it back, to db copy and to backup alike; each read
// "attempt to write a readonly database (776)", exit 1.
func TestDBCopyHotJournal(t *testing.T) {
	t.Parallel() // its own files and schema, no hook or environment: alongside the others
	dir := t.TempDir()
	hot := sqlitetest.HotFile(t, dir)
	before := dirBytes(t, dir)
	for _, args := range [][]string{
		{"db", "copy", "--from", hot, "--to", filepath.Join(dir, "fresh.db")},
		{"backup", "--db", hot, "--to", filepath.Join(dir, "backup.db")},
	} {
		_, errOut, code := run(t, "", args...)
		want := "cardtable: db copy: the source: " + hot + " has an unfinished write: its -journal is a write a program left half done"
		if args[0] == "backup" {
			want = "cardtable: backup: " + hot + " has an unfinished write: its -journal is a write a program left half done"
		}
		if code != exitUsage || !strings.HasPrefix(errOut, want) {
			t.Fatalf("%s: exit %d, %q; want exit 2, %q", args[0], code, errOut, want)
		}
	}
	sameDir(t, before, dirBytes(t, dir))
}

// TestDBCopyTargetWithSettingsUntouched: a --to whose only row is a
// page's settings is a database with rows, at schema version 9 (before
// the certificate cache: Open would migrate it) as at this program's in
// rollback-journal mode (a backup: Open would make it a WAL database).
// db copy refuses either before opening it, and it stays byte for byte
// as it was, nothing made beside it, as "nothing changed" says.
func TestDBCopyTargetWithSettingsUntouched(t *testing.T) {
	t.Parallel() // its own files and schema, no hook or environment: alongside the others
	from := filepath.Join(t.TempDir(), "from.db")
	fill(t, from)
	empty := filepath.Join(t.TempDir(), "empty.db")
	emptyStore(t, empty)
	dir := t.TempDir()
	v9, current := filepath.Join(dir, "v9.db"), filepath.Join(dir, "current.db")
	for _, to := range []string{v9, current} {
		if _, errOut, code := run(t, "", "backup", "--db", empty, "--to", to); code != exitOK {
			t.Fatalf("backup: exit %d: %s", code, errOut)
		}
		sqlitetest.Exec(t, to, `INSERT INTO settings (player, json) VALUES ('p', '{}')`)
	}
	sqlitetest.Exec(t, v9, "DROP TABLE acme_cache; DROP TABLE players; PRAGMA user_version = 9")
	before := dirBytes(t, dir)
	for _, to := range []string{v9, current} {
		out, errOut, code := run(t, "", "db", "copy", "--from", from, "--to", to)
		want := "cardtable: db copy: the target: " + to + ": the target database is not empty (table settings has rows): copy only into a new database; nothing changed\n"
		if code != exitUsage || errOut != want || out != "" {
			t.Fatalf("to %s: exit %d, %q %q; want exit 2, %q", filepath.Base(to), code, out, errOut, want)
		}
	}
	sameDir(t, before, dirBytes(t, dir))
}
