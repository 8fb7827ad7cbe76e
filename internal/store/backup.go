package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"cardtable/internal/dbcopy"
)

// Errors of Backup and Restore.
var (
	// ErrExists: the backup's destination already exists; it is never
	// overwritten.
	ErrExists = errors.New("already exists")
	// ErrBadBackup: the file to restore is not a sound cardtable database
	// this program can open.
	ErrBadBackup = errors.New("not a usable backup")
	// ErrBadPath: a file named to Backup or Restore is not there or not a
	// file (the database, the backup, --to's directory): the caller's
	// input is wrong, nothing was tried (docs/cli.md: exit status 2).
	ErrBadPath = errors.New("bad path")
	// ErrNotCardtable: the database named to Backup, or to Open, is not
	// one a cardtable made (not SQLite at all, or SQLite with no
	// cardtable schema): the caller named the wrong file.
	ErrNotCardtable = errors.New("not a cardtable database")
	// ErrNewer: the database was made by a newer cardtable (its schema
	// version is past this program's), which this one must not read; the
	// PostgreSQL store's is the same error.
	ErrNewer = dbcopy.ErrNewer
	// ErrUnfinished: the database has a hot journal beside it, a write a
	// program left half done (it crashed or was killed), which SQLite
	// rolls back only on an open for writing: db copy's checks, which
	// read, refuse it, saying so.
	ErrUnfinished = errors.New("has an unfinished write")
	// ErrNoDatabase: Backup's database file does not exist.
	ErrNoDatabase = errors.New("no database")
)

// Backup writes a consistent copy of the database at path to the new file
// to, while a server may be using the database. It reads through a
// read-only connection of its own (the server's lock is not needed:
// SQLite lets any number of processes read a WAL database while one
// writes) with VACUUM INTO, which copies one read transaction's snapshot:
// everything committed before it began, nothing after. The copy is made
// beside to under a temporary name, checked (SQLite's integrity check),
// synced, and then given its name by a hard link, which fails rather than
// replace a file that appeared meanwhile. The source is first given
// SQLite's full integrity check: damage that may mean lost rows is
// refused (ErrCorrupt, nothing written); damage in the indexes alone is
// written with its indexes made anew, and ErrCorrupt is still returned,
// so the source is reported although the backup stands.
func Backup(ctx context.Context, path, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return existsError(to)
	}
	if fi, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		// Where the path came from (--db, CARDTABLE_DB) is the caller's
		// to say.
		return badPath(plainError{msg: fmt.Sprintf("backup: no database at %s", path), err: errors.Join(ErrNoDatabase, err)})
	} else if err != nil {
		return badPath(fmt.Errorf("backup: database %w", err))
	} else if !fi.Mode().IsRegular() {
		return badPath(fmt.Errorf("backup: %s is not a regular file", path))
	}
	// Said here, SQLite would name the temporary file and its own code.
	if err := checkDir(filepath.Dir(to)); err != nil {
		return fmt.Errorf("backup: %s: %w", to, err)
	}
	src, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer src.Close()
	if err := checkSource(ctx, src, path); err != nil {
		return err
	}
	// The source's own check: damage VACUUM INTO would read past
	// (backup_check.go).
	dmg, err := checkIntegrity(ctx, src)
	if err != nil {
		if sqliteFault(err).kind == kindDamaged {
			return damagedSource(path, err)
		}
		return fmt.Errorf("backup: checking %s: %w", path, err)
	}
	if len(dmg.found) > 0 && !dmg.indexOnly {
		return fmt.Errorf("backup: %w", rowsMayBeLost(path, dmg, "nothing written"))
	}
	tmp := filepath.Join(filepath.Dir(to), fmt.Sprintf(".%s.tmp-%d", filepath.Base(to), time.Now().UnixNano()))
	defer os.Remove(tmp)
	if _, err := src.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		if sqliteFault(err).kind == kindDamaged { // in a page past the first
			return damagedSource(path, err)
		}
		return fmt.Errorf("backup: copying %s: %w", path, err)
	}
	// The owner's alone, as the database: it may hold private keys (the
	// ACME certificate cache), and SQLite made it by the umask.
	if err := os.Chmod(tmp, 0o600); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if dmg.indexOnly {
		// VACUUM INTO copied the indexes as they were; the tables are
		// whole, so the copy's indexes are made anew from them.
		if err := reindex(ctx, tmp); err != nil {
			return fmt.Errorf("backup: %w (its indexes could not be made anew on a copy: %w)", rowsMayBeLost(path, dmg, "nothing written"), err)
		}
	}
	if err := checkCopy(ctx, tmp); err != nil {
		return fmt.Errorf("backup: the copy of %s failed its check, nothing written: it %v", path, copyFailed(err))
	}
	if err := syncFile(tmp); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Link(tmp, to); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return existsError(to)
		}
		return fmt.Errorf("backup: %w", err)
	}
	if err := syncDir(filepath.Dir(to)); err != nil {
		return err
	}
	if dmg.indexOnly {
		return indexesMadeAnew(path, to, dmg)
	}
	return nil
}

