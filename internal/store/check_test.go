package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckCopy: which files db copy may read from and write into, told
// before any is opened for writing. A source must have cardtable's
// schema; a target may be nothing yet, or an SQLite file with nothing in
// it (an empty file, or one with a header and no schema), but not another
// program's database, a directory, or a path through a file.
func TestCheckCopy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, good := openTemp(t)
	db.Close()
	file := func(name string, stmts string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if stmts == "" {
			return p
		}
		s, err := sql.Open("sqlite", "file:"+p)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.Exec(stmts); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := file("empty.db", "")
	header := file("header.db", "PRAGMA application_id = 7")
	other := file("other.db", "CREATE VIEW v AS SELECT 1")
	afile := file("afile", "")
	if fi, err := os.Stat(header); err != nil || fi.Size() == 0 {
		t.Fatalf("the header-only file: %v, %v", fi, err)
	}
	for _, tc := range []struct {
		path string
		want error
	}{{good, nil}, {empty, ErrNotCardtable}, {header, ErrNotCardtable}, {other, ErrNotCardtable}} {
		if err := CheckCopySource(ctx, tc.path); !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
			t.Errorf("source %s: %v, want %v", filepath.Base(tc.path), err, tc.want)
		}
	}
	for _, tc := range []struct {
		path string
		want error
	}{
		{good, nil}, {empty, nil}, {header, nil},
		{filepath.Join(dir, "new.db"), nil}, {filepath.Join(dir, "newdir", "new.db"), ErrBadPath},
		{other, ErrNotCardtable},
		{dir, ErrBadPath}, {filepath.Join(afile, "x.db"), ErrBadPath}, {filepath.Join(afile, "sub", "x.db"), ErrBadPath},
	} {
		if err := CheckCopyTarget(ctx, tc.path); !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
			t.Errorf("target %s: %v, want %v", tc.path, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "newdir")); err == nil {
		t.Error("checking a target made its directory")
	}
}
