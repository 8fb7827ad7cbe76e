package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/dbcopy"
	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

// fill stores rows in every table of the database at db.
func fill(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	s, err := storetest.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"b", "a", "Ä", "c"} {
		g := spidergame.Game{ID: id, Player: "p" + id, Lineage: id, Save: "save " + id, Created: t0, Updated: t0,
			Summary: spidergame.Summary{Variant: "spider", Suits: 2, Deal: 1<<63 + uint64(i)}}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateGame(ctx, spidergame.Change{ID: id, Player: g.Player, Version: 1, Cmd: "deal", Updated: t0},
			spidergame.Result{Lineage: id, Variant: "spider", Suits: 2, Won: i%2 == 0, At: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSave(ctx, spidergame.Save{Player: g.Player, Name: "n " + id, Lineage: id, Save: "s", Updated: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSettings(ctx, g.Player, `{"v":"`+id+`"}`); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateTable(ctx, table.Stored{ID: "t" + id, Config: "{}", Seed: 1 << 63, Seats: []table.StoredSeat{{Player: "x", Name: "X"}},
			Created: t0, Updated: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendAction(ctx, "t"+id, 0, table.StoredMove{Seat: 0, Action: "lead 7H"}); err != nil {
			t.Fatal(err)
		}
		line := table.ChatLine{N: 1, Seat: i - 1, Name: "Ñame " + id, Text: "hi ♠ " + id, At: t0.Add(time.Duration(i) * time.Millisecond)}
		if err := s.AppendChat(ctx, "t"+id, line, table.ChatHistory); err != nil {
			t.Fatal(err)
		}
		r := table.Rating{Key: "p:" + id, Name: id, Bot: i%2 == 0, Mu: 25 + float64(i)/3, Sigma: 8.0 / 7, Games: i + 1}
		if err := s.FinishRated(ctx, "t"+id, t0, table.RatedEnd{Keys: []string{r.Key},
			Update: func([]table.Rating) ([]table.Rating, error) { return []table.Rating{r}, nil }}); err != nil {
			t.Fatal(err)
		}
		// A certificate cache entry: binary data, keys in byte order.
		if err := s.ACMEPut(ctx, id+".example+rsa", []byte{0, byte(i), 0xff, '\n'}); err != nil {
			t.Fatal(err)
		}
	}
}

// acmeCarried: db holds the certificate cache entries fill stored.
func acmeCarried(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	s, err := storetest.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, id := range []string{"b", "a", "Ä", "c"} {
		data, found, err := s.ACMEGet(ctx, id+".example+rsa")
		if err != nil || !found || !bytes.Equal(data, []byte{0, byte(i), 0xff, '\n'}) {
			t.Fatalf("%s: the certificate cache's entry %s: %q %v %v", db, id, data, found, err)
		}
	}
}

func sums(t *testing.T, db string) []dbcopy.Sum {
	t.Helper()
	s, err := storetest.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, err := dbcopy.Sums(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

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

// sqlExec runs statements on the SQLite file at path, with no store.
func sqlExec(t *testing.T, path, stmts string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmts); err != nil {
		t.Fatal(err)
	}
}

// dirBytes is every file under dir by its path, with its content; a
// -shm's content is left out (nil): SQLite's shared index of a WAL
// database, which any reader writes in, the source's readers too.
func dirBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(path, "-shm") {
			files[path] = nil
			return nil
		}
		b, err := os.ReadFile(path)
		files[path] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameDir fails unless after (dirBytes) names the files of before and
// no other, each with its content (a -shm's aside): a file made beside
// them counts, an empty one too.
func sameDir(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	for name, b := range after {
		was, ok := before[name]
		switch {
		case !ok:
			t.Errorf("%s appeared (%d bytes)", name, len(b))
		case !bytes.Equal(b, was):
			t.Errorf("%s changed (%d bytes, was %d)", name, len(b), len(was))
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			t.Errorf("%s went away", name)
		}
	}
}

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
