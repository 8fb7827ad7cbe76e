package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"cardtable/internal/spidergame"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors Open and the write path classify the database file by.
var (
	// errInUse: another cardtable process has the database open.
	errInUse = errors.New("in use by another cardtable server (one server per database): stop the other one first, or use another database file")
	// ErrReadOnly: cardtable cannot write the database file or its directory.
	ErrReadOnly = errors.New("read-only")
	// ErrCorrupt: the database file failed SQLite's quick check (Open),
	// or SQLite found it damaged while reading it (Backup's source).
	ErrCorrupt = errors.New("damaged")
	// ErrReplaced: the database file was deleted, renamed away or replaced
	// under the running server. Writes are refused from then on, since they
	// would go to a file no longer at the path and be lost at the next
	// start; only a restart (opening the file now at the path) clears it.
	ErrReplaced = spidergame.ErrReplaced
)

// sideInUseError: the -shm beside path is open in a process that holds
// no lock on the database file at path, a server whose file was swapped
// away (swap.go). It is errInUse, with why.
type sideInUseError struct{ path string }

// swappedServer says which server keeps a -shm in use.
const swappedServer = "(a server whose database file was renamed or replaced still uses the -wal and -shm beside it)"

func (e *sideInUseError) Error() string {
	return fmt.Sprintf("%s-shm is %v %s: stop that server first", e.path, errInUse, swappedServer)
}

func (e *sideInUseError) Unwrap() error { return errInUse }

// dbFile is the database file held open by the server: its descriptor
// carries the lock, and the path is compared with it before and after each
// write transaction.
type dbFile struct {
	path string
	f    *os.File
	lock io.Closer // a separate lock file, where the platform needs one
	// opened is f as opened: its device and inode are what the path must
	// still name.
	opened os.FileInfo

	mu   sync.Mutex
	lost error  // set once the file was swapped; sticky
	why  string // how it was swapped, with lost
	// inPlace: the swap was an overwrite of f itself (swap.go).
	inPlace bool
	// last is f's modification time and size after this process's own
	// latest change to it (swap.go). copying: a checkpoint of ours, its
	// check passed, is changing f now and has not noted it yet.
	last    fileStamp
	copying bool
	// ckptMu makes the store's checkpoints (and retire) one at a time. It
	// is taken before mu, never while mu is held: a write's check takes
	// only mu, so it never waits for a checkpoint.
	ckptMu sync.Mutex
	// wal and shm are SQLite's -wal and -shm files beside f as the store
	// opened them, so that only those are ever removed (swap.go).
	wal, shm os.FileInfo
	// private: the files were made readable by their owner alone (private).
	private bool
}

// openFile opens and locks the database file at path (creating it, in a
// directory that must exist) and checks that cardtable can write it and create
// SQLite's -wal and -shm files beside it.
//
// A database this process already holds is refused before anything is
// opened (held): closing a descriptor on it, or on its -wal or -shm, would
// drop SQLite's POSIX locks on them.
func openFile(path string) (*dbFile, error) {
	if err := heldHere(path); err != nil {
		return nil, err
	}
	// A missing directory is a mistyped path, never made here: made, it
	// would hold an empty database and the operator would see every game
	// gone. The default data folder is made by the caller (MakeDefaultDir).
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, missingDir(dir, err)
	}
	// The owner's alone: it holds players' identities and, with --acme,
	// private keys. SQLite gives its -wal and -shm the same mode.
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if errors.Is(err, syscall.EISDIR) {
		return nil, badPath(plainError{msg: fmt.Sprintf("%s is a directory, not a database file: name a file, such as %s",
			path, filepath.Join(path, "cardtable.db")), err: err})
	}
	if err != nil {
		return nil, readOnly(path, err)
	}
	lock, err := lockDB(f, path)
	if err != nil {
		// Closing a descriptor drops every POSIX lock this process holds on
		// the file, SQLite's included: harmless unless this same process
		// already has the database open, which a server never does.
		f.Close()
		if errors.Is(err, errInUse) {
			return nil, fmt.Errorf("%s is %w", path, err)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	d := &dbFile{path: path, f: f, lock: lock}
	// The lock is the file's; the -wal and -shm go by the path. A server
	// whose file was swapped away may still have those open (swap.go).
	if err := sideInUse(path); err != nil {
		d.Close()
		return nil, err
	}
	if d.opened, err = f.Stat(); err != nil {
		d.Close()
		return nil, err
	}
	if err := d.writable(); err != nil {
		d.Close()
		return nil, err
	}
	held.add(d)
	return d, nil
}

// held is the set of database files this process has open, so that no
// second open of one (nor of the -wal and -shm by its path) ever happens
// here: see openFile. Its mutex also guards each file's wal and shm.
var held = heldFiles{files: map[*dbFile]bool{}}

type heldFiles struct {
	mu    sync.Mutex
	files map[*dbFile]bool
}

func (h *heldFiles) add(d *dbFile) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.files[d] = true
}