// checkSource refuses, before anything is written, a database Backup
// must not copy: a file that is no cardtable database (the wrong --db),
// a damaged one, or one a newer cardtable made (its copy would fail the
// check that follows, and the words would blame the copy). Each is the
// caller's input; nothing was tried.
func checkSource(ctx context.Context, src *sql.DB, path string) error {
	k := classify(ctx, src)
	switch k.kind {
	case kindNotSQLite:
		// SQLite's words ("file is not a database (26)") add nothing.
		return plainError{msg: fmt.Sprintf("backup: %s is %v: it is not an SQLite database at all; nothing written", path, ErrNotCardtable),
			err: errors.Join(ErrNotCardtable, k.err)}
	case kindDamaged:
		return damagedSource(path, k.err)
	case kindUnreadable:
		if hotJournal(k.err) {
			return fmt.Errorf("backup: %w; nothing written", unfinished(path, "back it up"))
		}
		return fmt.Errorf("backup: reading %s: %w", path, k.err)
	case kindNoSchema:
		return fmt.Errorf("backup: %s is %w: it is %s; nothing written", path, ErrNotCardtable, k.noSchema(path, " with no cardtable schema"))
	case kindNewer:
		return fmt.Errorf("backup: %s was %w (%s): back it up with that version; nothing written", path, ErrNewer, k.versions())
	}
	return nil
}

// damagedSource refuses a database SQLite found damaged while reading it
// (err): the caller's to fix from a backup (docs/cli.md: exit status 2),
// as a damaged --db is to the server and db copy.
func damagedSource(path string, err error) error {
	return fmt.Errorf("backup: %s is %w, cut short or overwritten (SQLite: %w); nothing written", path, ErrCorrupt, err)
}

// existsError refuses a backup's destination that exists, in words
// that say what to do.
func existsError(to string) error {
	return fmt.Errorf("backup: %s %w: give a new file name (an existing file is never overwritten)", to, ErrExists)
}

// missingDir refuses a database or backup path whose directory does not
// exist (err says so): bad input, nothing made.
func missingDir(dir string, err error) error {
	return badPath(plainError{msg: fmt.Sprintf("the directory %s does not exist: create it first", dir), err: err})
}

// MakeDefaultDir makes the directory of path, the default data folder's
// database (used when no database is named), if it is missing: the one
// directory cardtable makes itself. A database path given is never
// given a directory (openFile).
func MakeDefaultDir(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return readOnly(dir, err)
	}
	return nil
}

