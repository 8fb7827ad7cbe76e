//go:build unix

package store

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// ownLike gives the file name the owner and group of fi's file where they
// differ from its own: a restore run as root (systemctl stop, then
// cardtable restore) would otherwise leave a database only root may
// open, and the service's user could not start on it. A refused change
// of the group alone (the user running it owns the file already, but is
// not in fi's group) is no error: the database is its owner's alone (mode
// 0600), so the group opens nothing and the file stays theirs.
func ownLike(name string, fi os.FileInfo) error {
	want, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	have, err := os.Stat(name)
	if err != nil {
		return err
	}
	st, ok := have.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	uid, gid := int(want.Uid), int(want.Gid)
	if st.Uid == want.Uid {
		uid = -1
	}
	if st.Gid == want.Gid {
		gid = -1
	}
	if uid == -1 && gid == -1 {
		return nil
	}
	err = os.Chown(name, uid, gid)
	if uid == -1 && errors.Is(err, fs.ErrPermission) {
		return nil
	}
	return err
}
