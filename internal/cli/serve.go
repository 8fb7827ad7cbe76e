package cli

import (
	"context"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"cardtable/internal/buildinfo"
	"cardtable/internal/obs"
	"cardtable/internal/pgstore"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/arlweb"
	"cardtable/internal/web/spiderweb"
	"cardtable/spider"
	"cardtable/spider/solver"
)

// runServe serves the browser UI: `cardtable`, `cardtable serve [flags]`
// (serve_opts.go), and `cardtable serve bench` for the load benchmark.
func runServe(fs *pflag.FlagSet) runFunc {
	var o serveOptions
	o.register(fs)
	return func(ctx context.Context, env *Env, pos []string) error {
		if len(pos) > 0 {
			return usageErr("serve: unexpected argument %q", pos[0])
		}
		o.fromEnv = envSet(fs)
		o.envMisses = envNearMisses(fs, os.Environ())
		err := o.serve(ctx, env)
		if err != nil && cmdPath(env.cmd) == "" && !strings.HasPrefix(strings.TrimPrefix(err.Error(), "usage: "), "serve: ") {
			// The root command serves: its serving errors read as
			// serve's (docs/cli.md), as those typed "serve" do.
			err = within("serve", err)
		}
		return err
	}
}

// serve runs the server o describes until ctx ends. The order of its steps
// is the point: every flag is checked, and every file a flag names read,
// before anything is opened; every address is taken before the database
// is opened (a server that cannot start makes no database file); and on
// the way out the web server stops first, then the background work, then
// (defers run in reverse) the registry's drain mark is waited for, the hub
// stops (its tables stay open in the store), the server leaves the other
// servers, the database closes, and the event log is flushed last.
func (o serveOptions) serve(ctx context.Context, env *Env) error {
	if err := o.check(); err != nil {
		return err
	}
	log := newLogger(env.Stderr, o.logFormat)
	for _, m := range o.envMisses {
		log.Warn("environment variable ignored: it names no setting of serve", "variable", m.name, "did_you_mean", m.meant)
	}
	names, err := o.names(log)
	if err != nil {
		return err
	}
	events := web.NewEventLog(log, 0, nil)
	// Last of all, once nothing logs events any more: the minute's
	// "suppressed N similar" summaries are not lost.
	defer events.Flush()
	ls, err := o.listen()
	if err != nil {
		return err
	}
	ls.limitPerAddress(names.proxies, events)
	db, dbName, err := o.openDB(ctx, log)
	if err != nil {
		ls.close()
		return err
	}
	defer db.Close()
	// The figures of /metrics; the gauges read hub and sp once serving.
	var hub *table.Hub
	var sp *spiderweb.Handlers
	bi := buildinfo.Read()
	gauges := obs.Gauges{Version: bi.Version, Commit: bi.Commit,
		Tables:      func() (int, int) { return tableCounts(hub.List()) },
		Cache:       func() (int, int) { return sp.Games().CacheStats() },
		CacheBudget: func() int { return sp.Games().CacheBudget() },
	}
	if pg, ok := db.(*pgstore.DB); ok {
		gauges.DBPool = pg.PoolStats
		gauges.DBRefused = pg.Refused
	}
	metrics := obs.New(gauges)
	timed := timedStore{serverStore: db, m: metrics}
	repeats := newQuietRepeats(log, nil)
	defer repeats.Flush() // after the hub and the registry have stopped logging
	logf := repeats.Logf
	var live atomic.Pointer[table.Hub] // hub, for the heartbeat's goroutine
	node, err := o.joinServers(ctx, db, ls.main, names, &live, log, logf)
	if err != nil {
		ls.close()
		return err
	}
	if node != nil {
		defer leaveServers(ctx, node, log)
	}
	if hub, err = o.newHub(ctx, timed, node, metrics, logf); err != nil {
		ls.close()
		return fmt.Errorf("serve: %w", err)
	}
	defer hub.Close()
	live.Store(hub)
	if node != nil {
		// Deferred after leaveServers, so run before it: the drain mark
		// is never written after the server has left, whatever the path
		// out of serve.
		defer drainOnStop(ctx, node, log)()
	}
	pool := solver.NewPool()
	// The handlers' requests failed for want of the database are bounded
	// by events (web.LogFault), not by repeats.
	sp = o.spiderHandlers(timed, log, pool)
	hosts := o.answeredHosts(names, ls.main.Addr())
	srv := webServer(log, names, hosts, node, hub, sp, web.Options{Ready: db, Observer: metrics, Events: events, HSTS: o.hsts})
	units := openUnits(ctx, &o, ls, unitsOptions{names: names, certs: db, allowed: hosts, handler: srv,
		metrics: metrics.Handler(), limit: srv.LimitOften, log: log, errLog: serverErrorLog(events)})
	logServing(ctx, log, db, dbName, units, hosts, names)
	stopBackground := runBackground(ctx, sp, pool, log)
	err = serveUnits(ctx, log, units, srv)
	stopBackground()
	return err
}

