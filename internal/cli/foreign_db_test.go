package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/sqlitetest"
	"cardtable/internal/store"
	"cardtable/internal/storetest"
)

// TestServeBackupDBCopyRefuseForeignSchema: another program's SQLite file
// whose schema version (PRAGMA user_version) happens to be one a cardtable
// database has (3 here), or is 0 with tables of its own, is no cardtable
// database: serve, backup, restore and db copy (either side) refuse it as
// bad input, exit 2, in one sentence, and leave every file byte for byte
// as it was, nothing made beside it. By its version alone it was taken
// for an old cardtable database: backup and restore copied it (exit 0),
// db copy and serve made it a WAL database and tried cardtable's
// migrations on it (exit 1); at 0, serve added cardtable's tables to it.
func TestServeBackupDBCopyRefuseForeignSchema(t *testing.T) {
	// The source of a copy is read beside (its -wal and -shm), so it is
	// kept apart from the files compared.
	good := filepath.Join(t.TempDir(), "good.db")
	fill(t, good)
	dir := t.TempDir()
	v3, v0 := filepath.Join(dir, "theirs3.db"), filepath.Join(dir, "theirs0.db")
	sqlitetest.Exec(t, v3, "CREATE TABLE t(x); INSERT INTO t VALUES ('theirs'); PRAGMA user_version = 3")
	sqlitetest.Exec(t, v0, "CREATE TABLE t(x); INSERT INTO t VALUES ('theirs')")
	fresh, live := filepath.Join(dir, "fresh.db"), filepath.Join(dir, "live.db")
	noSchema := func(cmd, path, end string) string {
		return cmd + ": " + path + " is not a cardtable database: it is an SQLite database with no cardtable schema (schema version 3); " + end
	}
	refusedUntouched(t, dir, []refusal{
		{"backup", []string{"backup", "--db", v3, "--to", fresh}, noSchema("backup", v3, "nothing written")},
		{"restore", []string{"restore", "--db", live, "--from", v3},
			"restore: " + v3 + " is not a usable backup: it is an SQLite database, but not cardtable's (schema version 3); nothing changed"},
		{"db copy from", []string{"db", "copy", "--from", v3, "--to", fresh}, noSchema("db copy: the source", v3, "nothing changed")},
		{"db copy to", []string{"db", "copy", "--from", good, "--to", v3},
			"db copy: the target: " + v3 + " is not a cardtable database: it is an SQLite database with another program's schema (schema version 3): give a new file, or an empty one; nothing changed"},
		{"serve version 3", []string{"serve", "--addr", "127.0.0.1:0", "--db", v3},
			"serve: " + v3 + " is not a cardtable database: it is an SQLite database with another program's schema (schema version 3); nothing changed"},
		{"serve version 0", []string{"serve", "--addr", "127.0.0.1:0", "--db", v0},
			"serve: " + v0 + " is not a cardtable database: it is an SQLite database with another program's schema (schema version 0); nothing changed"},
	})
}

// TestServeRefusesNewerDatabase: a database a newer cardtable migrated
// (a player who went back to an older binary) is refused by serve as bad
// input, exit 2, as backup and db copy refuse it, with what to do, and
// every file left byte for byte as it was. It was exit 1, a failure while
// running, and ended "it was made by a newer cardtable" with no remedy.
func TestServeRefusesNewerDatabase(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	fill(t, newer)
	sqlitetest.Exec(t, newer, fmt.Sprintf("PRAGMA user_version = %d", store.Version()+1))
	refusedUntouched(t, dir, []refusal{
		{"serve", []string{"serve", "--addr", "127.0.0.1:0", "--db", newer},
			fmt.Sprintf("serve: %s: database schema version %d is newer than this program's %d: it was made by a newer cardtable: serve it with that version; nothing changed",
				newer, store.Version()+1, store.Version())},
	})
}

// TestServeRefusesNewerPostgres: TestServeRefusesNewerDatabase on a
// PostgreSQL database a newer cardtable migrated: exit 2 with what to do,
// its schema version and its tables left as they were.
func TestServeRefusesNewerPostgres(t *testing.T) {
	ctx := context.Background()
	pg, conn := newerPostgres(t)
	tables := func() []string {
		rows, err := conn.Query(ctx, `SELECT table_name FROM information_schema.tables
			WHERE table_schema = current_schema() ORDER BY table_name`)
		if err != nil {
			t.Fatal(err)
		}
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return names
	}
	before := tables()
	rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := Run(rctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", pg}, nil, &out, &errb)
	want := fmt.Sprintf(": database schema version 999 is newer than this program's %d: it was made by a newer cardtable: serve it with that version; nothing changed\n", pgstore.Version())
	if code != exitUsage || !strings.HasPrefix(errb.String(), "cardtable: serve: ") || !strings.HasSuffix(errb.String(), want) ||
		strings.Count(errb.String(), "\n") != 1 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and a line ending %q", code, out.String(), errb.String(), want)
	}
	stillNewer(t, conn)
	if after := tables(); !slices.Equal(after, before) {
		t.Fatalf("tables %v, were %v", after, before)
	}
}

