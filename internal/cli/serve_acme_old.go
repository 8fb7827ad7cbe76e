package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/crypto/acme/autocert"

	"cardtable/internal/dbcopy"
)

// The acme/ directory of earlier versions (dbCache.old): what of it is
// moved into the database at start, and how an entry is read from it.

// acmeAccountKey is autocert's key of the ACME account's private key.
const acmeAccountKey = "acme_account+key"

// ownKey: name is an entry autocert keeps for these domains: the account
// key, or a domain's certificate (ECDSA, or "+rsa" for the clients that
// offer only RSA). Anything else in the directory (a README, .DS_Store,
// a backup copy, a dropped domain's certificate, a challenge's answer,
// DirCache's unfinished files) is not.
func ownKey(name string, domains []string) bool {
	if name == acmeAccountKey {
		return true
	}
	// autocert's keys are the names as configured: lower case.
	return slices.Contains(domains, strings.TrimSuffix(name, "+rsa"))
}

// moveOld moves autocert's entries of the directory of earlier versions
// (ownKey; symbolic links followed) into the database, where the database
// lacks them: the account key and the certificates autocert reads only
// when it orders or renews (the account key, a +rsa certificate) would
// otherwise stay there, and deleting the directory would make a new
// account. An entry the database has is kept: it is newer. Refusals (an
// entry too big, not a file, a dangling link, the database's) are logged
// once, with their count; they are read from the directory again when
// needed (Get).
func (c dbCache) moveOld(ctx context.Context) {
	if c.old == "" {
		return
	}
	ents, err := os.ReadDir(string(c.old))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && c.log != nil {
			c.log.Warn("ACME certificate cache: the directory of earlier versions not read", "dir", string(c.old), "err", err)
		}
		return
	}
	var moved, refused int
	var firstErr error
	for _, e := range ents {
		key := e.Name()
		if !ownKey(key, c.domains) {
			continue
		}
		err := c.moveOne(ctx, key)
		switch {
		case err == nil:
			moved++
		case err != errNothingToMove:
			refused++
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	if c.log == nil {
		return
	}
	if moved > 0 {
		c.log.Info("ACME certificate cache: entries of the directory of earlier versions moved into the database", "dir", string(c.old), "moved", moved)
	}
	if refused > 0 {
		c.log.Warn("ACME certificate cache: entries of the directory of earlier versions not moved into the database; keep the directory",
			"dir", string(c.old), "refused", refused, "err", firstErr)
	}
}

// errNothingToMove: the database has the entry already.
var errNothingToMove = errors.New("in the database already")

// moveOne stores the old directory's entry key in the database unless the
// database has one.
func (c dbCache) moveOne(ctx context.Context, key string) error {
	_, found, err := c.db.ACMEGet(ctx, key)
	if err != nil {
		return err
	}
	if found {
		return errNothingToMove
	}
	data, err := c.readOld(key)
	if err != nil {
		return fmt.Errorf("reading %q from %s: %w", key, string(c.old), err)
	}
	if err := c.db.ACMEPut(ctx, key, data); err != nil {
		return fmt.Errorf("moving %q from %s into the database: %w", key, string(c.old), err)
	}
	return nil
}

// readOld is the old directory's entry key, read as DirCache reads it but
// bounded: a symbolic link is followed, and a file that is not regular
// or is bigger than an entry may be is refused before it is read (a
// FIFO would block, a huge file would be held in memory whole). It is
// opened without blocking and checked once open, so a FIFO put in its
// place after a look cannot hang the start.
// autocert.ErrCacheMiss when there is none.
func (c dbCache) readOld(key string) ([]byte, error) {
	name := filepath.Join(string(c.old), key)
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, autocert.ErrCacheMiss
	case err != nil:
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file (%s)", name, fi.Mode().Type())
	case fi.Size() > dbcopy.ACMEMaxBytes:
		return nil, fmt.Errorf("%s: %d bytes, more than %d: %w", name, fi.Size(), dbcopy.ACMEMaxBytes, dbcopy.ErrACMETooBig)
	}
	data, err := io.ReadAll(io.LimitReader(f, dbcopy.ACMEMaxBytes+1))
	if err == nil && len(data) > dbcopy.ACMEMaxBytes { // grew since the Stat
		err = fmt.Errorf("%s: more than %d bytes: %w", name, dbcopy.ACMEMaxBytes, dbcopy.ErrACMETooBig)
	}
	return data, err
}
