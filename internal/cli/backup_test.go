package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardtable/internal/store"
)

func TestBackupRestoreBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"backup"},
		{"backup", "--db", "x.db"},
		{"backup", "--to", "b.db", "extra"},
		{"backup", "--nope"},
		{"restore"},
		{"restore", "--db", "x.db"},
		{"restore", "--from"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errb bytes.Buffer
			if code := Run(context.Background(), args, nil, io.Discard, &errb); code != exitUsage {
				t.Fatalf("exit %d, stderr %q", code, errb.String())
			}
		})
	}
}

// TestBackupRestoreBadFiles: a file named by a flag that is not there, or
// --to in no directory, is bad input (exit 2), as for db copy --from, told
// in one sentence without Go's words about the file.
func TestBackupRestoreBadFiles(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "ct.db")
	if code := Run(context.Background(), []string{"db", "copy", "--from", live, "--to", filepath.Join(dir, "x.db")}, nil, io.Discard, io.Discard); code != exitUsage {
		t.Fatalf("db copy --from a missing file: exit %d, want 2", code)
	}
	s, err := store.Open(context.Background(), live)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	afile := filepath.Join(dir, "afile")
	if err := os.WriteFile(afile, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"backup", "--db", filepath.Join(dir, "missing.db"), "--to", filepath.Join(dir, "b.db")}, "no database at " + filepath.Join(dir, "missing.db") + " (give the server's with --db)\n"},
		{[]string{"backup", "--db", dir, "--to", filepath.Join(dir, "b.db")}, "not a regular file"},
		{[]string{"backup", "--db", live, "--to", filepath.Join(dir, "no", "b.db")}, "does not exist: create it first"},
		{[]string{"backup", "--db", live, "--to", filepath.Join(afile, "b.db")}, afile + " is a file, not a directory"},
		{[]string{"restore", "--db", live, "--from", filepath.Join(dir, "missing.db")}, "no backup at"},
		{[]string{"restore", "--db", live, "--from", dir}, "not a regular file"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var errb bytes.Buffer
			code := Run(context.Background(), tc.args, nil, io.Discard, &errb)
			if code != exitUsage || !strings.HasPrefix(errb.String(), "cardtable: "+tc.args[0]) || !strings.Contains(errb.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, errb.String(), tc.want)
			}
			// Said once, in words: not Go's "stat FILE: no such file or directory".
			if msg := errb.String(); strings.Contains(msg, "stat ") || strings.Contains(msg, "no such file or directory") {
				t.Fatalf("stderr %q tells Go's words", msg)
			}
		})
	}
}

// TestBackupRestore: a backup of a running server's database holds its
// games; restore is refused while that server runs and works once it is
// gone (killed here, its last moves only in the WAL): the restored
// database is the backup, and the replaced one is kept aside whole.
func TestBackupRestore(t *testing.T) {
	dir := t.TempDir()
	path, backup := filepath.Join(dir, "ct.db"), filepath.Join(dir, "backup.db")
	c := startChild(t, path)
	for i := range 3 {
		if _, err := post(t, c.url+"api/games", fmt.Sprintf(`{"deal":"%d"}`, i+1), http.StatusCreated); err != nil {
			t.Fatal(err)
		}
	}
	run := func(want int, wantText string, args ...string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, nil, &out, &errb)
		if code != want || !strings.Contains(out.String()+errb.String(), wantText) {
			t.Fatalf("%v: exit %d, out %q, err %q", args, code, out.String(), errb.String())
		}
	}
	run(exitOK, "integrity check: ok", "backup", "--db", path, "--to", backup)
	run(exitUsage, "already exists", "backup", "--db", path, "--to", backup)
	run(exitFail, "in use by a running cardtable server: stop it first", "restore", "--db", path, "--from", backup)
	if _, err := post(t, c.url+"api/games", `{"deal":"9"}`, http.StatusCreated); err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-c.done
	run(exitOK, "kept as "+path+".replaced-", "restore", "--db", path, "--from", backup)
	if n := countRows(t, path, "games"); n != 3 {
		t.Fatalf("restored database has %d games, want the backup's 3", n)
	}
	kept, _ := filepath.Glob(path + ".replaced-*[0-9]Z")
	if len(kept) != 1 || countRows(t, kept[0], "games") != 4 {
		t.Fatalf("the replaced database was not kept whole: %v", kept)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Fatal("the old WAL is still beside the restored database")
	}
}

