package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// fileKind is what a database file is to this program, as classify
// finds it by its schema version and tables; Backup's source and a
// file not in use (checkCopy) are told in words of their own from it.
type fileKind int

const (
	kindCardtable  fileKind = iota // a schema this program knows or can migrate
	kindNotSQLite                  // not an SQLite database at all
	kindDamaged                    // SQLite finds it damaged, cut short or overwritten
	kindUnreadable                 // SQLite cannot read it, for another reason
	kindNoSchema                   // an SQLite database with no cardtable schema (another program's, or empty)
	kindNewer                      // made by a newer cardtable
)

// fileClass is what classify found: the kind, the schema version read
// (kindNoSchema, kindNewer), SQLite's error (kindNotSQLite,
// kindDamaged, kindUnreadable), and whether a file with no schema
// version holds cardtable's salvageTables (unversioned).
type fileClass struct {
	kind        fileKind
	version     int
	err         error
	unversioned bool
}

// noSchema says what a kindNoSchema file is, after "it is": an SQLite
// database with no cardtable schema, or, holding salvageTables at schema
// version 0, what the salvage of a damaged database (docs/api.md) leaves
// before its step that sets the version, with that step; its path is
// quoted for a POSIX shell, as the command is to be pasted.
func (c fileClass) noSchema(path, other string) string {
	if c.unversioned {
		return `an unfinished salvage: it holds cardtable's tables but no schema version (PRAGMA user_version is 0), ` +
			`as the salvage of a damaged database leaves them until its last step (docs/api.md, "A damaged database"): ` +
			`set the version the damaged file had, sqlite3 ` + shellQuote(path) + ` "PRAGMA user_version = N"`
	}
	return fmt.Sprintf("an SQLite database%s (schema version %d)", other, c.version)
}

// shellQuote is s as one word of a POSIX shell: as it is when it holds
// nothing the shell reads, else in single quotes (each ' as '\”).
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// versions says a newer schema version beside the ones this program knows.
func (c fileClass) versions() string {
	return fmt.Sprintf("schema version %d; this one knows 1 to %d", c.version, Version())
}

// versionSchemas is, for each schema version v from 1 to Version(), the
// tables cardtable's schema has at v, each with its columns: what
// migrations 1 to v make of an empty database, applied once in memory.
var versionSchemas = sync.OnceValues(func() ([]map[string][]string, error) {
	names, err := migrationNames()
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one connection: one database in memory
	ctx := context.Background()
	var schemas []map[string][]string
	for _, name := range names {
		text, err := migrations.ReadFile(name)
		if err == nil {
			_, err = db.ExecContext(ctx, string(text))
		}
		var tables map[string][]string
		if err == nil {
			tables, err = schemaOf(ctx, db)
		}
		if err != nil {
			return nil, fmt.Errorf("migration %s: %w", name, err)
		}
		schemas = append(schemas, tables)
	}
	return schemas, nil
})

// schemaOf is the tables of the database db opens, each with its
// columns (SQLite's own tables left out).
func schemaOf(ctx context.Context, db *sql.DB) (map[string][]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT m.name, p.name FROM sqlite_schema AS m, pragma_table_info(m.name) AS p "+
		"WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	tables := map[string][]string{}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			return nil, err
		}
		tables[table] = append(tables[table], column)
	}
	return tables, rows.Err()
}

// hasVersionSchema reports whether the database db opens holds every
// table cardtable's schema has at version (1 to Version()), each with
// its columns; err is SQLite's failure to read it. It reads the columns
// of those tables alone: another program's table, a virtual one whose
// module this program lacks (SQLite: "no such module"), cannot be read,
// and is none of its business. A needed table that SQLite cannot read
// (an SQL error, not damage) makes the file not cardtable's.
func hasVersionSchema(ctx context.Context, db *sql.DB, version int) (bool, error) {
	schemas, err := versionSchemas()
	if err != nil {
		return false, err
	}
	for table, columns := range schemas[version-1] {
		var n int
		err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema AS m, pragma_table_info(m.name) AS p "+
			"WHERE m.type = 'table' AND m.name = ? AND p.name IN ('"+strings.Join(columns, "','")+"')", table).Scan(&n)
		var se *sqlite.Error
		switch {
		case errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_ERROR:
			return false, nil
		case err != nil:
			return false, err
		case n != len(columns):
			return false, nil
		}
	}
	return true, nil
}

// salvageTables are tables and columns every version of cardtable's
// schema has (migrations/001_init.sql makes them; later ones add columns
// or remake a table with these, never drop one). A file at schema
// version 0 is taken for a salvage of cardtable's only with all of them:
// a table named games alone is any program's, and the salvage's last
// step runs cardtable's migrations on the file.
var salvageTables = map[string][]string{
	"games":    {"id", "lineage", "save", "variant", "suits", "deal", "moves", "score", "created", "updated"},
	"saves":    {"name", "lineage", "save", "variant", "suits", "deal", "moves", "score", "updated"},
	"results":  {"lineage", "variant", "suits", "won", "score", "at"},
	"settings": {"json"},
}

// hasSalvageTables reports whether the database db opens holds every
// salvageTables table with its columns.
func hasSalvageTables(ctx context.Context, db *sql.DB) bool {
	for table, columns := range salvageTables {
		var n int
		err := db.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info(?) WHERE name IN ('"+
			strings.Join(columns, "','")+"')", table).Scan(&n)
		if err != nil || n != len(columns) {
			return false
		}
	}
	return true
}

// classify reads the schema version of the database db opens and says
// what kind of file it is. The version alone does not make it
// cardtable's: PRAGMA user_version is any program's to set, and another
// program's database at 1 to Version() would be taken for an old
// cardtable's and migrated. So a version this program knows also needs
// the tables and columns cardtable's schema has at that version
// (hasVersionSchema); without them the file has no cardtable schema. A
// table of cardtable's name alone is not enough: games is any program's
// name, and migrating such a file fails half way, in SQLite's words.
func classify(ctx context.Context, db *sql.DB) fileClass {
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return sqliteFault(err)
	}
	switch {
	case version < 1:
		// A salvage's file (docs/api.md) before its version is set.
		return fileClass{kind: kindNoSchema, version: version, unversioned: hasSalvageTables(ctx, db)}
	case version > Version():
		return fileClass{kind: kindNewer, version: version}
	}
	ours, err := hasVersionSchema(ctx, db, version)
	if err != nil {
		return sqliteFault(err)
	}
	if !ours {
		return fileClass{kind: kindNoSchema, version: version}
	}
	return fileClass{kind: kindCardtable, version: version}
}

// sqliteFault classifies SQLite's refusal to read a file as a database.
func sqliteFault(err error) fileClass {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB:
			return fileClass{kind: kindNotSQLite, err: err}
		case sqlite3.SQLITE_CORRUPT:
			return fileClass{kind: kindDamaged, err: err}
		}
	}
	return fileClass{kind: kindUnreadable, err: err}
}
