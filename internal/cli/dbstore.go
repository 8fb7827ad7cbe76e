package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"cardtable/internal/dbcopy"
	"cardtable/internal/pgstore"
	"cardtable/internal/spidergame"
	"cardtable/internal/store"
	"cardtable/internal/table"
)

// serverStore is what a server needs of its database; both stores have it.
type serverStore interface {
	spidergame.Store
	table.Store
	table.Pruner
	table.Rater
	dbcopy.Store
	acmeStore
	CountGames(ctx context.Context) (int, error)
	// Ping is the readiness check's (web.Pinger).
	Ping(ctx context.Context) error
	Close() error
}

var (
	_ serverStore = (*store.DB)(nil)
	_ serverStore = (*pgstore.DB)(nil)
)

// openStore opens the database a --db value names: a postgres:// (or
// postgresql://) URL is PostgreSQL, anything else a SQLite file; with the
// named saves a player may keep (0: the default). It also returns the
// value to show (a URL without its password). log is the server's logger
// (nil: slog's default), the store's from the start.
func openStore(ctx context.Context, log *slog.Logger, db string, saves int, saveBytes int64) (serverStore, string, error) {
	if pgstore.IsURL(db) {
		s, err := pgstore.Open(ctx, db)
		if err != nil {
			return nil, pgstore.Redact(db), err // a nil *DB is not a nil interface
		}
		s.SetSaveQuota(pgstore.SaveQuota{Count: saves, Bytes: saveBytes})
		if log != nil {
			s.SetLogger(log)
		}
		return s, pgstore.Redact(db), nil
	}
	s, err := store.OpenLogged(ctx, db, log)
	if err != nil {
		return nil, db, err
	}
	s.SetSaveQuota(store.SaveQuota{Count: saves, Bytes: saveBytes})
	return s, db, nil
}

// notAddress refuses, as bad usage, a database flag's value that looks
// like a PostgreSQL address but is not a postgres:// URL
// (pgstore.LooksLikeAddress), in words that do not repeat the value: it
// may hold a password.
func notAddress(cmd, flag, db string) error {
	if pgstore.LooksLikeAddress(db) {
		return flagErr("%s: %s looks like a PostgreSQL address but is not a postgres:// URL: "+
			"give postgres://USER@HOST/DB, the scheme in lower case, a password after USER: (the host=H password=P form is not taken)", cmd, flag)
	}
	return nil
}

// openErr makes a database that cannot be opened for what the user can
// fix bad input (exit status 2): another program's file, refused
// untouched, a directory that does not exist (the wrong --db, nothing
// made), or a database a newer cardtable made (also refused untouched,
// as backup and db copy refuse it), told what to do about it.
func openErr(err error) error {
	err = reworded{strings.TrimPrefix(strings.TrimPrefix(err.Error(), "store: "), "pgstore: "), err}
	if errors.Is(err, store.ErrNewer) {
		return badInput(fmt.Errorf("%w: serve it with that version; nothing changed", err))
	}
	if errors.Is(err, store.ErrNotCardtable) || errors.Is(err, store.ErrBadPath) {
		return badInput(err)
	}
	return err
}

// sqliteOnly refuses a PostgreSQL URL for a command that works on the
// SQLite file alone, saying what to use instead; flag is how a refusal
// names where db came from.
func sqliteOnly(cmd, flag, db, instead string) error {
	if err := notAddress(cmd, flag, db); err != nil {
		return err
	}
	if pgstore.IsURL(db) {
		return usageErr("%s: %s names a PostgreSQL database, and cardtable %s works on a SQLite file: %s", cmd, flag, cmd, instead)
	}
	return nil
}