// newerPostgres is a PostgreSQL database a newer cardtable migrated
// (schema version 999), and a connection to it for the checks.
func newerPostgres(t *testing.T) (string, *pgx.Conn) {
	ctx := context.Background()
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
	t.Cleanup(func() { conn.Close(ctx) })
	if _, err := conn.Exec(ctx, `UPDATE cardtable_schema SET version = 999`); err != nil {
		t.Fatal(err)
	}
	return pg, conn
}

// stillNewer fails t unless conn's database is at schema version 999
// still: a refusal changed nothing.
func stillNewer(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	var v int
	if err := conn.QueryRow(context.Background(), `SELECT version FROM cardtable_schema`).Scan(&v); err != nil || v != 999 {
		t.Fatalf("the newer database's schema version is now %d (%v)", v, err)
	}
}

// TestForeignGamesTableRefused: another program's SQLite file with a
// table named games (a name any program may use) at a schema version a
// cardtable database has, 3 or this program's own, is no cardtable
// database either: it lacks cardtable's other tables and columns at that
// version. serve, backup, restore and db copy (either side) refuse it as
// the other foreign files, exit 2 in one sentence, every file left byte
// for byte as it was. By its games table alone it was taken for
// cardtable's: serve and db copy made it a WAL database and failed in a
// migration (exit 1, in SQLite's words), backup and restore copied it.
func TestForeignGamesTableRefused(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good.db")
	fill(t, good)
	for _, version := range []int{3, store.Version()} {
		t.Run(fmt.Sprint(version), func(t *testing.T) {
			dir := t.TempDir()
			theirs := filepath.Join(dir, "theirs.db")
			sqlitetest.Exec(t, theirs, fmt.Sprintf("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT); "+
				"INSERT INTO games VALUES (1, 'chess'); PRAGMA user_version = %d", version))
			fresh, live := filepath.Join(dir, "fresh.db"), filepath.Join(dir, "live.db")
			v := fmt.Sprintf("(schema version %d)", version)
			refusedUntouched(t, dir, []refusal{
				{"backup", []string{"backup", "--db", theirs, "--to", fresh},
					"backup: " + theirs + " is not a cardtable database: it is an SQLite database with no cardtable schema " + v + "; nothing written"},
				{"restore", []string{"restore", "--db", live, "--from", theirs},
					"restore: " + theirs + " is not a usable backup: it is an SQLite database, but not cardtable's " + v + "; nothing changed"},
				{"db copy from", []string{"db", "copy", "--from", theirs, "--to", fresh},
					"db copy: the source: " + theirs + " is not a cardtable database: it is an SQLite database with no cardtable schema " + v + "; nothing changed"},
				{"db copy to", []string{"db", "copy", "--from", good, "--to", theirs},
					"db copy: the target: " + theirs + " is not a cardtable database: it is an SQLite database with another program's schema " + v + ": give a new file, or an empty one; nothing changed"},
				{"serve", []string{"serve", "--addr", "127.0.0.1:0", "--db", theirs},
					"serve: " + theirs + " is not a cardtable database: it is an SQLite database with another program's schema " + v + "; nothing changed"},
			})
		})
	}
}

