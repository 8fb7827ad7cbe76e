//go:build linux

package store

import (
	"errors"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// lockByte is the byte of the database file the lock covers. SQLite's own
// POSIX locks sit at 0x40000000-0x400001FF (the pending byte, the reserved
// byte and the shared range); this byte, just below, is never locked by
// SQLite, so the two never meet.
const lockByte = 0x3FFFFFFF

// lockDB takes an exclusive lock on the database file f itself, so it holds
// however the file is reached: a symlink, a hard link or another spelling
// of the path all reach the same inode. It is an open-file-description lock
// (F_OFD_SETLK): unlike a classic POSIX lock it is not dropped when SQLite
// closes one of its own descriptors on the file, and unlike flock it stays
// a byte-range lock on NFS, where Linux emulates flock as a whole-file lock
// that would collide with SQLite's locks. The kernel drops it when f is
// closed or the process dies, kill -9 included. Nothing else needs closing.
func lockDB(f *os.File, _ string) (io.Closer, error) {
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart, Start: lockByte, Len: 1}
	err := syscall.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk) // Linux 3.15 and later
	if errors.Is(err, syscall.EINVAL) {
		// A kernel before 3.15: flock on the same file, which does not
		// touch SQLite's POSIX locks on a local file system.
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, errInUse
	}
	return nil, err
}
