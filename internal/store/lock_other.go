//go:build !unix

package store

import (
	"errors"
	"io"
	"os"
)

// lockDB does nothing where flock and fcntl locks are missing: there, two
// servers on one database are not prevented.
func lockDB(*os.File, string) (io.Closer, error) { return nil, nil }

// holdShared is not available here: a file overwritten in place under the
// server may get the server's last WAL pages checkpointed into it at Close.
func holdShared(*os.File) (func(), error) {
	return func() {}, errors.New("no open-file-description locks on this platform")
}

// sideInUse cannot tell here whether another process has the -shm open.
func sideInUse(string) error { return nil }

// dropMadeShm leaves the -shm a read-only look made: without
// open-file-description locks it cannot be told here that no connection
// uses it (a classic POSIX lock taken by this process would be dropped
// by SQLite's closing any of its own descriptors on the file).
func dropMadeShm(string) {}
