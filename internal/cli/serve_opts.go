package cli

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// serveOptions are cardtable serve's flags, registered in one place
// (register) and checked in one (check).
type serveOptions struct {
	addr string
	// internalAddr is where the other servers on the same PostgreSQL
	// database reach this one (docs/scaling.md "Several servers").
	internalAddr string
	hosts        string
	db           string
	dbDefault    bool // db is the default file, whose directory serve makes
	maxTables    int
	botWorkers   int

	// What a player and an address may store (docs/operating.md).
	maxSaves  int
	maxSaveMB int64
	dailyMB   int64

	// HTTPS (docs/hosting.md "HTTPS").
	tlsCert, tlsKey  string
	acme             string // domains, comma-separated
	acmeEmail        string
	acmeDirectory    string
	acmeCA           string
	httpRedirectAddr string
	hsts             time.Duration  // docs/hosting.md "HTTPS"
	hstsFlag         *durationValue // --hsts as typed

	trustedProxy string // docs/hosting.md "Behind a proxy"
	metricsAddr  string // docs/hosting.md "Health and metrics"
	logFormat    string // docs/hosting.md "Logs"

	// fromEnv holds the flags whose value came from the environment
	// (serve_env.go): a message about such a value names the variable
	// and never shows the value.
	fromEnv map[string]bool
	// envMisses: variables that nearly name a flag (a typo), logged at
	// start (serve_env.go).
	envMisses []envMiss

	// netListen takes a listen address (nil: net.Listen); a test sees
	// through it which addresses serve would listen on.
	netListen func(network, address string) (net.Listener, error)
}

// Default listen addresses.
const (
	defaultAddr     = "127.0.0.1:8080"
	defaultACMEAddr = ":443"
	defaultHTTPAddr = ":80" // with --acme: redirects and http-01 challenges
)

func (o *serveOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.addr, "addr", "", "`address` to listen on, HOST:PORT (default "+defaultAddr+"; "+defaultACMEAddr+" with --acme)")
	fs.StringVar(&o.internalAddr, "internal-addr", "", "`HOST:PORT` where the other servers sharing a PostgreSQL database reach\n"+
		"this one, to forward a table's requests to it, over HTTPS with --acme or --tls-cert\n"+
		"(default: the listen address, a 0.0.0.0 or :: host replaced by the machine's name;\n"+
		"unused on SQLite)")
	fs.StringVar(&o.hosts, "host", "", "host names or addresses, comma-separated, the server answers besides localhost\n"+
		"(default: the --addr host; every address of the machine if that is 0.0.0.0 or ::; the --acme domains)")
	fs.StringVar(&o.db, "db", "", "the `database`: a SQLite file (default: cardtable/cardtable.db in the user's data\n"+
		"directory: $XDG_DATA_HOME, else ~/.local/share on Linux), or PostgreSQL:\n"+
		"postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=...]")
	fs.IntVar(&o.maxTables, "max-tables", table.DefaultMaxTables, "live Arlington tables at most")
	fs.IntVar(&o.botWorkers, "bot-workers", 0, "Arlington bot decisions running at once, all tables together\n"+
		"(0: one fewer than the cores Go uses, at least one)")
	fs.IntVar(&o.maxSaves, "max-saves", store.DefaultSaveQuota.Count, "named saves a player keeps at most")
	fs.Int64Var(&o.maxSaveMB, "max-save-mb", store.DefaultSaveQuota.Bytes>>20, "MiB of named saves a player keeps at most")
	fs.Int64Var(&o.dailyMB, "daily-mb", web.DefaultDailyBytes>>20, "MiB of uploads and named saves a client address may store a day")
	fs.StringVar(&o.tlsCert, "tls-cert", "", "serve HTTPS with this certificate (PEM, the chain after the leaf); needs --tls-key")
	fs.StringVar(&o.tlsKey, "tls-key", "", "the private key of --tls-cert (PEM)")
	fs.StringVar(&o.acme, "acme", "", "serve HTTPS for these domains, comma-separated, with certificates obtained and renewed\n"+
		"automatically over ACME (Let's Encrypt by default); they are kept in the database, shared by\n"+
		"every server of a PostgreSQL database")
	fs.StringVar(&o.acmeEmail, "acme-email", "", "contact address given to the ACME server (expiry and problem notices)")
	fs.StringVar(&o.acmeDirectory, "acme-directory", "", "directory URL (https://...) of another ACME server (default: Let's Encrypt's)")
	fs.StringVar(&o.acmeCA, "acme-ca", "", "trust this CA certificate (PEM) for the ACME server's own HTTPS (a private ACME server)")
	fs.StringVar(&o.httpRedirectAddr, "http-redirect-addr", "", "also listen for plain HTTP here, only to redirect to HTTPS and\n"+
		"answer ACME http-01 challenges (default "+defaultHTTPAddr+" with --acme, none otherwise; \"off\": none)")
	o.hstsFlag = durationVar(fs, &o.hsts, "hsts", 0, "send Strict-Transport-Security with this max-age (such as 8760h, a year) on answers\n"+
		"over HTTPS, so browsers refuse plain HTTP to the name for that long (default 0: not sent)")
	fs.StringVar(&o.trustedProxy, "trusted-proxy", "", "addresses or CIDR prefixes, comma-separated, of reverse proxies whose\n"+
		"X-Forwarded-For, X-Forwarded-Proto and Forwarded headers are believed (default: none, the headers are ignored)")
	fs.StringVar(&o.metricsAddr, "metrics-addr", "", "serve Prometheus metrics at /metrics on this address, a listener of\n"+
		"its own (loopback recommended; default: no metrics served)")
	fs.StringVar(&o.logFormat, "log-format", "text", "log lines as text (key=value) or json")
}