// runDBCopy is `cardtable db copy --from SRC --to DST`: the whole database
// SRC copied into DST (each a --db value: a SQLite file or a postgres://
// URL), which must be empty, then checked table by table.
func runDBCopy(fs *pflag.FlagSet) runFunc {
	from := fs.String("from", "", "the database to copy: a SQLite file, or postgres://USER@HOST/DB")
	to := fs.String("to", "", "the new database to copy into (empty or not yet there): a SQLite file, or postgres://...")
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("db copy: unexpected argument %q", pos[0])
		}
		if *from == "" || *to == "" {
			return flagErr("db copy: --from and --to are both needed")
		}
		for flag, v := range map[string]string{"--from": *from, "--to": *to} {
			if err := notAddress("db copy", flag, v); err != nil {
				return err
			}
		}
		if *from == *to {
			return flagErr("db copy: --from and --to name the same database")
		}
		if !pgstore.IsURL(*from) {
			// Opening a missing file would make an empty database and
			// copy nothing, "successfully": a mistyped source.
			if fi, err := os.Stat(*from); err != nil || !fi.Mode().IsRegular() {
				return usageErr("db copy: no database at %s: --from names an existing SQLite file or a postgres:// URL", *from)
			}
		}
		// Both sides are checked before either is opened: opening a
		// database can change it (a SQLite file is made a WAL database,
		// an older schema migrated, an empty PostgreSQL given
		// cardtable's tables), so a copy refused for its target must
		// not have opened its source. The target is checked again
		// right before it is opened (OpenCopyTarget), after the
		// source's open, which takes a while.
		if err := checkCopySide(ctx, *from, store.CheckCopySource, pgstore.CheckCopySource); err != nil {
			return badPathUsage(fmt.Errorf("db copy: the source: %w", err))
		}
		if err := checkCopySide(ctx, *to, store.CheckCopyTarget, pgstore.CheckCopyTarget); err != nil {
			return badPathUsage(fmt.Errorf("db copy: the target: %w", err))
		}
		src, srcName, err := openCopySide(ctx, *from, store.OpenCopySource)
		if err != nil {
			return badPathUsage(fmt.Errorf("db copy: the source: %w", err))
		}
		defer src.Close()
		if dbCopySourceOpened != nil {
			dbCopySourceOpened()
		}
		dst, dstName, err := openCopySide(ctx, *to, store.OpenCopyTarget)
		if err != nil {
			return badPathUsage(fmt.Errorf("db copy: the target: %w", err))
		}
		defer dst.Close()
		sums, err := dbcopy.Copy(ctx, src, dst)
		if errors.Is(err, dbcopy.ErrNotEmpty) {
			// Refused before anything was copied: the wrong --to.
			return badInput(fmt.Errorf("db copy: the target: %s: %w; nothing changed", dstName, err))
		}
		if err != nil {
			return fmt.Errorf("db copy: copying %s to %s: %w", srcName, dstName, err)
		}
		fmt.Fprintf(env.Stdout, "copied %s to %s; checked, the same on both sides:\n", srcName, dstName)
		for _, s := range sums {
			fmt.Fprintf(env.Stdout, "  %-17s %8d rows  sha256 %.16s\n", s.Table, s.Rows, s.Hash)
		}
		return nil
	}
}

// dbCopySourceOpened, set by tests only, runs in db copy between the
// open of its source and that of its target.
var dbCopySourceOpened func()

// checkCopySide runs db copy's check of one side, before anything is
// opened: pg for a postgres:// URL, file for a SQLite file.
func checkCopySide(ctx context.Context, db string, file, pg func(context.Context, string) error) error {
	if pgstore.IsURL(db) {
		return pg(ctx, db)
	}
	return file(ctx, db)
}

// openCopySide opens one side of db copy: a postgres:// URL as openStore
// does, a SQLite file through open (store.OpenCopySource or
// store.OpenCopyTarget), which checks it first.
func openCopySide(ctx context.Context, db string, open func(context.Context, string) (*store.DB, error)) (serverStore, string, error) {
	if pgstore.IsURL(db) {
		return openStore(ctx, nil, db, 0, 0)
	}
	s, err := open(ctx, db)
	if err != nil {
		return nil, db, err // a nil *DB is not a nil interface
	}
	return s, db, nil
}
