package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
)

// damage is what SQLite's full integrity check found wrong in a backup's
// source: its lines (the heading left out), and whether every one lies
// in an index, so that the tables, which VACUUM INTO copies, are whole.
type damage struct {
	found     []string
	indexOnly bool
}

// words is the first few lines found, for a message.
func (d damage) words() string {
	return strings.Join(d.found[:min(3, len(d.found))], "; ")
}

// checkIntegrity runs SQLite's full integrity check on the database db
// reads. VACUUM INTO reads only what the tables' b-trees still reach: a
// page lost from a table (its parent no longer names it) is passed over
// without an error, and the copy, sound in itself, misses its rows; an
// index that disagrees with its table is copied as it is. Only the check
// finds either.
func checkIntegrity(ctx context.Context, db *sql.DB) (damage, error) {
	var d damage
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return d, err
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return d, err
		}
		for _, line := range strings.Split(s, "\n") {
			// The problems, not the "*** in database main ***" heading.
			if line != "ok" && line != "" && !strings.HasPrefix(line, "*** ") {
				d.found = append(d.found, line)
			}
		}
	}
	if err := rows.Err(); err != nil || len(d.found) == 0 {
		return d, err
	}
	indexes, err := indexNames(ctx, db)
	if err != nil {
		return d, err
	}
	d.indexOnly = true
	for _, line := range d.found {
		d.indexOnly = d.indexOnly && inIndex(line, indexes)
	}
	return d, nil
}

// indexNames is every index of the database db reads, but for one whose
// b-tree is its table's own (a WITHOUT ROWID table's primary key): its
// damage is the table's.
func indexNames(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT name FROM sqlite_schema WHERE type = 'index' "+
		"AND rootpage NOT IN (SELECT rootpage FROM sqlite_schema WHERE type = 'table')")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, rows.Err()
}

// inIndex reports whether a line of SQLite's integrity check is about an
// index alone: a line that names a row the table holds, found while
// reading the table, whose entry in an index is missing or wrong ("row
// N missing from index NAME", "row N values differ from index NAME",
// "rowid not at end-of-record for row N of index NAME", "index NAME
// stores an imprecise floating-point value for row N"). Anything else
// may hide rows lost: "wrong # of entries in index NAME" is also what a
// table page that lost rows while its indexes kept their entries gives
// (a stale page written back), "non-unique entry in index NAME" may be
// a lost row's entry, and a page never used, a damaged page of a table
// or an index, or the free list say nothing of the rows.
func inIndex(line string, indexes []string) bool {
	for _, name := range indexes {
		if strings.HasPrefix(line, "row ") && (strings.HasSuffix(line, " missing from index "+name) ||
			strings.HasSuffix(line, " values differ from index "+name)) ||
			strings.HasPrefix(line, "rowid not at end-of-record for row ") && strings.HasSuffix(line, " of index "+name) ||
			strings.HasPrefix(line, "index "+name+" stores an imprecise floating-point value for row ") {
			return true
		}
	}
	return false
}

// reindex makes every index of the database file at path, a copy
// Backup made and no one else uses, anew from its tables.
func reindex(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=rw&_pragma=journal_mode(DELETE)")
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "REINDEX")
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// rowsMayBeLost refuses a source (of a backup, of db copy) whose damage
// is not in its indexes alone: the copy could miss rows and pass its own
// check. nothing says what the refusal left undone.
func rowsMayBeLost(path string, d damage, nothing string) error {
	return fmt.Errorf("%s is %w (SQLite's integrity check: %s): rows of it may be lost, which a copy would miss "+
		"without a word; %s: put a backup in its place, or salvage what it still holds (docs/api.md, \"A damaged database\")",
		path, ErrCorrupt, d.words(), nothing)
}

// indexesMadeAnew reports a backup written of a source damaged in its
// indexes alone: the copy holds every row, its indexes made anew from
// them and checked, and is the remedy.
func indexesMadeAnew(path, to string, d damage) error {
	return fmt.Errorf("backup: %s is %w in its indexes only (SQLite's integrity check: %s); the backup %s holds every row, "+
		"its indexes made anew and checked: stop the server and restore that backup in the database's place (docs/operating.md)",
		path, ErrCorrupt, d.words(), to)
}