// checkDir says what keeps a new file from being made in dir, if it can
// be told before trying: SQLite's own error would name the temporary file.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return missingDir(dir, err)
	case errors.Is(err, syscall.ENOTDIR):
		return badPath(fmt.Errorf("%s cannot be a directory: a part of that path is a file: %w", dir, err))
	case errors.As(err, &pe):
		return badPath(fmt.Errorf("the directory %s: %w", dir, pe.Err))
	case err != nil:
		return badPath(fmt.Errorf("the directory %s: %w", dir, err))
	case !fi.IsDir():
		return badPath(fmt.Errorf("%s is a file, not a directory", dir))
	}
	// A directory this user may not write in (a permission error, a
	// read-only file system) is found by making a file there.
	f, err := os.CreateTemp(dir, ".cardtable-write-check-*")
	if err != nil {
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return badPath(fmt.Errorf("cannot write in the directory %s: %w", dir, err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// badPath marks err, a file named to Backup or Restore that is wrong, as
// ErrBadPath without adding to its words.
func badPath(err error) error { return badPathError{err} }

type badPathError struct{ error }

func (e badPathError) Unwrap() []error { return []error{ErrBadPath, e.error} }

// checkCopy checks a database file that is not in use (a backup, or a
// copy about to be restored): SQLite's full integrity check, and a schema
// version this program knows or can migrate. Its refusal is a
// *notUsableError: wrapping ErrBadBackup, it reads after the file's name
// ("X is not a usable backup: ..."), saying what the file is instead.
func checkCopy(ctx context.Context, path string) error {
	// immutable: the file is not in use, so SQLite takes no locks and
	// creates no -shm beside it.
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&immutable=1")
	if err != nil {
		return err
	}
	defer db.Close()
	if c := classify(ctx, db); c.kind != kindCardtable {
		return notUsable(path, c)
	}
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return notUsable(path, sqliteFault(err))
	}
	defer rows.Close()
	var first string
	for rows.Next() {
		if err := rows.Scan(&first); err != nil {
			return notUsable(path, sqliteFault(err))
		}
		if first != "ok" {
			return &notUsableError{why: fmt.Sprintf("it is damaged (SQLite's integrity check: %s)", first)}
		}
	}
	if err := rows.Err(); err != nil {
		return notUsable(path, sqliteFault(err))
	}
	return nil
}

// notUsableError is checkCopy's refusal: "is not a usable backup[ for
// this cardtable]: WHY", wrapping ErrBadBackup and SQLite's error if
// any. copyFailed words the same refusal of a copy this program made.
type notUsableError struct {
	forThis bool   // usable by another (newer) cardtable
	why     string // what the file is instead
	err     error  // SQLite's error, if it is one
}

func (e *notUsableError) Error() string { return "is " + e.words(ErrBadBackup.Error()) }

func (e *notUsableError) Unwrap() []error {
	if e.err == nil {
		return []error{ErrBadBackup}
	}
	return []error{ErrBadBackup, e.err}
}

// words is the refusal after "is", unusable being its first words.
func (e *notUsableError) words(unusable string) string {
	if e.forThis {
		unusable += " for this cardtable"
	}
	return unusable + ": " + e.why
}

// notUsable words a file classify found unusable as a backup.
func notUsable(path string, c fileClass) *notUsableError {
	switch c.kind {
	case kindNotSQLite:
		return &notUsableError{why: "it is not an SQLite database at all", err: c.err}
	case kindDamaged:
		return &notUsableError{why: fmt.Sprintf("it is damaged, cut short or overwritten (SQLite: %v)", c.err), err: c.err}
	case kindNoSchema:
		return &notUsableError{why: "it is " + c.noSchema(path, ", but not cardtable's")}
	case kindNewer:
		return &notUsableError{forThis: true, why: fmt.Sprintf("a newer one made it (%s): restore it with that version", c.versions())}
	}
	return &notUsableError{why: fmt.Sprintf("SQLite cannot read it (%v)", c.err), err: c.err}
}

// copyFailed is checkCopy's refusal of a copy this program made, not
// wrapped: ErrBadBackup would make it the user's file's fault (bad input,
// docs/cli.md) when it is the copy's (a failing disk, a database damaged
// while in use).
func copyFailed(err error) string {
	var nu *notUsableError
	if errors.As(err, &nu) {
		return "is " + nu.words("not usable")
	}
	return err.Error()
}

// Restore puts the backup from in place of the database at path, only
// while no server uses it: it takes the database's lock (lock_*.go), and
// refuses if a server holds it, or still has the -wal and -shm at path
// open (a server whose file was swapped). The backup is checked first
// (checkCopy), copied beside path, synced and renamed over path, so path
// names either the old database or the whole backup, never a mixture. The
// old database, if any, is kept as path.replaced-TIME (with its -wal,
// renamed to go with it; a -wal with no database is moved aside too); the
// old -shm is removed, so nothing of the old database is ever replayed
// into the backup. The restored file gets the old database's owner and
// group, or its folder's when there was none (ownRestored). It returns
// the old database's new name ("" if there was none).
func Restore(ctx context.Context, path, from string) (kept string, err error) {
	return restore(ctx, path, from, false)
}

// RestoreDefault is Restore into the default data folder's database:
// that folder is made (MakeDefaultDir) once the backup has passed its
// check, so a refused backup leaves nothing behind.
func RestoreDefault(ctx context.Context, path, from string) (kept string, err error) {
	return restore(ctx, path, from, true)
}

func restore(ctx context.Context, path, from string, makeDir bool) (kept string, err error) {
	if fi, err := os.Stat(from); errors.Is(err, fs.ErrNotExist) {
		return "", badPath(plainError{msg: fmt.Sprintf("restore: no backup at %s", from), err: err})
	} else if err != nil {
		return "", badPath(fmt.Errorf("restore: backup %w", err))
	} else if !fi.Mode().IsRegular() {
		return "", badPath(fmt.Errorf("restore: %s is not a regular file", from))
	}
	if err := checkCopy(ctx, from); err != nil {
		return "", fmt.Errorf("restore: %s %w; nothing changed", from, err)
	}
	if makeDir {
		if err := MakeDefaultDir(path); err != nil {
			return "", err
		}
	}
	// Said here, openFile would say "open X: is a directory".
	if err := checkDBPath(path); err != nil {
		return "", fmt.Errorf("restore: %w; nothing changed", err)
	}
	target, err := openFile(path)
	if err != nil {
		return "", inUseRefusal(path, err)
	}
	defer target.Close()
	if err := sideInUse(path); err != nil {
		return "", inUseRefusal(path, err)
	}
	tmp, err := copyBeside(path, from)
	if err != nil {
		return "", fmt.Errorf("restore: %w", err)
	}
	defer os.Remove(tmp)
	if err := checkCopy(ctx, tmp); err != nil {
		return "", fmt.Errorf("restore: the copy of %s made beside the database failed its check, nothing changed: it %v", from, copyFailed(err))
	}
	if err := ownRestored(tmp, path, target.opened); err != nil {
		return "", err
	}
	stamp := time.Now().UTC().Format("20060102T150405Z")
	wal := path + ".stale-" + stamp + "-wal" // a -wal without its database
	if target.opened.Size() > 0 {
		kept = path + ".replaced-" + stamp
		if err := os.Link(path, kept); err != nil {
			return "", fmt.Errorf("restore: keeping the old database: %w", err)
		}
		wal = kept + "-wal"
	}
	if err := os.Rename(path+"-wal", wal); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if kept != "" {
			os.Remove(kept)
		}
		return "", fmt.Errorf("restore: moving the old -wal aside: %w", err)
	}
	if err := os.Remove(path + "-shm"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return kept, fmt.Errorf("restore: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return kept, fmt.Errorf("restore: %w", err)
	}
	return kept, syncDir(filepath.Dir(path))
}

// inUseRefusal words restore's refusal of a database a server uses:
// errInUse's own advice is serve's (another file would do there), but a
// restore must wait for that server to stop.
func inUseRefusal(path string, err error) error {
	var side *sideInUseError
	switch {
	case errors.As(err, &side):
		return plainError{msg: fmt.Sprintf("restore: %s-shm is in use by a running cardtable server %s: stop it first; nothing changed", path, swappedServer), err: err}
	case errors.Is(err, errInUse):
		return plainError{msg: fmt.Sprintf("restore: %s is in use by a running cardtable server: stop it first; nothing changed", path), err: err}
	}
	return fmt.Errorf("restore: %w", err)
}

// ownRestored gives tmp, the restored file, the owner and group of the
// database at path it replaces (opened), so that a restore run as root
// leaves a file the service's user can open. With no database there (a
// missing or empty file: openFile made it, or an earlier restore
// refused later did, as whoever ran it), it takes those of path's
// folder instead, which systemd's StateDirectory= gives to the
// service's user. A user who may not give a new file away keeps it, as
// any file they make (the restore worked so before).
func ownRestored(tmp, path string, opened os.FileInfo) error {
	if opened.Size() > 0 {
		if err := ownLike(tmp, opened); err != nil {
			return fmt.Errorf("restore: the restored file cannot be given the owner of the database it replaces (run restore as that user, or as root): %w; nothing changed", err)
		}
		return nil
	}
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("restore: %w; nothing changed", err)
	}
	if err := ownLike(tmp, dir); err != nil && !errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("restore: giving the restored file its folder's owner: %w; nothing changed", err)
	}
	return nil
}

// copyBeside copies from to a new temporary file in path's directory,
// synced, and returns its name.
func copyBeside(path, from string) (string, error) {
	in, err := os.Open(from)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".restore-*")
	if err != nil {
		return "", readOnly(filepath.Dir(path), err)
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(out.Name())
		return "", err
	}
	return out.Name(), nil
}

func syncFile(name string) error {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// syncDir makes a rename or link in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	return errors.Join(err, d.Close())
}
