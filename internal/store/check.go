package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"cardtable/internal/dbcopy"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// CheckCopySource refuses, before anything opens it for writing, a file
// cardtable db copy must not copy from: one with no cardtable schema
// (another program's SQLite database, or an empty file), to which Open
// would add cardtable's schema, and then copy nothing; and one Open
// would refuse only after changing it (it makes the file a WAL database
// before its quick check): not SQLite at all, damaged, or a newer
// cardtable's. Damage is looked for as Backup does, with SQLite's full
// integrity check: a copy reads some tables through an index (games,
// saves, ... in key order), so damage in an index alone, which the
// quick check passes, lost a row or failed the copy halfway, a target
// left made. It reads the file through a read-only connection of its
// own, closed before it returns, which leaves nothing beside the file
// but for the -shm inspect may make.
func CheckCopySource(ctx context.Context, path string) error {
	c, err := inspect(ctx, path, inspectSource)
	if err != nil {
		return err
	}
	if c.kind == kindNoSchema {
		if c.size == 0 {
			return fmt.Errorf("%s is %w: it is an empty file; nothing changed", path, ErrNotCardtable)
		}
		return fmt.Errorf("%s is %w: it is %s; nothing changed", path, ErrNotCardtable, c.noSchema(path, " with no cardtable schema"))
	}
	if d := c.damage; len(d.found) > 0 && d.indexOnly {
		return fmt.Errorf("%s is %w in its indexes only (SQLite's integrity check: %s), through which a copy reads rows; "+
			"nothing changed: write a backup of it with cardtable backup, which makes the indexes anew from the tables, "+
			"and copy from that backup (docs/operating.md)", path, ErrCorrupt, d.words())
	}
	if d := c.damage; len(d.found) > 0 {
		return rowsMayBeLost(path, d, "nothing changed")
	}
	return copyRefusal(path, c)
}

// CheckCopyTarget refuses, before anything opens it for writing, a path
// cardtable db copy must not copy into: a directory, a path through a
// file, an SQLite database of another program's (Open would add
// cardtable's schema to it), a cardtable database with rows (Copy's
// dbcopy.ErrNotEmpty, here before the source is opened), and a file
// Open would refuse only after changing it (not SQLite at all, damaged,
// a newer cardtable's), a path whose directory is missing or cannot be
// written in, and symbolic links in a loop, through a file or to
// nothing (checkTargetDir, checkDBPath). A path with nothing there, in a
// directory that exists, is the usual target (OpenCopyTarget makes the
// file), and an SQLite file with no schema at all (an empty file) is as
// good: neither holds anything to lose.
func CheckCopyTarget(ctx context.Context, path string) error {
	if err := checkDBPath(path); err != nil {
		return fmt.Errorf("%w; nothing changed", err)
	}
	if err := checkTargetDir(path); err != nil {
		return fmt.Errorf("%s: %w; nothing changed", path, err)
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		// A new file, in a directory that must exist (openFile).
		if _, err := os.Stat(filepath.Dir(path)); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w; nothing changed", path, missingDir(filepath.Dir(path), err))
		}
		return nil
	}
	c, err := inspect(ctx, path, inspectTarget)
	if err != nil {
		return err
	}
	if c.kind == kindCardtable && c.full != "" {
		// Copy's own refusal, in its words, made before the source is
		// opened.
		return fmt.Errorf("%s: %w (table %s has rows): copy only into a new database; nothing changed", path, dbcopy.ErrNotEmpty, c.full)
	}
	if c.kind == kindNoSchema {
		if c.objects > 0 {
			return fmt.Errorf("%s is %w: it is %s: give a new file, or an empty one; nothing changed",
				path, ErrNotCardtable, c.noSchema(path, " with another program's schema"))
		}
		return nil
	}
	if c.kind == kindDamaged && errors.Is(c.err, ErrCorrupt) { // the quick check's finding (inspect)
		return fmt.Errorf("%s is %w (SQLite's quick check: %s): give a new file; nothing changed",
			path, ErrCorrupt, strings.TrimPrefix(c.err.Error(), ErrCorrupt.Error()+": "))
	}
	return copyRefusal(path, c)
}