func (h *heldFiles) remove(d *dbFile) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.files, d)
}

// heldHere refuses a database this process holds, by stat alone: the
// same file by any name, or a path whose -shm is one a held store still
// uses (its file was swapped away and it has not yet let go of the -wal
// and -shm at the path: swap.go).
func heldHere(path string) error {
	abs, _ := filepath.Abs(path)
	now, err := os.Stat(path)
	shm, shmErr := os.Stat(path + "-shm")
	held.mu.Lock()
	defer held.mu.Unlock()
	for d := range held.files {
		if err == nil && os.SameFile(d.opened, now) {
			return fmt.Errorf("%s is %w", path, errInUse)
		}
		dAbs, _ := filepath.Abs(d.path)
		if (d.shm == nil && dAbs == abs) || (d.shm != nil && shmErr == nil && os.SameFile(d.shm, shm)) {
			return &sideInUseError{path: path}
		}
	}
	return nil
}

// writable checks, after the lock is taken and before SQLite opens the
// database, what SQLite will need to write
// besides the database file: its directory (where the -wal and -shm files
// are created) and those files if they exist. A read-only database found
// here is refused at start, rather than failing every write later.
func (d *dbFile) writable() error {
	for _, side := range []string{d.path + "-wal", d.path + "-shm"} {
		f, err := os.OpenFile(side, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return readOnly(side, err)
		}
		// No locks of ours on it (SQLite has not opened it in this process:
		// openFile refuses a held database), so closing drops nothing. Never
		// call this once SQLite has the database open (Ping does not).
		f.Close()
	}
	probe, err := os.CreateTemp(filepath.Dir(d.path), ".cardtable-probe-*")
	if err != nil {
		return readOnly(filepath.Dir(d.path), err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// readOnly explains a failure to open or create name for writing.
func readOnly(name string, err error) error {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		why := err
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			why = pe.Err
		}
		return fmt.Errorf("%s is %w (%v): cardtable must write its database, its directory and the -wal and -shm files beside it; make them writable by this user, or use another database file", name, ErrReadOnly, why)
	}
	return err
}

// check returns ErrReplaced if the database file was swapped: the path no
// longer names the open file (deleted, renamed away, another file put
// there), or the open file was overwritten in place (swap.go). Once
// found, it sticks. The usual case costs a stat of the path and an fstat
// of the file, compared with what they were.
func (d *dbFile) check() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.verify()
}

// startCopy is check for a checkpoint of ours (ckptMu held) about to
// change the file: if the file passes, it is marked as being copied into
// until noteOwnChange, in the same hold of mu (swap.go).
func (d *dbFile) startCopy() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	err := d.verify()
	d.copying = err == nil
	return err
}

// verify is check, with mu held.
func (d *dbFile) verify() error {
	if d.lost != nil {
		return d.lost
	}
	now, err := statPath(d.path)
	var why string
	if err == nil && os.SameFile(d.opened, now) {
		why = d.overwritten()
		if why == "" {
			return nil
		}
		d.inPlace = true
	} else {
		switch open, ferr := d.f.Stat(); {
		case ferr == nil && isDeleted(open):
			why = "deleted"
		case errors.Is(err, fs.ErrNotExist):
			// A restart at a path with no file makes a new, empty
			// database there: the operator is told where the games went.
			now := "its new name unknown"
			if name := openName(d.f); name != "" {
				now = "now " + name
			}
			why = "no file at the path any more: renamed or moved away (" + now +
				"): move it back to the path before the restart, which would otherwise start a new, empty database"
		case err != nil:
			return fmt.Errorf("checking %s: %w", d.path, err) // not conclusive: not kept
		default:
			why = "another file is now at the path"
		}
	}
	d.why = why
	d.lost = fmt.Errorf("%s: %w (%s): writes are refused until the server is restarted", d.path, ErrReplaced, why)
	return d.lost
}

// openName is the name f has now, as the kernel tells it (/proc on
// Linux; "" where that cannot be read): a file renamed under the server
// is still open by its descriptor.
func openName(f *os.File) string {
	rc, err := f.SyscallConn()
	if err != nil {
		return ""
	}
	var name string
	rc.Control(func(fd uintptr) {
		name, _ = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
	})
	return name
}

// statPath is verify's os.Stat of the path. statFault, set by a test
// only, is a fault injected into that real call: when it returns an
// error, the stat fails with it (a stat error proves nothing about the
// file). Atomic: the background checkpoint verifies while the test sets
// and clears it.
func statPath(path string) (os.FileInfo, error) {
	if f := statFault.Load(); f != nil {
		if err := (*f)(); err != nil {
			return nil, err
		}
	}
	return os.Stat(path)
}

