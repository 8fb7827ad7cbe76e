//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"cardtable/internal/store"
)

// TestRestoreOwners: restore as docs/operating.md runs it. As root, from
// a backup in a folder only root may read (/backups, mode 0700), onto a
// new machine: the restored database is its folder's user's (systemd's
// StateDirectory= gives that folder to the service's user). As a user
// who owns the database but is not in its group (nobody:root, set by
// root), restore goes ahead and keeps them the owner. Making files of
// another user, and running restore as them, needs root.
func TestRestoreOwners(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to make files of another user and run restore as them")
	}
	const nobody, nogroup = 65534, 65534
	ctx := context.Background()
	// Not t.TempDir: its parent is the test's own, which nobody may not
	// enter.
	top, err := os.MkdirTemp("", "restoreowners")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	backups, state := filepath.Join(top, "backups"), filepath.Join(top, "state")
	if err := os.Mkdir(backups, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(state, nobody, nogroup); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(top, "src.db")
	s, err := store.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	backup := filepath.Join(backups, "cardtable-2026-11-20.db")
	if _, errOut, code := run(t, "", "backup", "--db", src, "--to", backup); code != exitOK {
		t.Fatalf("backup: exit %d, %s", code, errOut)
	}
	db := filepath.Join(state, "cardtable.db")
	wantOwner := func(uid, gid int) {
		t.Helper()
		fi, err := os.Stat(db)
		if err != nil {
			t.Fatal(err)
		}
		if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != uid || int(st.Gid) != gid {
			t.Fatalf("the restored database is %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
		}
	}

	if _, errOut, code := run(t, "", "restore", "--db", db, "--from", backup); code != exitOK {
		t.Fatalf("restore as root onto a new machine: exit %d, %s", code, errOut)
	}
	wantOwner(nobody, nogroup)

	// restore as nobody, in groups nogroup and users: this test binary
	// acting as cardtable, a copy where nobody may run it.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(top, "cardtable")
	if err := os.Link(self, bin); err != nil { // a copy, only across file systems
		b, err := os.ReadFile(self)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	theirs := filepath.Join(state, "backup.db")
	if _, errOut, code := run(t, "", "backup", "--db", src, "--to", theirs); code != exitOK {
		t.Fatalf("backup: exit %d, %s", code, errOut)
	}
	if err := os.Chown(theirs, nobody, nogroup); err != nil {
		t.Fatal(err)
	}
	// nobody owns the database, root's group is its group, which nobody
	// may not give a file. (A second group of the owner's, kept by a
	// restore run by them: TestRestoreKeepsOwner in internal/store, run by
	// such a user; each run of this binary as nobody is a second here.)
	if err := os.Chown(db, nobody, 0); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "restore", "--db", db, "--from", theirs)
	cmd.Env = append(os.Environ(), asMain+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nogroup}}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || !strings.HasPrefix(out.String(), "restored "+db) {
		t.Fatalf("restore as nobody of a database nobody:root: %v, out %q, err %q", err, out.String(), errb.String())
	}
	wantOwner(nobody, nogroup)
}