// copyRefusal words the refusal of a file db copy may not open, on
// either side, in Backup's words (checkSource) for the same file; nil
// for a cardtable database this program can open.
func copyRefusal(path string, c inspected) error {
	switch c.kind {
	case kindNotSQLite:
		// SQLite's words ("file is not a database (26)") add nothing.
		return plainError{msg: fmt.Sprintf("%s is %v: it is not an SQLite database at all; nothing changed", path, ErrNotCardtable),
			err: errors.Join(ErrNotCardtable, c.err)}
	case kindDamaged:
		return fmt.Errorf("%s is %w, cut short or overwritten (SQLite: %w); nothing changed", path, ErrCorrupt, c.err)
	case kindUnreadable:
		if hotJournal(c.err) {
			return fmt.Errorf("%w; nothing changed", unfinished(path, "copy it"))
		}
		return fmt.Errorf("reading %s: %w; nothing changed", path, c.err)
	case kindNewer:
		return fmt.Errorf("%s was %w (%s): copy it with that version; nothing changed", path, ErrNewer, c.versions())
	}
	return nil
}

// refuseForeign refuses, before Open writes anything, an existing file
// that is another program's SQLite database: no cardtable schema
// (classify), yet tables or other things of its own. Opened, SQLite would
// make it a WAL database, and the migrations would add cardtable's schema
// to it, or, at a schema version of 1 or more, be tried on it as on an
// old cardtable's. It is read through a read-only connection, closed
// before the file is opened for writing. Anything else is left to
// Open: no file, an empty file or an SQLite database with nothing in it
// (a new database), or a file Open refuses untouched in words of its own
// (not SQLite, damaged, a newer cardtable's).
func refuseForeign(ctx context.Context, path string) error {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil
	}
	c, err := inspect(ctx, path, inspectKind)
	if err != nil || c.kind != kindNoSchema || c.objects == 0 {
		return nil
	}
	return fmt.Errorf("store: %s is %w: it is %s; nothing changed",
		path, ErrNotCardtable, c.noSchema(path, " with another program's schema"))
}

// inspected is what inspect found of a database file: its kind (classify,
// and for a cardtable database, SQLite's full or quick
// integrity check, which Open leaves to its own quick one), its size, and, with
// no cardtable schema, how many things its schema holds (tables,
// indexes, views, triggers).
type inspected struct {
	fileClass
	size    int64
	objects int
	// full is, for a cardtable database (inspectTarget and inspectSource), the first of the
	// tables a copy carries that holds a row; "" if none does.
	full string
	// damage is what the integrity check found (inspectSource only);
	// with any, kind is kindDamaged. What the quick check found
	// (inspectTarget only) is err, ErrCorrupt, with kind kindDamaged.
	damage damage
}

// inspectDepth is how far inspect looks into a cardtable database.
type inspectDepth int

const (
	// inspectKind: its kind alone (Open runs its own quick check).
	inspectKind inspectDepth = iota
	// inspectTarget: db copy's target: whether a table holds rows,
	// first (refused if one does, whatever else), then SQLite's quick
	// check, which is enough for a file about to be written and whose
	// rows, none, cannot be lost. The full check first made a target
	// with rows wait for it (4.9 s against 1.05 s, a 133 MB file) only
	// to be refused for its rows.
	inspectTarget
	// inspectSource: db copy's source: SQLite's full integrity check
	// (as Backup's), then whether a table holds rows.
	inspectSource
)

