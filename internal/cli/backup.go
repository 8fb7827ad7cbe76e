package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"cardtable/internal/dbcopy"
	"cardtable/internal/pgstore"
	"cardtable/internal/store"
)

// runBackup is "cardtable backup": a consistent copy of the database while
// a server may be running on it (store.Backup; docs/operating.md).
func runBackup(fs *pflag.FlagSet) runFunc {
	db := fs.String("db", "", "SQLite database `file` to copy (default: the one serve uses: CARDTABLE_DB if set,\n"+
		"else cardtable/cardtable.db in the user's data directory)")
	to := fs.String("to", "", "the backup `file` to write; it must not exist (required)")
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("backup: unexpected argument %q", pos[0])
		}
		if *to == "" {
			return flagErr("backup: --to FILE is required")
		}
		flag := "--db"
		if *db == "" {
			var defaulted bool
			if *db, defaulted = serveDB(); !defaulted {
				flag = envName("db") + " (--db)"
			}
		}
		if err := sqliteOnly("backup", flag, *db, "back it up with pg_dump (docs/operating.md, \"Backups and restore\")"); err != nil {
			return err
		}
		if err := store.Backup(ctx, *db, *to); err != nil {
			if errors.Is(err, store.ErrNoDatabase) {
				// Named where the path came from: CARDTABLE_DB, not --db,
				// when the command line had none.
				hint := "give the server's with --db"
				if flag != "--db" {
					hint = envName("db") + " names it: give the server's there, or with --db"
				}
				err = fmt.Errorf("%w (%s)", err, hint)
			}
			return badPathUsage(err)
		}
		fmt.Fprintf(env.Stdout, "backed up %s to %s (integrity check: ok)\n", *db, *to)
		return nil
	}
}

// runRestore is "cardtable restore": the backup put in place of the
// database while no server uses it (store.Restore; docs/operating.md).
func runRestore(fs *pflag.FlagSet) runFunc {
	db := fs.String("db", "", "SQLite database `file` to replace (default: the one serve uses: CARDTABLE_DB if set,\n"+
		"else cardtable/cardtable.db in the user's data directory)")
	from := fs.String("from", "", "the backup `file` to restore (required)")
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("restore: unexpected argument %q", pos[0])
		}
		if *from == "" {
			return flagErr("restore: --from FILE is required")
		}
		defaulted, flag := false, "--db"
		if *db == "" {
			if *db, defaulted = serveDB(); !defaulted {
				flag = envName("db") + " (--db)"
			}
		}
		if err := sqliteOnly("restore", flag, *db, "restore it with pg_restore (docs/operating.md, \"Backups and restore\")"); err != nil {
			return err
		}
		// As serve would: the default data folder is made (once --from
		// is accepted, so a refused restore writes nothing), a --db's
		// missing directory is refused.
		restore := store.Restore
		if defaulted {
			restore = store.RestoreDefault
		}
		kept, err := restore(ctx, *db, *from)
		if err != nil {
			return badPathUsage(err)
		}
		fmt.Fprintf(env.Stdout, "restored %s from %s\n", *db, *from)
		if kept != "" {
			fmt.Fprintf(env.Stdout, "the database it replaced is kept as %s\n", kept)
		}
		return nil
	}
}

// serveDB is the database serve would use in this environment when no --db
// is given: CARDTABLE_DB, else its default file. backup and restore read the
// variable, unlike other commands, so that run beside a service configured
// through its environment they name the service's database, not another.
// isDefault says it is the default file, not one named.
func serveDB() (db string, isDefault bool) {
	if v := os.Getenv(envName("db")); v != "" {
		return v, false
	}
	return defaultDBPath(), true
}

// badPathUsage makes a file named by a flag that the user can fix bad
// input (exit status 2, docs/cli.md): one that is missing or not a file,
// a backup's --to that exists, a restore's --from that is not a usable
// backup, a restore's --db or db copy's --to that is a directory, a path
// through a file or a link loop, or in a directory that cannot be made
// or written, a backup's --db or either side of db copy that is no
// cardtable database (a PostgreSQL source with no schema), a damaged
// one, one with a write left half done, or one a newer cardtable made
// (SQLite or PostgreSQL), and db copy's --to that holds rows. Nothing
// was written in any of these. Any other error is returned as it is.
func badPathUsage(err error) error {
	for _, bad := range []error{store.ErrBadPath, store.ErrExists, store.ErrBadBackup,
		store.ErrNotCardtable, store.ErrCorrupt, store.ErrNewer, store.ErrUnfinished, pgstore.ErrNoSchema, dbcopy.ErrNotEmpty} {
		if errors.Is(err, bad) {
			return badInput(err)
		}
	}
	return err
}
