package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"cardtable/internal/loadgen"
	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/spiderweb"
)

// runServeBench runs the load benchmark: simulated players over HTTP on
// loopback against a server with a fresh database.
func runServeBench(fs *pflag.FlagSet) runFunc {
	games := fs.Int("games", 1000, "games in play")
	players := fs.Int("players", 50, "simulated players sending requests at once")
	var dur, think time.Duration
	durFlag := durationVar(fs, &dur, "duration", 10*time.Second, "how long to measure")
	thinkFlag := durationVar(fs, &think, "think", 0, "mean pause of a player between moves (0: none, the server saturates;\n"+
		"with --servers or --target the default is 2s)")
	dbPath := fs.String("db", "", "the `database`: a SQLite file, or with --servers a postgres:// URL (default: a temporary\n"+
		"SQLite file, removed after)")
	var cf clusterFlags
	addClusterFlags(fs, &cf)
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("serve bench: unexpected argument %q", pos[0])
		}
		if err := notAddress("serve bench", "--db", *dbPath); err != nil {
			return err
		}
		if cf.servers < 0 {
			return flagErr("serve bench: %s: want at least 0", flagValue("servers", cf.servers))
		}
		if cf.servers > 0 || cf.target != "" {
			for _, name := range []string{"games", "players"} {
				if fs.Changed(name) {
					return flagErr("serve bench: --%s is not for live tables: they take --tables and --people", name)
				}
			}
			cf.db, cf.duration, cf.think = *dbPath, dur, think
			if !fs.Changed("think") {
				cf.think = 2 * time.Second // a brisk human pace, as arlington loadtest
			}
			return benchCluster(ctx, env, cf)
		}
		for _, name := range clusterOnlyFlags {
			if fs.Changed(name) {
				return flagErr("serve bench: --%s is for live tables: it needs --servers or --target", name)
			}
		}
		if err := firstBroken("serve bench",
			flagRule{"games", *games, *games < 1, "at least 1"},
			flagRule{"players", *players, *players < 1, "at least 1"},
			flagRule{"duration", durFlag, dur <= 0, "more than 0"},
			flagRule{"think", thinkFlag, think < 0, "at least 0"}); err != nil {
			return err
		}
		return benchOneServer(ctx, env, *dbPath, loadgen.LoadConfig{Games: *games, Players: *players, Duration: dur, Think: think})
	}
}

// benchOneServer measures one server on the SQLite database dbPath (""
// for a temporary one) with the simulated players of cfg, which gets the
// server's URL, and prints the result. The server runs in this process.
func benchOneServer(ctx context.Context, env *Env, dbPath string, cfg loadgen.LoadConfig) error {
	if dbPath == "" {
		dir, err := os.MkdirTemp("", "cardtable-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		dbPath = filepath.Join(dir, "bench.db")
	}
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		return openErr(err)
	}
	defer db.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	// Only the server's warnings and errors: a benchmark should have none.
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	// Exits when stop() cancels sctx after the measurement.
	go func() {
		sp := spiderweb.New(db, spiderweb.Options{Log: log})
		done <- serve(sctx, log, ln, web.New(web.Options{Log: log, Adopt: sp.AdoptLegacy, Games: []web.Routes{sp}}))
	}()
	cfg.URL = "http://" + ln.Addr().String()
	res, err := loadgen.Load(ctx, cfg)
	stop()
	if serr := <-done; err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, res)
	return nil
}

// serve runs h on ln until ctx ends, then shuts down gracefully (the load
// benchmark's server).
func serve(ctx context.Context, log *slog.Logger, ln net.Listener, h http.Handler) error {
	return serveUnits(ctx, log, []unit{{name: "main", ln: ln, srv: newHTTPServer(h, nil)}}, nil)
}