// inspect classifies the existing database file at path through a
// read-only connection, which cannot change it. With no -wal, -shm or
// -journal beside the file, the connection is immutable: SQLite then
// takes no locks and makes no -wal and -shm beside it (a read-only
// connection to a WAL database would, and leave them). Nothing there
// beside that name means no program has the file open as a WAL database
// by that name, and no transaction is half written. Two cases read
// stale pages: a cardtable server starting meanwhile, and a served file
// reached by another name (a hard link or symbolic link to it, or the
// file renamed while served), whose -wal and -shm are beside the name
// the server opened. Open, which comes next, refuses either on Unix,
// where the server's lock refuses it (lock_unix.go); builds for other
// systems have no such lock (lock_other.go). With -wal, -shm or -journal
// there (a server may be using the file: a source of db copy is refused
// by Open then, but is read here first), SQLite must read them and take
// its locks, and they are left as they were, with one exception: a -wal
// with no -shm beside it (a server killed, and its -shm removed) gets a
// -shm made, SQLite's index of the -wal (32 KiB), which is left beside
// it as any reader of the file would leave it. A hot -journal (a write
// half done) cannot be rolled back by a reader: it is refused
// (ErrUnfinished).
//
// depth says how far it looks into a cardtable database (inspectDepth).
func inspect(ctx context.Context, path string, depth inspectDepth) (inspected, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return inspected{}, err
	}
	how := "mode=ro&immutable=1"
	for _, side := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Lstat(path + side); !errors.Is(err, fs.ErrNotExist) {
			how = "mode=ro&_pragma=busy_timeout(10000)"
		}
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+how)
	if err != nil {
		return inspected{}, err
	}
	defer db.Close()
	in := inspected{fileClass: classify(ctx, db), size: fi.Size()}
	switch {
	case in.kind == kindNoSchema:
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&in.objects); err != nil {
			in.fileClass = sqliteFault(err)
		}
	case in.kind == kindCardtable && depth == inspectTarget:
		if in.full, err = firstFull(ctx, db); err != nil {
			in.fileClass = sqliteFault(err)
		} else if in.full == "" {
			if err := quickCheck(ctx, db); errors.Is(err, ErrCorrupt) {
				in.fileClass = fileClass{kind: kindDamaged, err: err}
			} else if err != nil {
				in.fileClass = sqliteFault(err)
			}
		}
	case in.kind == kindCardtable && depth == inspectSource:
		// Damage past the first page, which Open's quick check would
		// find only once the file was a WAL database, and damage in
		// the indexes, which it would not find at all.
		if d, err := checkIntegrity(ctx, db); err == nil && len(d.found) > 0 {
			in.fileClass, in.damage = fileClass{kind: kindDamaged, err: errors.New(d.words())}, d
		} else if err != nil {
			in.fileClass = sqliteFault(err)
		} else if in.full, err = firstFull(ctx, db); err != nil {
			in.fileClass = sqliteFault(err)
		}
	}
	return in, nil
}