// countRows counts table's rows in the database at path (its WAL
// included), read-only.
func countRows(tb testing.TB, path, table string) int {
	tb.Helper()
	db, err := sqlOpenRO(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// TestBackupRestoreRefusals: a backup's --to that exists, and a restore's
// --from that is not a usable backup (not SQLite, cut short, another
// program's database, a newer cardtable's), are bad input the user can
// fix: exit 2, one sentence naming the file and what it is, and nothing
// touched: not the existing file, not the live database, no file left
// beside them. They once exited 1 with SQLite's words ("file is not a
// database (26)").
func TestBackupRestoreRefusals(t *testing.T) {
	dir := t.TempDir()
	live, backup := filepath.Join(dir, "live.db"), filepath.Join(dir, "b.db")
	db, err := store.Open(context.Background(), live)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, _, code := run(t, "", "backup", "--db", live, "--to", backup); code != exitOK {
		t.Fatalf("backup: exit %d", code)
	}
	whole, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	bad := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notes := bad("notes.txt", bytes.Repeat([]byte("not a database\n"), 300))
	cut := bad("cut.db", whole[:len(whole)/2])
	// Every page past the first (4 KiB, the schema's) garbled: the
	// schema version reads, the tables do not.
	garbled := append(bytes.Clone(whole[:4096]), bytes.Repeat([]byte{0xA5}, len(whole)-4096)...)
	damaged := bad("damaged.db", garbled)
	other := filepath.Join(dir, "other.db")
	newer := filepath.Join(dir, "newer.db")
	for _, tc := range []struct{ path, sql string }{{other, "CREATE TABLE t(x)"}, {newer, "PRAGMA user_version = 999"}} {
		odb, err := sql.Open("sqlite", "file:"+tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := odb.Exec(tc.sql); err != nil {
			t.Fatal(err)
		}
		odb.Close()
	}
	existing := bad("existing.db", []byte("keep me"))
	fresh := filepath.Join(dir, "fresh.db")
	adir := filepath.Join(dir, "adir")
	if err := os.Mkdir(adir, 0o755); err != nil {
		t.Fatal(err)
	}
	afile := bad("afile", []byte("a file"))
	liveBefore, err := os.ReadFile(live)
	if err != nil {
		t.Fatal(err)
	}
	listBefore := dirList(t, dir)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"backup", "--db", live, "--to", existing}, "cardtable: backup: " + existing + " already exists: give a new file name (an existing file is never overwritten)\n"},
		{[]string{"restore", "--db", live, "--from", notes}, "cardtable: restore: " + notes + " is not a usable backup: it is not an SQLite database at all"},
		{[]string{"restore", "--db", live, "--from", cut}, "cardtable: restore: " + cut + " is not a usable backup: it is damaged, cut short or overwritten"},
		{[]string{"restore", "--db", live, "--from", other}, "cardtable: restore: " + other + " is not a usable backup: it is an SQLite database, but not cardtable's"},
		{[]string{"restore", "--db", live, "--from", newer}, "cardtable: restore: " + newer + " is not a usable backup for this cardtable: a newer one made it (schema version 999"},
		// A --db that cannot be a database file: a directory, a path
		// through a file. They exited 1 with "open X: is a directory"
		// and "mkdir X: not a directory".
		{[]string{"restore", "--db", adir, "--from", backup}, "cardtable: restore: " + adir + " is a directory, not a database file; nothing changed\n"},
		{[]string{"restore", "--db", filepath.Join(afile, "x.db"), "--from", backup},
			"cardtable: restore: " + filepath.Join(afile, "x.db") + ": " + afile + " is a file, not a directory; nothing changed\n"},
		// A --db that is not a cardtable database, or one a newer
		// cardtable made, is refused before anything is copied, in one
		// sentence: it once read "backup: backup of X: file is not a
		// database (26)" (exit 1), or blamed the copy and advised a
		// restore.
		{[]string{"backup", "--db", notes, "--to", fresh}, "cardtable: backup: " + notes + " is not a cardtable database: it is not an SQLite database at all; nothing written\n"},
		{[]string{"backup", "--db", other, "--to", fresh}, "cardtable: backup: " + other + " is not a cardtable database: it is an SQLite database with no cardtable schema (schema version 0); nothing written\n"},
		// A damaged --db is bad input too (docs/cli.md); it exited 1,
		// "backup: reading X: ..." or "backup: copying X: ...".
		{[]string{"backup", "--db", cut, "--to", fresh}, "cardtable: backup: " + cut + " is damaged, cut short or overwritten (SQLite: database disk image is malformed (11)); nothing written\n"},
		{[]string{"backup", "--db", damaged, "--to", fresh}, "cardtable: backup: " + damaged + " is damaged, cut short or overwritten (SQLite: "},
		{[]string{"backup", "--db", newer, "--to", fresh}, fmt.Sprintf("cardtable: backup: %s was made by a newer cardtable (schema version 999; this one knows 1 to %d): back it up with that version; nothing written\n", newer, store.Version())},
		// A malformed --from is bad input (docs/cli.md); it exited 1.
		// Said in backup's words: it read "the source: store: X is
		// damaged ... the next start creates one", a text file too.
		{[]string{"db", "copy", "--from", notes, "--to", fresh}, "cardtable: db copy: the source: " + notes + " is not a cardtable database: it is not an SQLite database at all; nothing changed\n"},
		{[]string{"db", "copy", "--from", damaged, "--to", fresh}, "cardtable: db copy: the source: " + damaged + " is damaged, cut short or overwritten (SQLite: "},
		{[]string{"db", "copy", "--from", newer, "--to", fresh}, fmt.Sprintf("cardtable: db copy: the source: %s was made by a newer cardtable (schema version 999; this one knows 1 to %d): copy it with that version; nothing changed\n", newer, store.Version())},
	} {
		t.Run(strings.Join(tc.args[:len(tc.args)-4], " ")+" "+filepath.Base(tc.args[len(tc.args)-3]), func(t *testing.T) {
			out, errOut, code := run(t, "", tc.args...)
			if code != exitUsage || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tc.want)
			}
			if tc.args[0] == "restore" && !strings.HasSuffix(errOut, "; nothing changed\n") {
				t.Errorf("stderr %q does not say nothing changed", errOut)
			}
		})
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("the existing file was changed: %q", b)
	}
	if b, _ := os.ReadFile(afile); string(b) != "a file" {
		t.Errorf("the file in --db's path was changed: %q", b)
	}
	if l := dirList(t, adir); l != "" {
		t.Errorf("the directory named by --db now holds %s", l)
	}
	if b, _ := os.ReadFile(live); !bytes.Equal(b, liveBefore) {
		t.Error("the live database was changed by a refused restore")
	}
	if after := dirList(t, dir); after != listBefore {
		t.Errorf("files beside them changed:\nbefore %s\nafter  %s", listBefore, after)
	}
}