var statFault atomic.Pointer[func() error]

// isDeleted reports whether fi's file has no names left.
func isDeleted(fi os.FileInfo) bool {
	n, ok := links(fi)
	return ok && n == 0
}

// Close releases the lock. Call it after SQLite's connections are closed.
func (d *dbFile) Close() error {
	held.remove(d)
	err := d.f.Close()
	if d.lock != nil {
		err = errors.Join(err, d.lock.Close())
	}
	return err
}

// quickCheck runs SQLite's PRAGMA quick_check (the integrity check without
// matching indexes to tables: linear in the file's size) and returns what
// it found wrong, if anything.
func quickCheck(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	var found []string
	bad := false
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		bad = bad || s != "ok"
		for _, line := range strings.Split(s, "\n") {
			// Keep the problems, not the "*** in database main ***" heading.
			if line != "ok" && !strings.HasPrefix(line, "*** ") && len(found) < 3 {
				found = append(found, line)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if bad {
		return fmt.Errorf("%w: %s", ErrCorrupt, strings.Join(found, "; "))
	}
	return nil
}

// damaged explains err if it says the database file is damaged or is not
// a database at all (and returns it unchanged otherwise): what was found,
// and what to do about it.
func damaged(path string, err error) error {
	var se *sqlite.Error
	notDB := false
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB:
			notDB = true
			err = fmt.Errorf("%w: %v", ErrCorrupt, err)
		case sqlite3.SQLITE_CORRUPT:
			err = fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	if !errors.Is(err, ErrCorrupt) {
		return err
	}
	const advice = "Do not delete it: move it aside (with its -wal and -shm files, if any) and " +
		"put a backup in its place, or leave it aside and start with an empty " +
		"database (the next start creates one). The sqlite3 shell's .dump command " +
		"can copy what is still readable into a new file (docs/api.md, \"A damaged database\")"
	if notDB {
		// Most likely the wrong file named, not a damaged one: said
		// first, without SQLite's "file is not a database (26)".
		return plainError{msg: fmt.Sprintf("%s is not an SQLite database: check that --db (or CARDTABLE_DB) names "+
			"the server's database. If it does, the file is damaged and cardtable will not use it. %s", path, advice), err: err}
	}
	return fmt.Errorf("%s is %w (SQLite's quick check: %v). cardtable will not use it. %s",
		path, ErrCorrupt, strings.TrimPrefix(err.Error(), ErrCorrupt.Error()+": "), advice)
}

// prepare runs the quick check and the migrations, explaining a damaged
// file.
func (db *DB) prepare(ctx context.Context) error {
	if prepareHook != nil {
		prepareHook()
	}
	err := quickCheck(ctx, db.w)
	if err == nil {
		// Before the migrations: their commit meets the WAL's backstop
		// (checkpoint.go), which counts in pages. Read after the pools
		// were open, it was 0 during the migrations, and every one of
		// them was followed by a checkpoint: three fsyncs each.
		err = db.w.QueryRowContext(ctx, "PRAGMA page_size").Scan(&db.pageSize)
	}
	if err == nil {
		err = db.limitWAL(ctx)
	}
	if err == nil {
		err = db.migrate(ctx)
	}
	if err == nil {
		err = db.foldNames(ctx)
	}
	if err == nil {
		return nil
	}
	if d := damaged(db.file.path, err); errors.Is(d, ErrCorrupt) {
		return fmt.Errorf("store: %w", d)
	}
	return fmt.Errorf("store: %s: %w", db.file.path, err)
}

// prepareHook, set by tests only, runs in open before the quick check.
var prepareHook func()

// makePrivate makes the database file and its -wal and -shm readable by
// their owner alone, if they are not yet: the store calls it before it
// first writes a private key (acme.go), since a file made by an earlier
// version, or copied in, may be readable by others.
func (d *dbFile) makePrivate() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.private {
		return nil
	}
	// The file by its descriptor (the one locked), the -wal and -shm by
	// their paths: opening them would drop SQLite's locks when closed.
	fi, err := d.f.Stat()
	if err == nil {
		err = ownerOnly(fi, d.f.Chmod)
	}
	if err != nil {
		return err
	}
	for _, side := range []string{d.path + "-wal", d.path + "-shm"} {
		fi, err := os.Stat(side)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			err = ownerOnly(fi, func(m fs.FileMode) error { return os.Chmod(side, m) })
		}
		if err != nil {
			return err
		}
	}
	d.private = true
	return nil
}

// ownerOnly takes the group's and others' permissions away from the file
// whose mode is fi's, by chmod, if it has any.
func ownerOnly(fi fs.FileInfo, chmod func(fs.FileMode) error) error {
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return chmod(perm &^ 0o077)
	}
	return nil
}