// openDB opens the database serve runs on, logging to log (openStore
// gives the store the logger). The default
// data folder is the one directory made here: a --db whose directory is
// missing is a mistyped path, refused.
func (o serveOptions) openDB(ctx context.Context, log *slog.Logger) (serverStore, string, error) {
	if o.dbDefault {
		if err := store.MakeDefaultDir(o.db); err != nil {
			return nil, "", err
		}
	}
	db, dbName, err := openStore(ctx, log, o.db, o.maxSaves, o.maxSaveMB<<20)
	if err != nil {
		return nil, "", openErr(err)
	}
	return db, dbName, nil
}

// webServer is the web server of both games, serving hosts: o carries
// the readiness check, the metrics and the event log; node, if not nil,
// is the server's place among others (forwarding to them: a table's
// requests go to the server that holds it, web.Options.Front).
func webServer(log *slog.Logger, names serveNames, hosts []string, node *pgstore.Node, hub *table.Hub,
	sp *spiderweb.Handlers, o web.Options) *web.Server {
	rl := serveRateLimit()
	ao := arlOptions(log)
	if node != nil {
		ao.Cluster = cluster{node}
		// An HTTPS server's certificate is checked for these names
		// when a request is forwarded to it (docs/scaling.md).
		ao.PeerNames = names.peerNames(hosts)
		if names.endsTLS() {
			warnNoPeerName(log, ao.PeerNames)
		}
	}
	ao.Events = o.Events
	arl := arlweb.New(hub, ao)
	o.Log, o.CheckHost, o.Hosts, o.RateLimit, o.TrustedProxies = log, true, hosts, &rl, names.proxies
	o.Adopt, o.Seen, o.Games = sp.AdoptLegacy, sp.Seen, []web.Routes{sp, arl}
	o.Front = arl.Forward // its 503s carry the headers; it passes on the client as believed here
	return web.New(o)
}

// serveNames are what the flags give, read when the flags are checked,
// before anything is opened: the names, and the files they name.
type serveNames struct {
	hosts   []string // --host; nil: the default, known once listening
	domains []string // the ACME domains
	proxies []netip.Prefix

	certs     *certFiles     // --tls-cert and --tls-key, loaded; nil without
	acmeRoots *x509.CertPool // --acme-ca; nil without
}

// names reads the names o's flags (checked) give and the files they name:
// a name or a file that is bad is bad input, told before anything is
// opened. log takes the certificate files' later reloads.
func (o serveOptions) names(log *slog.Logger) (serveNames, error) {
	var n serveNames
	var err error
	if n.hosts, err = parseHosts(o.hosts); err != nil {
		return serveNames{}, o.badList("host", err, "want host names or IP addresses, comma-separated, without a port")
	}
	if n.domains, err = o.acmeDomains(); err != nil {
		return serveNames{}, err
	}
	if n.proxies, err = web.ParseProxies(o.trustedProxy); err != nil {
		return serveNames{}, o.badList("trusted-proxy", err, "want IP addresses or CIDR prefixes such as 10.0.0.0/8, comma-separated")
	}
	if o.tlsCert != "" {
		if n.certs, err = loadCertFiles(o.tlsCert, o.tlsKey, log); err != nil {
			return serveNames{}, within("serve: --tls-cert/--tls-key", err)
		}
	}
	if n.acmeRoots, err = readACMECA(o.acmeCA); err != nil {
		return serveNames{}, err
	}
	return n, nil
}

// answeredHosts are the host names the server answers besides the
// loopback ones: --host, else the names of the listen address; and the
// ACME domains.
func (o serveOptions) answeredHosts(names serveNames, ln net.Addr) []string {
	hosts := names.hosts
	if hosts == nil {
		hosts = listenHosts(o.addr, ln)
	}
	return append(hosts, names.domains...)
}

