package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// symlink makes a symbolic link at link to to, or skips the test where
// the system has none.
func symlink(t *testing.T, to, link string) {
	t.Helper()
	if err := os.Symlink(to, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// TestOpenCopyTargetLinkInLinkedDir: a link reached through a linked
// directory, whose target climbs with "..", names the file the kernel
// names: ".." from the directory the link is in, not from the path it
// was reached by. The file was made beside the linked directory's name,
// and the link still led nowhere.
func TestOpenCopyTargetLinkInLinkedDir(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join("real", "b"), filepath.Join(dir, "a"))
	symlink(t, filepath.Join("..", "x.db"), filepath.Join(dir, "real", "b", "l"))
	to := filepath.Join(dir, "a", "l")
	if err := CheckCopyTarget(ctx, to); err != nil {
		t.Fatal(err)
	}
	db, err := OpenCopyTarget(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(to); err != nil {
		t.Errorf("the link still leads nowhere: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "real", "x.db")); err != nil {
		t.Errorf("no file at the link's target: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "x.db")); err == nil {
		t.Error("the file was made beside the linked directory's name")
	}
}

// TestCheckCopyTargetPath: a --to whose directory cannot be made or
// written in, and one whose symbolic links loop or run through a file,
// are refused by the check, before anything is opened, as bad paths in
// words of their own, with nothing made. Each was found only when the
// target was opened (after the source: "mkdir s: file exists", "is
// read-only"), or by a raw stat error.
func TestCheckCopyTargetPath(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	afile := filepath.Join(dir, "afile")
	if err := os.WriteFile(afile, []byte("a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The links in a directory of their own: files reads each file.
	ln := filepath.Join(dir, "ln")
	if err := os.Mkdir(ln, 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "nowhere", filepath.Join(ln, "s"))
	symlink(t, "/proc/1/nope/x.db", filepath.Join(ln, "toproc"))
	symlink(t, "l2", filepath.Join(ln, "l1"))
	symlink(t, "l1", filepath.Join(ln, "l2"))
	symlink(t, filepath.Join("..", "afile", "x.db"), filepath.Join(ln, "thru"))
	cases := []struct{ to, want string }{
		{"/proc/1/nope/x.db", "/proc/1/nope/x.db: the directory /proc/1/nope does not exist: create it first"},
		{filepath.Join(ln, "toproc"), filepath.Join(ln, "toproc") + ": the directory /proc/1/nope does not exist: create it first"},
		{filepath.Join(ln, "s", "x.db"), filepath.Join(ln, "s", "x.db") + ": the directory " + filepath.Join(ln, "s") + " is a symbolic link to nothing there"},
		{filepath.Join(ln, "l1"), filepath.Join(ln, "l1") + " cannot be a database file: its symbolic links make a loop"},
		{filepath.Join(ln, "thru"), filepath.Join(ln, "thru") + " cannot be a database file: it is a symbolic link through a file"},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct{ to, want string }{filepath.Join(ro, "x.db"), filepath.Join(ro, "x.db") + ": cannot write in the directory " + ro + ": permission denied"})
	}
	before, links := files(t, dir), names(t, ln)
	for _, tc := range cases {
		err := CheckCopyTarget(ctx, tc.to)
		if !errors.Is(err, ErrBadPath) || !strings.HasPrefix(err.Error(), tc.want) || !strings.HasSuffix(err.Error(), "; nothing changed") {
			t.Errorf("%s: %v; want ErrBadPath, %q", tc.to, err, tc.want)
		}
	}
	sameFiles(t, dir, before)
	if now := names(t, ln); strings.Join(now, " ") != strings.Join(links, " ") {
		t.Errorf("links now %v, were %v", now, links)
	}
}

// names is the names in dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range ents {
		n = append(n, e.Name())
	}
	return n
}