// check validates the flags together and fills in the defaults that
// depend on others.
func (o *serveOptions) check() error {
	if err := notAddress("serve", o.flagWords("db"), o.db); err != nil {
		return err
	}
	const maxMB = 1 << 20
	mbWant := fmt.Sprintf("1 to %d", maxMB)
	if err := firstBrokenNamed("serve", o.named,
		flagRule{"max-tables", o.maxTables, o.maxTables < 1, "at least 1"},
		flagRule{"bot-workers", o.botWorkers, o.botWorkers < 0, "at least 0 (0: one fewer than the cores)"},
		flagRule{"max-saves", o.maxSaves, o.maxSaves < 1, "at least 1"},
		flagRule{"max-save-mb", o.maxSaveMB, o.maxSaveMB < 1 || o.maxSaveMB > maxMB, mbWant},
		flagRule{"daily-mb", o.dailyMB, o.dailyMB < 1 || o.dailyMB > maxMB, mbWant}); err != nil {
		return err
	}
	if err := o.checkCerts(); err != nil {
		return err
	}
	if o.internalAddr != "" {
		host, port, err := net.SplitHostPort(o.internalAddr)
		if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			return flagErr("serve: %s: want HOST:PORT, a port from 1 to 65535", o.named("internal-addr", o.internalAddr))
		}
	}
	if o.logFormat != "text" && o.logFormat != "json" {
		return flagErr("serve: %s: want text or json", o.named("log-format", o.logFormat))
	}
	// Only --http-redirect-addr takes "off" (its default is a listener
	// with --acme); --addr always listens and --metrics-addr's default is
	// already none, so "off" there is refused as any address without a
	// port is (docs/hosting.md).
	if o.httpRedirectAddr != "off" {
		if err := o.checkListenAddr("http-redirect-addr", o.httpRedirectAddr); err != nil {
			return err
		}
	}
	if err := o.checkListenAddr("addr", o.addr); err != nil {
		return err
	}
	if err := o.checkListenAddr("metrics-addr", o.metricsAddr); err != nil {
		return err
	}
	if o.addr == "" {
		o.addr = defaultAddr
		if o.acme != "" {
			o.addr = defaultACMEAddr
		}
	}
	switch {
	case o.httpRedirectAddr == "off":
		o.httpRedirectAddr = ""
	case o.httpRedirectAddr == "" && o.acme != "":
		o.httpRedirectAddr = defaultHTTPAddr
	}
	if o.db == "" {
		o.db, o.dbDefault = defaultDBPath(), true
	}
	return nil
}