// logServing says where the server is to be reached, on what database, and
// where its other listeners are.
func logServing(ctx context.Context, log *slog.Logger, db serverStore, dbName string, units []unit, hosts []string, names serveNames) {
	n, _ := db.CountGames(ctx)
	url := openURL(units[0].ln.Addr(), units[0].tls)
	// With --acme only the domains have a certificate, and with
	// --tls-cert the names it is for: the address (localhost,
	// 127.0.0.1) would fail the handshake or the browser's check.
	name := ""
	switch {
	case !units[0].tls:
	case len(names.domains) > 0:
		name = names.domains[0]
	case names.certs != nil:
		name = names.certs.nameFor(names.hosts)
	}
	if name != "" {
		_, port, _ := net.SplitHostPort(units[0].ln.Addr().String())
		url = "https://" + net.JoinHostPort(name, port) + "/"
	}
	log.Info("cardtable serving", "url", url, "db", dbName, "games", n,
		"hosts", strings.Join(servedHosts(hosts), ","))
	for _, u := range units[1:] {
		log.Info("listening", "for", u.name, "addr", u.ln.Addr().String())
	}
}

// tableCounts is how many of the tables listed are open (waiting or in
// play) and how many over (finished, not yet closed).
func tableCounts(list []table.Summary) (open, over int) {
	for _, s := range list {
		if s.Status == table.StatusOver {
			over++
		} else {
			open++
		}
	}
	return open, over
}

// servedHosts is the list the start's log gives: localhost, which the
// server always answers, then hosts, each name once (--host may name
// localhost again, or one name twice).
func servedHosts(hosts []string) []string {
	out := []string{"localhost"}
	for _, h := range hosts {
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// joinServers joins the other servers sharing a PostgreSQL database
// (serve_cluster.go) and tells the registry the tables of the hub in live
// once there is one; nil on SQLite. The server leaves (leaveServers) after
// its hub has stopped and given its tables back.
func (o serveOptions) joinServers(ctx context.Context, db serverStore, ln net.Listener, names serveNames, live *atomic.Pointer[table.Hub], log *slog.Logger, logf func(string, ...any)) (*pgstore.Node, error) {
	node, err := joinCluster(ctx, db, internalURL(o.internalAddr, ln.Addr(), names.endsTLS()), func() []table.Summary {
		if h := live.Load(); h != nil {
			return h.List()
		}
		return nil
	}, logf)
	if err != nil || node == nil {
		return nil, err
	}
	log.Info("sharing the tables with the other servers on the database", "server", node.ID(),
		"internal-addr", internalURL(o.internalAddr, ln.Addr(), names.endsTLS()))
	return node, nil
}

// leaveServers takes the server out of the registry; it is given two
// seconds even though ctx has ended (it runs as the server stops), and
// Close may take one more to give the tables back when the heartbeat
// does not stop within them.
func leaveServers(ctx context.Context, node *pgstore.Node, log *slog.Logger) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := node.Close(cctx); err != nil {
		log.Warn("leaving the servers' registry", "err", err)
	}
}

// drainOnStop starts marking the server stopping in the registry as soon
// as ctx ends, so that no more tables come to it while it finishes. The
// goroutine exits once it has marked it (2 s at most), or when stop is
// called before ctx has ended (serve returning early, on a failure: the
// server then leaves the registry instead); ctx ended, it marks first.
// stop waits for that exit, so that serve, calling it before
// leaveServers, never marks a server that has left.
func drainOnStop(ctx context.Context, node *pgstore.Node, log *slog.Logger) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-quit:
			if ctx.Err() == nil {
				return
			}
		case <-ctx.Done():
		}
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		if err := node.Drain(dctx); err != nil {
			log.Warn("marking the server stopping", "err", err)
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}

// newHub starts the live Arlington tables: the hub resumes the open ones
// from the database (on PostgreSQL, its share of those no server runs).
// It lives on past ctx's end, until serve closes it after the web server,
// so that the pages are told the server is restarting, not that their
// table closed.
func (o serveOptions) newHub(ctx context.Context, st table.Store, node *pgstore.Node, metrics *obs.Metrics, logf func(string, ...any)) (*table.Hub, error) {
	var claims table.Claims // nil on SQLite (a nil *pgstore.Node would not be)
	if node != nil {
		claims = node
	}
	return table.NewHub(context.WithoutCancel(ctx), table.Options{Store: st, Bots: tableBot, MaxTables: o.maxTables,
		BotWorkers: o.botWorkers, Claims: claims, ScanEvery: clusterTiming.scan,
		Observer: metrics, Logf: logf})
}

