package cli

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestServeClosesDatabase: once serve has returned, no connection of its
// own still has the database open: a supervisor that starts it again at
// once finds the database free. (An SQLite connection holds a read lock
// on the -shm's byte 128 while it is open; the next server refuses a
// database whose -shm another holds.) It returned before a transaction
// its stop cut short had given its connection back, 8 stops in 100.
func TestServeClosesDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", db)
	s.stop()
	select {
	case code := <-s.done:
		s.done <- code
	case <-time.After(15 * time.Second):
		t.Fatalf("serve still running 15 s after a signal: %s", s.log)
	}
	if shmHeld(t, db) {
		t.Fatalf("serve returned with its database's -shm still open: %s", s.log)
	}
}

// shmHeld says whether a connection still has path's -shm open (as
// store's sideInUse asks).
func shmHeld(t *testing.T, path string) bool {
	f, err := os.Open(path + "-shm")
	if os.IsNotExist(err) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart, Start: 128, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		t.Fatal(err)
	}
	return lk.Type != syscall.F_UNLCK
}