// dirList is the names in dir, one string.
func dirList(tb testing.TB, dir string) string {
	tb.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// Without --db, backup and restore use the database serve would use in
// the same environment: CARDTABLE_DB when set (a service's environment
// file), else serve's default file; --db wins over the variable.
func TestBackupRestoreDBFromEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data")) // serve's default file: absent
	live, backup, restored := filepath.Join(dir, "live.db"), filepath.Join(dir, "b.db"), filepath.Join(dir, "r.db")
	db, err := store.Open(context.Background(), live)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	tests := []struct {
		env  string
		args []string
		code int
		want string
	}{
		{live, []string{"backup", "--to", backup}, exitOK, "backed up " + live + " to " + backup},
		{restored, []string{"restore", "--from", backup}, exitOK, "restored " + restored + " from " + backup},
		{filepath.Join(dir, "none.db"), []string{"backup", "--db", restored, "--to", filepath.Join(dir, "b2.db")}, exitOK, "backed up " + restored},
		// A URL is refused naming where it came from and the section
		// that shows PostgreSQL's commands for it.
		{"postgres://u@localhost/ct", []string{"backup", "--to", filepath.Join(dir, "b3.db")}, exitUsage,
			"cardtable: backup: CARDTABLE_DB (--db) names a PostgreSQL database, and cardtable backup works on a SQLite file: " +
				"back it up with pg_dump (docs/operating.md, \"Backups and restore\")\n"},
		// Missing, it is said to come from the variable, not --db.
		{filepath.Join(dir, "none.db"), []string{"backup", "--to", filepath.Join(dir, "b4.db")}, exitUsage,
			"no database at " + filepath.Join(dir, "none.db") + " (CARDTABLE_DB names it: give the server's there, or with --db)\n"},
		{"postgres://u@localhost/ct", []string{"restore", "--from", backup}, exitUsage,
			"cardtable: restore: CARDTABLE_DB (--db) names a PostgreSQL database, and cardtable restore works on a SQLite file: " +
				"restore it with pg_restore (docs/operating.md, \"Backups and restore\")\n"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Setenv("CARDTABLE_DB", tc.env)
			out, errOut, code := run(t, "", tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Fatalf("CARDTABLE_DB=%s: exit %d, want %d; out %q, err %q, want %q", tc.env, code, tc.code, out, errOut, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		t.Error("serve's default database was touched although CARDTABLE_DB was set")
	}
}

// TestDBMissingDirectory: a database named (--db, CARDTABLE_DB, db
// copy's --to) in a directory that does not exist is a mistyped path:
// serve, restore and db copy refuse it with exit status 2 and one
// sentence saying to create the directory, and make nothing. The
// default data folder alone is made: serve and restore without a
// database named make it; db copy's new file in an existing directory
// is made.
func TestDBMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("CARDTABLE_DB", "")
	live, backup := filepath.Join(dir, "live.db"), filepath.Join(dir, "b.db")
	db, err := store.Open(context.Background(), live)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, _, code := run(t, "", "backup", "--db", live, "--to", backup); code != exitOK {
		t.Fatal("backup failed")
	}
	typo := filepath.Join(dir, "nonexistent", "dir")
	want := "the directory " + typo + " does not exist: create it first"
	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(typo, "x.db")},
		{"restore", "--db", filepath.Join(typo, "x.db"), "--from", backup},
		{"db", "copy", "--from", live, "--to", filepath.Join(typo, "x.db")},
		{"serve", "bench", "--db", filepath.Join(typo, "x.db")},
		{"arlington", "loadtest", "--in-process", "--db", filepath.Join(typo, "x.db")},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			// A server that starts after all serves until the deadline,
			// then exits 0: the test fails, not hangs.
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			var errb bytes.Buffer
			code := Run(ctx, args, nil, io.Discard, &errb)
			errOut := errb.String()
			if code != exitUsage || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, %q; want exit 2 and one line saying %q", code, errOut, want)
			}
			if _, err := os.Stat(filepath.Join(dir, "nonexistent")); err == nil {
				t.Error("the missing directory was made")
			}
		})
	}
	t.Run("CARDTABLE_DB", func(t *testing.T) {
		t.Setenv("CARDTABLE_DB", filepath.Join(typo, "x.db"))
		if _, errOut, code := run(t, "", "restore", "--from", backup); code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, %q; want exit 2 and %q", code, errOut, want)
		}
	})
	if _, errOut, code := run(t, "", "db", "copy", "--from", live, "--to", filepath.Join(dir, "copy.db")); code != exitOK {
		t.Errorf("db copy to a new file in an existing directory: exit %d, %s", code, errOut)
	}
	if out, errOut, code := run(t, "", "restore", "--from", backup); code != exitOK || !strings.Contains(out, filepath.Join(data, "cardtable", "cardtable.db")) {
		t.Errorf("restore into the default data folder: exit %d, %s %s", code, out, errOut)
	}
}

// TestRestoreRefusedMakesNoFolder: a restore into the default database
// whose --from is refused writes nothing, not even the data folder.
func TestRestoreRefusedMakesNoFolder(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("CARDTABLE_DB", "")
	notDB := filepath.Join(dir, "not.db")
	if err := os.WriteFile(notDB, []byte("not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{filepath.Join(dir, "missing.db"), notDB, dir} {
		if _, errOut, code := run(t, "", "restore", "--from", from); code != exitUsage {
			t.Errorf("--from %s: exit %d, %s; want 2", from, code, errOut)
		}
		if _, err := os.Lstat(data); err == nil {
			t.Fatalf("--from %s refused, yet %s was made", from, data)
		}
	}
}
