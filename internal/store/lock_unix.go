//go:build unix && !linux

package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// lockDB takes an exclusive flock on a lock file beside the database,
// named after its real path (symlinks resolved), so a symlink or another
// spelling of the path finds the same lock. On the BSDs and macOS flock and
// POSIX locks interact, so locking the database file itself as on Linux
// would block SQLite's own locks; a hard link under another name is
// therefore not caught here. The kernel drops the lock when the process
// dies, kill -9 included; the returned file holds it until closed.
func lockDB(_ *os.File, path string) (io.Closer, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(real+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		err = errInUse
	}
	if err != nil {
		lock.Close()
		return nil, err
	}
	return lock, nil
}

// holdShared is not available here: a file overwritten in place under the
// server may get the server's last WAL pages checkpointed into it at Close.
func holdShared(*os.File) (func(), error) {
	return func() {}, errors.New("no open-file-description locks on this platform")
}

// sideInUse cannot tell here whether another process has the -shm open.
func sideInUse(string) error { return nil }
