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
