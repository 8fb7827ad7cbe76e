package cli

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/storetest"
)

// TestDBCopyTargetCheckedFirst: a copy refused for its target (another
// program's file, a database with rows) leaves its source as it was: a backup (a rollback-journal file) not made a WAL
// database, an older schema not migrated, an empty PostgreSQL not given
// cardtable's tables. The target was checked only once the source had
// been opened, which did all three.
func TestDBCopyTargetCheckedFirst(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good, backup, older := filepath.Join(dir, "good.db"), filepath.Join(dir, "backup.db"), filepath.Join(dir, "older.db")
	fill(t, good)
	if _, errOut, code := run(t, "", "backup", "--db", good, "--to", backup); code != exitOK {
		t.Fatalf("backup: exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, "", "backup", "--db", good, "--to", older); code != exitOK {
		t.Fatalf("backup: exit %d: %s", code, errOut)
	}
	// A database of schema version 9: before the certificate cache.
	sqlExec(t, older, "DROP TABLE acme_cache; PRAGMA user_version = 9")
	other := filepath.Join(dir, "other.db")
	sqlExec(t, other, "CREATE TABLE t(x); INSERT INTO t VALUES ('theirs')")
	full := filepath.Join(dir, "full.db")
	fill(t, full)
	before := dirBytes(t, dir)
	const refused = "cardtable: db copy: the target: " // then other's refusal
	for _, from := range []string{backup, older} {
		for to, want := range map[string]string{
			other: refused + other + " is not a cardtable database",
			full:  "cardtable: db copy: " + full + ": the target database is not empty (table games has rows)",
		} {
			out, errOut, code := run(t, "", "db", "copy", "--from", from, "--to", to)
			if code != exitUsage || !strings.HasPrefix(errOut, want) || out != "" {
				t.Fatalf("from %s to %s: exit %d, %q %q; want exit 2, %q", filepath.Base(from), filepath.Base(to), code, out, errOut, want)
			}
		}
	}
	sameDir(t, before, dirBytes(t, dir))

	pg := pgtest.DB(t)
	for _, to := range []string{other, full} {
		_, errOut, code := run(t, "", "db", "copy", "--from", pg, "--to", to)
		if code != exitUsage {
			t.Fatalf("from an empty PostgreSQL to %s: exit %d, %q; want exit 2", filepath.Base(to), code, errOut)
		}
	}
	conn, err := pgx.Connect(ctx, pg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the empty PostgreSQL source now has %d tables (%v)", n, err)
	}
	// A PostgreSQL source of an older schema (before the certificate
	// cache) is not migrated by a copy refused for its target.
	pgOld := pgtest.DB(t)
	fill(t, pgOld)
	oc, err := pgx.Connect(ctx, pgOld)
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close(ctx)
	oldVersion := pgstore.Version() - 1
	for _, stmt := range []string{`DROP TABLE acme_cache`, fmt.Sprintf(`UPDATE cardtable_schema SET version = %d`, oldVersion)} {
		if _, err := oc.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if _, errOut, code := run(t, "", "db", "copy", "--from", pgOld, "--to", other); code != exitUsage || !strings.HasPrefix(errOut, refused+other) {
		t.Fatalf("from an older PostgreSQL: exit %d, %q; want exit 2, the target refused", code, errOut)
	}
	if err := oc.QueryRow(ctx, `SELECT version FROM cardtable_schema`).Scan(&n); err != nil || n != oldVersion {
		t.Fatalf("the older PostgreSQL source is now at schema version %d (%v), was %d", n, err, oldVersion)
	}
	// With a good target, an empty PostgreSQL source is refused too:
	// nothing to copy.
	fresh := filepath.Join(dir, "fresh.db")
	_, errOut, code := run(t, "", "db", "copy", "--from", pg, "--to", fresh)
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
	dir := t.TempDir()
	good, backup := filepath.Join(dir, "good.db"), filepath.Join(dir, "backup.db")
	fill(t, good)
	if _, errOut, code := run(t, "", "backup", "--db", good, "--to", backup); code != exitOK {
		t.Fatalf("backup: exit %d: %s", code, errOut)
	}
	pg := pgtest.DB(t)
	fill(t, pg)
	before := dirBytes(t, dir)
	_, errOut, code := run(t, "", "db", "copy", "--from", backup, "--to", pg)
	want := "cardtable: db copy: " + pgstore.Redact(pg) + ": the target database is not empty (table games has rows): copy only into a new database; nothing changed\n"
	if code != exitUsage || errOut != want {
		t.Fatalf("exit %d, %q; want exit 2, %q", code, errOut, want)
	}
	sameDir(t, before, dirBytes(t, dir))
}

// TestDBCopyHotJournal: a --from with a hot journal beside it (a write a
// crashed program left half done) is bad input, exit 2, in words saying
// how to roll it back; it read "attempt to write a readonly database
// (776)", exit 1.
func TestDBCopyHotJournal(t *testing.T) {
	ctx := context.Background()
	dir, live := t.TempDir(), t.TempDir()
	path := filepath.Join(live, "hot.db")
	sqlExec(t, path, "CREATE TABLE t(x); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200) INSERT INTO t SELECT randomblob(2000) FROM n")
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=cache_size(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	c, err := w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A write past the page cache spills into the file, its journal
	// beside it: the two copied now are what a crash leaves.
	if _, err := c.ExecContext(ctx, "BEGIN; UPDATE t SET x = randomblob(2000)"); err != nil {
		t.Fatal(err)
	}
	hot := filepath.Join(dir, "hot.db")
	for _, side := range []string{"", "-journal"} {
		b, err := os.ReadFile(path + side)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(hot+side, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before := dirBytes(t, dir)
	_, errOut, code := run(t, "", "db", "copy", "--from", hot, "--to", filepath.Join(dir, "fresh.db"))
	want := "cardtable: db copy: the source: " + hot + " has an unfinished write: its -journal is a write a program left half done"
	if code != exitUsage || !strings.HasPrefix(errOut, want) {
		t.Fatalf("exit %d, %q; want exit 2, %q", code, errOut, want)
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
	ctx := context.Background()
	from := filepath.Join(t.TempDir(), "from.db")
	fill(t, from)
	empty := filepath.Join(t.TempDir(), "empty.db")
	s, err := storetest.Open(ctx, empty)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	dir := t.TempDir()
	v9, current := filepath.Join(dir, "v9.db"), filepath.Join(dir, "current.db")
	for _, to := range []string{v9, current} {
		if _, errOut, code := run(t, "", "backup", "--db", empty, "--to", to); code != exitOK {
			t.Fatalf("backup: exit %d: %s", code, errOut)
		}
		sqlExec(t, to, `INSERT INTO settings (player, json) VALUES ('p', '{}')`)
	}
	sqlExec(t, v9, "DROP TABLE acme_cache; PRAGMA user_version = 9")
	before := dirBytes(t, dir)
	for _, to := range []string{v9, current} {
		out, errOut, code := run(t, "", "db", "copy", "--from", from, "--to", to)
		want := "cardtable: db copy: " + to + ": the target database is not empty (table settings has rows): copy only into a new database; nothing changed\n"
		if code != exitUsage || errOut != want || out != "" {
			t.Fatalf("to %s: exit %d, %q %q; want exit 2, %q", filepath.Base(to), code, out, errOut, want)
		}
	}
	sameDir(t, before, dirBytes(t, dir))
}