// spiderHandlers are the Spider pages and API, with the solver's services
// (hints, winnable deals from pool, analysis). On PostgreSQL other servers
// may write the same games: each use of a cached one checks its stored
// version.
func (o serveOptions) spiderHandlers(st spiderweb.Store, log *slog.Logger, pool *solver.Pool) *spiderweb.Handlers {
	winnable := func(ctx context.Context, so spider.Options) (uint64, bool, error) {
		return serveWinnableDeal(ctx, pool, so)
	}
	hints := solver.NewHinter(hintLines)
	hint := func(ctx context.Context, g *spider.Game) (spider.Move, error) { return serveHint(ctx, hints, g) }
	return spiderweb.New(st, spiderweb.Options{Log: log, Shared: pgstore.IsURL(o.db), Hint: hint, WinnableDeal: winnable,
		DailyBytes: &web.DailyBytes{Limit: o.dailyMB << 20, MaxKeys: web.DefaultRateLimit().MaxKeys},
		Analyze:    serveAnalyze})
}

// runBackground starts the server's background work and returns what
// stops it and waits for its end, which serve calls once serving has
// ended, before the database closes: the pruner deletes Spider games past
// their retention (docs/api.md); the topper proves fresh random deals for
// "winnable deals only" (docs/solver.md, "The winnable pool").
func runBackground(ctx context.Context, sp *spiderweb.Handlers, pool *solver.Pool, log *slog.Logger) (stop func()) {
	pctx, cancel := context.WithCancel(ctx)
	pruned := make(chan struct{})
	go func() { // exits when pctx ends
		defer close(pruned)
		sp.Games().RunPruner(pctx)
	}()
	topped := make(chan struct{})
	go func() { // exits when pctx ends
		defer close(topped)
		pool.Top(pctx, poolTop(log))
	}()
	return func() {
		cancel()
		<-pruned
		<-topped
	}
}

// serveRateLimit is the server's rate limit (a variable so that a test can
// make it small enough to reach).
var serveRateLimit = web.DefaultRateLimit

// parseHosts reads a list of host names or IP addresses, comma-separated,
// without ports (--host, and --acme before acmeDomains's own checks);
// blank items are skipped. nil when the list is empty (for --host, the
// default applies).
func parseHosts(list string) ([]string, error) {
	var out []string
	for item := range strings.SplitSeq(list, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		h, err := web.NormalizeHost(item)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// listenHosts is the default of --host: the host named in --addr and the
// address the server listens on; for a wildcard address (0.0.0.0, ::, or
// none), every address of the machine. Loopback names need no listing:
// the server always answers them.
func listenHosts(addr string, ln net.Addr) []string {
	var out []string
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" && net.ParseIP(host) == nil {
		if h, err := web.NormalizeHost(host); err == nil && h != "localhost" {
			out = append(out, h)
		}
	}
	ta, ok := ln.(*net.TCPAddr)
	if !ok {
		return out
	}
	ips := []net.IP{ta.IP}
	if ta.IP.IsUnspecified() {
		ips = nil
		addrs, _ := net.InterfaceAddrs() // none known: only loopback names answer
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				ips = append(ips, n.IP)
			}
		}
	}
	for _, ip := range ips {
		if ip.IsLoopback() || ip.IsUnspecified() {
			continue
		}
		if h, err := web.NormalizeHost(ip.String()); err == nil && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// openURL is the address to give the player: a wildcard listen address is
// reached on localhost.
func openURL(a net.Addr, https bool) string {
	scheme := "http://"
	if https {
		scheme = "https://"
	}
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return scheme + a.String() + "/"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return scheme + net.JoinHostPort(host, port) + "/"
}

// defaultDBPath is cardtable.db in the user's data directory:
// $XDG_DATA_HOME/cardtable, else ~/.local/share/cardtable on Unix-like
// systems, else the OS's user configuration directory (Application Support
// on macOS, %AppData% on Windows).
func defaultDBPath() string {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		switch runtime.GOOS {
		case "darwin", "windows", "ios", "plan9":
			dir, _ = os.UserConfigDir()
		default:
			if home, err := os.UserHomeDir(); err == nil {
				dir = filepath.Join(home, ".local", "share")
			}
		}
	}
	if dir == "" {
		dir = "." // no home at all: the working directory
	}
	return filepath.Join(dir, "cardtable", "cardtable.db")
}
