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

// sharedFirst is the first byte of SQLite's shared-lock range.
const sharedFirst = 0x40000002

// holdShared takes a read lock on a byte of SQLite's shared range through
// f (an open-file-description lock, which conflicts with SQLite's own
// locks even in this process), so SQLite cannot take the exclusive lock it
// checkpoints under when its last connection closes. The returned func
// releases it.
func holdShared(f *os.File) (func(), error) {
	lk := syscall.Flock_t{Type: syscall.F_RDLCK, Whence: io.SeekStart, Start: sharedFirst, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk); err != nil {
		return func() {}, err
	}
	return func() {
		lk.Type = syscall.F_UNLCK
		syscall.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
	}, nil
}

// shmDMS is the byte of the -shm file every SQLite connection using it
// holds a read lock on (its "dead man switch").
const shmDMS = 128

// sideInUse reports whether some process, this one included, still has
// SQLite's -shm beside path open: a server whose database file was
// swapped away still uses the -wal and -shm at the path, and a database
// put there must not meet them.
func sideInUse(path string) error {
	f, err := os.Open(path + "-shm")
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart, Start: shmDMS, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		return nil // no answer (an old kernel): not known to be in use
	}
	if lk.Type != syscall.F_UNLCK {
		return &sideInUseError{path: path}
	}
	return nil
}
