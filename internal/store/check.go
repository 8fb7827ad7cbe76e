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
	"syscall"
)

// CheckCopySource refuses, before anything opens it for writing, a file
// cardtable db copy must not copy from: one with no cardtable schema
// (another program's SQLite database, or an empty file), to which Open
// would add cardtable's schema, and then copy nothing. It reads the file
// through a read-only connection of its own, closed before it returns.
// A file Open refuses untouched (not SQLite, damaged, a newer
// cardtable's) is left to Open, and its words.
func CheckCopySource(ctx context.Context, path string) error {
	c, err := inspect(ctx, path)
	if err != nil {
		return err
	}
	switch c.kind {
	case kindNoSchema:
		if c.size == 0 {
			return fmt.Errorf("%s is %w: it is an empty file; nothing changed", path, ErrNotCardtable)
		}
		return fmt.Errorf("%s is %w: it is an SQLite database with no cardtable schema (schema version %d); nothing changed", path, ErrNotCardtable, c.version)
	case kindUnreadable:
		return fmt.Errorf("reading %s: %w; nothing changed", path, c.err)
	}
	return nil
}

// CheckCopyTarget refuses, before anything opens it for writing, a path
// cardtable db copy must not copy into: a directory, a path through a
// file, or an SQLite database of another program's (Open would add
// cardtable's schema to it). A path with nothing there is the usual
// target (Open makes the file, and its directory), and an SQLite file
// with no schema at all (an empty file) is as good: neither holds
// anything to lose. A file Open refuses untouched (not SQLite, damaged,
// a newer cardtable's) is left to Open.
func CheckCopyTarget(ctx context.Context, path string) error {
	if err := checkDBPath(path); err != nil {
		return fmt.Errorf("%w; nothing changed", err)
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	c, err := inspect(ctx, path)
	if err != nil {
		return err
	}
	switch {
	case c.kind == kindNoSchema && c.objects > 0:
		return fmt.Errorf("%s is %w: it is an SQLite database with another program's schema (schema version %d): "+
			"give a new file, or an empty one; nothing changed", path, ErrNotCardtable, c.version)
	case c.kind == kindUnreadable:
		return fmt.Errorf("reading %s: %w; nothing changed", path, c.err)
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
	c, err := inspect(ctx, path)
	if err != nil || c.kind != kindNoSchema || c.objects == 0 {
		return nil
	}
	return fmt.Errorf("store: %s is %w: it is an SQLite database with another program's schema (schema version %d); nothing changed",
		path, ErrNotCardtable, c.version)
}

// inspected is what inspect found of a database file: its kind (classify),
// its size, and, with no cardtable schema, how many things its schema
// holds (tables, indexes, views, triggers).
type inspected struct {
	fileClass
	size    int64
	objects int
}

// inspect classifies the existing database file at path through a
// read-only connection, which cannot change it.
func inspect(ctx context.Context, path string) (inspected, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return inspected{}, err
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return inspected{}, err
	}
	defer db.Close()
	in := inspected{fileClass: classify(ctx, db), size: fi.Size()}
	if in.kind == kindNoSchema {
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&in.objects); err != nil {
			in.fileClass = sqliteFault(err)
		}
	}
	return in, nil
}

// checkDBPath says what keeps path from being a database file to open
// for writing, if it can be told before trying: a directory, or a path
// through a file (checkDir's words). Nothing there is no fault: Open
// makes the file and its directory.
func checkDBPath(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, syscall.ENOTDIR):
		if err := checkDir(filepath.Dir(path)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	case err != nil:
		return nil // Open says what it is, trying
	case fi.IsDir():
		return badPath(fmt.Errorf("%s is a directory, not a database file", path))
	case !fi.Mode().IsRegular():
		return badPath(fmt.Errorf("%s is not a regular file", path))
	}
	return nil
}
