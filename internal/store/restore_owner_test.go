//go:build unix

package store

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// otherOwner is an owner and group a restore run by this user may give a
// file, other than those its new files get: as root, another user and
// group; as anyone else, their own user and a second group of theirs
// (an owner may give their file any group they are in).
func otherOwner(t *testing.T) (uid, gid int) {
	if os.Geteuid() == 0 {
		return 65534, 65533
	}
	groups, err := os.Getgroups()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if g != os.Getegid() {
			return os.Geteuid(), g
		}
	}
	t.Skip("this user is in one group alone: no other owner or group to give a file")
	return 0, 0
}

func ownerOf(t *testing.T, path string) (uid, gid int) {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return int(st.Uid), int(st.Gid)
}

// TestRestoreKeepsOwner: the restored file gets the owner and group of
// the database it replaces, so that the service's user can still open it
// after a restore run as root (it was left root's, mode 0600, and the
// server could not start on it); with no database there before (a new
// machine), those of its folder, which systemd's StateDirectory= gives to
// the service's user.
func TestRestoreKeepsOwner(t *testing.T) {
	ctx := context.Background()
	uid, gid := otherOwner(t)
	// One database made: it is backed up, then replaced by its backup.
	path := filepath.Join(t.TempDir(), "ct.db")
	backup := filepath.Join(t.TempDir(), "backup.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	fillSaves(t, db, 2)
	db.Close()
	if err := Backup(ctx, path, backup); err != nil {
		t.Fatal(err)
	}
	t.Run("replaced", func(t *testing.T) {
		if err := os.Chown(path, uid, gid); err != nil {
			t.Fatal(err)
		}
		if _, err := Restore(ctx, path, backup); err != nil {
			t.Fatal(err)
		}
		if u, g := ownerOf(t, path); u != uid || g != gid {
			t.Fatalf("the restored file is owned by %d:%d, want the old database's %d:%d", u, g, uid, gid)
		}
	})
	t.Run("new", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "ct.db")
		if _, err := Restore(ctx, path, backup); err != nil {
			t.Fatal(err)
		}
		if u, g := ownerOf(t, path); u != uid || g != gid {
			t.Fatalf("the restored file is owned by %d:%d, want its folder's %d:%d", u, g, uid, gid)
		}
	})
}