// firstFull is the first of the tables a copy carries (dbcopy.Tables)
// that holds a row, of those the database has (an older schema lacks
// the later ones); "" if none does.
func firstFull(ctx context.Context, db *sql.DB) (string, error) {
	for _, t := range dbcopy.Tables {
		var there, rows bool
		err := db.QueryRowContext(ctx, "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = ?", t).Scan(&there)
		if err == nil && there {
			err = db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM "`+t+`")`).Scan(&rows)
		}
		if err != nil {
			return "", err
		}
		if rows {
			return t, nil
		}
	}
	return "", nil
}

// OpenCopySource opens the database file at path as db copy's source,
// which must have passed CheckCopySource: it is not checked again here
// (its integrity check takes a while, and Open runs its quick one). Open, having
// no read-only mode, makes it a WAL database and migrates an older
// schema, as a server's start would (docs/scaling.md): db copy checks
// its target first.
func OpenCopySource(ctx context.Context, path string) (*DB, error) {
	db, err := Open(ctx, path)
	return db, plain(err)
}

// OpenCopyTarget opens the database file at path as db copy's target,
// once CheckCopyTarget has passed it: db copy calls it after opening the
// source, whose quick check takes a while, so that the path is checked
// right before it is opened. A path with nothing there (or a symbolic
// link to a file not there yet: linkTarget) is made here, the owner's
// alone, and exclusively: a file another program made there
// since the check is refused, not written into. An empty file given
// is made the owner's alone too, as the store's own files are (the copy
// brings players' identities and the certificate cache's private keys).
func OpenCopyTarget(ctx context.Context, path string) (*DB, error) {
	if err := CheckCopyTarget(ctx, path); err != nil {
		return nil, err
	}
	made := false
	switch fi, err := os.Stat(path); {
	case errors.Is(err, fs.ErrNotExist):
		// A symbolic link to a file not there yet is followed: its
		// target is the file made (O_EXCL refuses a link itself). No
		// directory is made: a missing one is a mistyped path.
		file, err := linkTarget(path)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Dir(file)); errors.Is(err, fs.ErrNotExist) {
			return nil, missingDir(filepath.Dir(file), err)
		}
		if copyTargetHook != nil {
			copyTargetHook()
		}
		f, err := os.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s %w: another program made it after it was checked; give a new file; nothing changed", file, ErrExists)
		}
		if err != nil {
			return nil, readOnly(file, err)
		}
		f.Close()
		made, path = true, file
	case err != nil:
		return nil, err
	case fi.Size() == 0:
		if err := ownerOnly(fi, func(m fs.FileMode) error { return os.Chmod(path, m) }); err != nil {
			return nil, err
		}
	}
	db, err := Open(ctx, path)
	if err != nil && made {
		os.Remove(path) // the empty file made above, and nothing else
	}
	return db, plain(err)
}

// linkTarget is the file a path with nothing there names: path itself,
// or, for a symbolic link (or a chain of them) to a file not there yet,
// the last link's target, relative to its link's directory. That
// directory is resolved first (filepath.EvalSymlinks), as the kernel
// resolves it: a ".." in the target then leaves the directory the link
// is in, not the directory its path was reached through.
func linkTarget(path string) (string, error) {
	for range 40 { // as Linux's bound on links followed
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			// The link is there, so its directory resolves.
			dir, err := filepath.EvalSymlinks(filepath.Dir(path))
			if err != nil {
				return "", err
			}
			// Not filepath.Join, which would take a ".." in to back
			// over a link in to textually: the kernel follows it.
			to = dir + string(filepath.Separator) + to
		}
		path = to
	}
	return "", badPath(fmt.Errorf("%s: too many levels of symbolic links; nothing changed", path))
}

// checkTargetDir says what keeps OpenCopyTarget from making, or Open
// from writing beside, the database file at path, before anything is
// opened: the directory the file is (or would be made) in must exist
// (no directory is made for a path given) and be one this user can
// write in (checkDir). A symbolic link to nothing in its place is said
// as such.
func checkTargetDir(path string) error {
	file := path
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if file, err = linkTarget(path); err != nil {
			return err
		}
	} else if real, err := filepath.EvalSymlinks(path); err == nil {
		file = real // SQLite makes the -wal and -shm beside the file a link names
	}
	dir := filepath.Dir(file)
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return badPath(fmt.Errorf("%s is a file, not a directory", dir))
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(dir); lerr == nil {
			return badPath(fmt.Errorf("the directory %s is a symbolic link to nothing there", dir))
		}
		return missingDir(dir, err)
	}
	return checkDir(dir) // its words for a path through a file, a loop
}

// copyTargetHook, set by tests only, runs in OpenCopyTarget between the
// check of a path with nothing there and the making of its file.
var copyTargetHook func()

// plain is Open's refusal without its "store: " prefix, so that each
// of db copy's refusals reads "the target: PATH ...", whichever check
// made it; errors.Is and errors.As see what it wraps.
func plain(err error) error {
	if err == nil {
		return nil
	}
	if msg, ok := strings.CutPrefix(err.Error(), "store: "); ok {
		return plainError{msg: msg, err: err}
	}
	return err
}

type plainError struct {
	msg string
	err error
}

func (e plainError) Error() string { return e.msg }
func (e plainError) Unwrap() error { return e.err }

// checkDBPath says what keeps path from being a database file to open
// for writing, if it can be told before trying: a directory, or a path
// through a file (checkDir's words). Nothing there is no fault: Open
// makes the file (its directory must exist: openFile says so). A
// symbolic link through a file, or in a loop, is said here too.
func checkDBPath(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, syscall.ENOTDIR):
		if err := checkDir(filepath.Dir(path)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		// Its directory is sound: path is a symbolic link whose
		// target runs through a file.
		return badPath(fmt.Errorf("%s cannot be a database file: it is a symbolic link through a file (%w)", path, syscall.ENOTDIR))
	case errors.Is(err, syscall.ELOOP):
		return badPath(fmt.Errorf("%s cannot be a database file: its symbolic links make a loop, or a chain too long to follow (%w)", path, syscall.ELOOP))
	case err != nil:
		return nil // Open says what it is, trying
	case fi.IsDir():
		return badPath(fmt.Errorf("%s is a directory, not a database file", path))
	case !fi.Mode().IsRegular():
		return badPath(fmt.Errorf("%s is not a regular file", path))
	}
	return nil
}

// hotJournal says whether err is SQLite's refusal to read a file with a
// hot -journal beside it, which only a connection that may write can
// roll back.
func hotJournal(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_READONLY_ROLLBACK
}

// unfinished refuses a file with a hot -journal (hotJournal), saying
// how to roll its write back before the command is run again (next:
// "copy it", "back it up").
func unfinished(path, next string) error {
	return fmt.Errorf("%s %w: its -journal is a write a program left half done (it crashed or was killed); "+
		"open the file once for writing with that program (or sqlite3), which rolls the write back, then %s",
		path, ErrUnfinished, next)
}