// checkCerts checks the flags of HTTPS together: one way to a
// certificate, its companions only with it.
func (o *serveOptions) checkCerts() error {
	if (o.tlsCert == "") != (o.tlsKey == "") {
		return flagErr("serve: --tls-cert and --tls-key go together")
	}
	if o.acme != "" && o.tlsCert != "" {
		return flagErr("serve: --acme and --tls-cert are two ways to get a certificate: give one")
	}
	if o.acme == "" && (o.acmeEmail != "" || o.acmeDirectory != "" || o.acmeCA != "") {
		return flagErr("serve: --acme-email, --acme-directory and --acme-ca need --acme")
	}
	if o.acmeDirectory != "" {
		// Refused at start, not at the first HTTPS request, when the
		// server would already be serving without a way to a certificate.
		u, err := url.Parse(o.acmeDirectory)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.Hostname() == "" {
			return flagErr("serve: %s: want the ACME server's directory URL, https://HOST/...", o.named("acme-directory", o.acmeDirectory))
		}
	}
	if o.acme == "" && o.tlsCert == "" && o.httpRedirectAddr != "" && o.httpRedirectAddr != "off" {
		return flagErr("serve: --http-redirect-addr redirects to HTTPS: it needs --tls-cert or --acme")
	}
	if o.hsts < 0 || o.hsts > 0 && o.hsts < time.Second {
		return flagErr("serve: %s: want a max-age of a second or more (8760h is a year), or 0 for none", o.named("hsts", o.hstsFlag))
	}
	// "--trusted-proxy ," names no proxy: no way to HTTPS either. A list
	// that does not parse is told by names, after this.
	proxies, err := web.ParseProxies(o.trustedProxy)
	if o.hsts > 0 && o.acme == "" && o.tlsCert == "" && err == nil && len(proxies) == 0 {
		return flagErr("serve: %s is sent only over HTTPS: it needs --tls-cert, --acme, or --trusted-proxy (a proxy serving HTTPS)",
			o.flagWords("hsts"))
	}
	return nil
}

// checkListenAddr refuses a listen address net.Listen would refuse for
// its form (no port, a port past 65535) as bad usage, before anything
// is opened; "" is the flags' own word for none or the default. An empty
// port (HOST: or :) is port 0, any free port, as net.Listen takes it.
func (o *serveOptions) checkListenAddr(flag, v string) error {
	if v == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(v)
	if n, perr := strconv.Atoi(port); err != nil || perr == nil && (n < 0 || n > 65535) {
		return flagErr("serve: %s: want HOST:PORT or :PORT, a port from 0 to 65535 (0 or none: any free port)", o.named(flag, v))
	}
	return nil
}

// named is how a message names flag and its value v: the flag and the
// value as typed on the command line; the variable and the flag, without
// the value, when it came from the environment (docs/cli.md: a variable
// may hold a secret, and the person reading the message can look it up).
func (o *serveOptions) named(flag string, v any) string {
	if o.fromEnv[flag] {
		return envName(flag) + " (--" + flag + ")"
	}
	return flagValue(flag, v)
}

// flagWords names flag in a message: "--flag", or the variable and the
// flag when its value came from the environment, so the person reading
// it knows where to look.
func (o *serveOptions) flagWords(flag string) string {
	if o.fromEnv[flag] {
		return envName(flag) + " (--" + flag + ")"
	}
	return "--" + flag
}

// badList is the usage error for a bad item in a list flag (--host,
// --acme, --trusted-proxy): err, which quotes the item, when the list was
// typed on the command line; from the environment, only what the list
// should hold, so that no part of the value is shown.
func (o *serveOptions) badList(flag string, err error, want string) error {
	if o.fromEnv[flag] {
		return flagErr("serve: %s (--%s): %s", envName(flag), flag, want)
	}
	return flagErr("serve: --%s: %w", flag, err)
}

// acmeDomains is --acme as a list of normalized names.
func (o *serveOptions) acmeDomains() ([]string, error) {
	if o.acme == "" {
		return nil, nil
	}
	const want = "certificates are for domain names with a dot (example.org), not addresses"
	names, err := parseHosts(o.acme)
	if err != nil {
		return nil, o.badList("acme", err, want)
	}
	for _, n := range names {
		if !strings.Contains(n, ".") || strings.Trim(n, "0123456789.:") == "" {
			return nil, o.badList("acme", fmt.Errorf("%q: %s", n, want), want)
		}
	}
	return names, nil
}

// newLogger makes the server's logger in --log-format.
func newLogger(w io.Writer, format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}
