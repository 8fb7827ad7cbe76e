package cli

import (
	"path/filepath"
	"testing"
)

// TestRootServeErrorsReadAsServe: the root command serves, and an error
// it meets serving reads as serve's, whichever of the two was typed
// (docs/cli.md); an error of how it was called stays the root's.
func TestRootServeErrorsReadAsServe(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nodir", "x.db")
	want := "cardtable: serve: the directory " + filepath.Dir(missing) + " does not exist: create it first\n"
	for _, args := range [][]string{
		{"--addr", "127.0.0.1:0", "--db", missing},
		{"serve", "--addr", "127.0.0.1:0", "--db", missing},
	} {
		if _, errOut, code := run(t, "", args...); code != exitUsage || errOut != want {
			t.Errorf("%v: exit %d, %q; want exit 2, %q", args[0], code, errOut, want)
		}
	}
	if _, errOut, code := run(t, "", "--nope"); code != exitUsage || errOut[:len("cardtable: unknown flag")] != "cardtable: unknown flag" {
		t.Errorf("--nope: exit %d, %q; want the root's own words", code, errOut)
	}
}

// TestServeDBDirectory: a --db that names a directory is bad input (exit
// 2) told in one sentence that says what to name instead; it was exit 1,
// "store: open DIR: is a directory". The error lines of serve's database
// carry no Go package's name ("store: ").
func TestServeDBDirectory(t *testing.T) {
	dir := t.TempDir()
	want := "cardtable: serve: " + dir + " is a directory, not a database file: name a file, such as " + filepath.Join(dir, "cardtable.db") + "\n"
	if _, errOut, code := run(t, "", "serve", "--addr", "127.0.0.1:0", "--db", dir); code != exitUsage || errOut != want {
		t.Errorf("exit %d, %q; want exit 2, %q", code, errOut, want)
	}
}
