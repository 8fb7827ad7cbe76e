//go:build unix

package store

import (
	"os"
	"syscall"
)

// links is the number of names (hard links) fi's file has; 0 once deleted.
func links(fi os.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true
}

// ownLike gives the file name the owner and group of fi's file when they
// differ from its own: a restore run as root (systemctl stop, then
// cardtable restore) would otherwise leave a database only root may
// open, and the service's user could not start on it.
func ownLike(name string, fi os.FileInfo) error {
	want, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	have, err := os.Stat(name)
	if err != nil {
		return err
	}
	if st, ok := have.Sys().(*syscall.Stat_t); ok && st.Uid == want.Uid && st.Gid == want.Gid {
		return nil
	}
	return os.Chown(name, int(want.Uid), int(want.Gid))
}