// TestSalvagedDBWithoutVersionRefused: a file holding cardtable's tables
// at schema version 0, as the salvage of a damaged database (docs/api.md,
// "A damaged database") leaves it until its step that sets the version,
// is refused by serve, backup, restore and db copy (either side) as bad
// input, untouched, in words that say so and name that step. It was
// called another program's schema, which sent the user looking for a
// program that was never there.
func TestSalvagedDBWithoutVersionRefused(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good.db")
	fill(t, good)
	dir := t.TempDir()
	salvaged := filepath.Join(dir, "salvaged.db")
	fill(t, salvaged)
	sqlitetest.Exec(t, salvaged, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 0")
	fresh, live := filepath.Join(dir, "fresh.db"), filepath.Join(dir, "live.db")
	what := salvageWords(salvaged, salvaged)
	notCardtable := salvaged + " is not a cardtable database: " + what
	refusedUntouched(t, dir, []refusal{
		{"backup", []string{"backup", "--db", salvaged, "--to", fresh}, "backup: " + notCardtable + "; nothing written"},
		{"restore", []string{"restore", "--db", live, "--from", salvaged}, "restore: " + salvaged + " is not a usable backup: " + what + "; nothing changed"},
		{"db copy from", []string{"db", "copy", "--from", salvaged, "--to", fresh}, "db copy: the source: " + notCardtable + "; nothing changed"},
		{"db copy to", []string{"db", "copy", "--from", good, "--to", salvaged},
			"db copy: the target: " + notCardtable + ": give a new file, or an empty one; nothing changed"},
		{"serve", []string{"serve", "--addr", "127.0.0.1:0", "--db", salvaged}, "serve: " + notCardtable + "; nothing changed"},
	})
}

// salvageWords are the words, after "FILE is not a cardtable database: "
// or "FILE is not a usable backup: ", of a salvage's file at path before
// its version is set, quoted as the shell takes it.
func salvageWords(path, quoted string) string {
	return "it is an unfinished salvage: it holds cardtable's tables but no schema version (PRAGMA user_version is 0), " +
		`as the salvage of a damaged database leaves them until its last step (docs/api.md, "A damaged database"): ` +
		"set the version the damaged file had, sqlite3 " + quoted + ` "PRAGMA user_version = N"`
}

// TestSalvageWordsNeedCardtableTables: at schema version 0, another
// program's file with a table named games (a name any program may use)
// is another program's database, not a salvage of cardtable's: told the
// salvage's step, its owner would run cardtable's migrations on it. A
// salvage in a directory whose name holds a space and a ' is named, in
// the command to paste, quoted as a POSIX shell reads one word.
func TestSalvageWordsNeedCardtableTables(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my dir's")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	sqlitetest.Exec(t, other, "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
	salvaged := filepath.Join(dir, "x.db")
	fill(t, salvaged)
	sqlitetest.Exec(t, salvaged, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 0")
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	for _, tc := range []struct{ db, want string }{
		{other, other + " is not a cardtable database: it is an SQLite database with no cardtable schema (schema version 0); nothing written"},
		{salvaged, salvaged + " is not a cardtable database: " +
			salvageWords(salvaged, "'"+strings.ReplaceAll(salvaged, "'", `'\''`)+"'") + "; nothing written"},
	} {
		out, errOut, code := run(t, "", "backup", "--db", tc.db, "--to", fresh)
		if want := "cardtable: backup: " + tc.want + "\n"; code != exitUsage || errOut != want {
			t.Errorf("backup of %s: exit %d, %s\n%s\nwant exit 2 and\n%s", tc.db, code, out, errOut, want)
		}
	}
}

// TestForeignVirtualTableRefused: another program's SQLite file at
// schema version 3 holding a virtual table of a module cardtable lacks
// (vec0, declared as another program's extension would), named as none
// of cardtable's tables or as its games table, is no cardtable
// database: serve, backup and db copy refuse it, exit 2 in one sentence,
// the file byte for byte as it was. Reading every table's columns met
// SQLite's "no such module": the file was called unreadable, serve made
// it a WAL database and failed in migration words, exit 1, and backup
// and db copy exited 1.
func TestForeignVirtualTableRefused(t *testing.T) {
	for _, name := range []string{"vecs", "games"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			theirs := filepath.Join(dir, "theirs.db")
			sqlitetest.Exec(t, theirs, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'hello'); "+
				"PRAGMA writable_schema = ON; INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql) VALUES "+
				"('table', '"+name+"', '"+name+"', 0, 'CREATE VIRTUAL TABLE "+name+" USING vec0(embedding float[4])'); "+
				"PRAGMA writable_schema = OFF; PRAGMA user_version = 3")
			fresh := filepath.Join(dir, "fresh.db")
			const v = "(schema version 3)"
			refusedUntouched(t, dir, []refusal{
				{"backup", []string{"backup", "--db", theirs, "--to", fresh},
					"backup: " + theirs + " is not a cardtable database: it is an SQLite database with no cardtable schema " + v + "; nothing written"},
				{"db copy from", []string{"db", "copy", "--from", theirs, "--to", fresh},
					"db copy: the source: " + theirs + " is not a cardtable database: it is an SQLite database with no cardtable schema " + v + "; nothing changed"},
				{"serve", []string{"serve", "--addr", "127.0.0.1:0", "--db", theirs},
					"serve: " + theirs + " is not a cardtable database: it is an SQLite database with another program's schema " + v + "; nothing changed"},
			})
		})
	}
}

// refusal is a command refused as bad input, and the line it must print
// after "cardtable: ".
type refusal struct {
	name string
	args []string
	want string
}

// refusedUntouched runs each command, which must exit 2 with its line
// and print nothing else, and then checks that no file in dir changed or
// appeared. Were serve to start, the timeout would end it with 0.
func refusedUntouched(t *testing.T, dir string, cases []refusal) {
	t.Helper()
	before := dirBytes(t, dir)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var out, errb bytes.Buffer
			code := Run(ctx, tc.args, nil, &out, &errb)
			if want := "cardtable: " + tc.want + "\n"; code != exitUsage || errb.String() != want || out.Len() != 0 {
				t.Fatalf("exit %d, stdout %q, stderr\n%s\nwant exit 2 and\n%s", code, out.String(), errb.String(), want)
			}
		})
	}
	sameDir(t, before, dirBytes(t, dir))
}
