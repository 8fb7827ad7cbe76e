package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"cardtable/internal/pgstore"
	"cardtable/internal/table"
	"cardtable/internal/web/arlweb"
)

// Several servers on one PostgreSQL database (docs/scaling.md, "Several
// servers"): each joins the registry of servers, shares the live tables
// through it (table.Claims), and forwards a table's requests to the
// server that runs it (arlweb.Forward). On SQLite there is one server and
// none of this is made.

// clusterTiming is the registry's lease and heartbeat (zero: pgstore's
// defaults) and the hub's scan (zero: table's default); tests shorten
// them.
var clusterTiming struct{ lease, beat, scan time.Duration }

// joinCluster registers the server if db is PostgreSQL: addr is its
// internal address, tables what it runs. nil on SQLite.
func joinCluster(ctx context.Context, db serverStore, addr string, tables func() []table.Summary, logf func(string, ...any)) (*pgstore.Node, error) {
	pg, ok := db.(*pgstore.DB)
	if !ok {
		return nil, nil
	}
	n, err := pg.Join(ctx, pgstore.NodeOptions{Addr: addr, Lease: clusterTiming.lease, Beat: clusterTiming.beat,
		Tables: tables, Logf: logf})
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return n, nil
}

// internalAddr is --internal-addr, or the listen address with a wildcard
// host replaced by the machine's name.
func internalAddr(flag string, ln net.Addr) string {
	if flag != "" {
		return flag
	}
	host, port, err := net.SplitHostPort(ln.String())
	if err != nil {
		return ln.String()
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		if name, err := os.Hostname(); err == nil && name != "" {
			host = name
		} else {
			host = "127.0.0.1"
		}
	}
	return net.JoinHostPort(host, port)
}

// internalURL is the internal address as the registry holds it: HOST:PORT
// for a plain HTTP listener, https://HOST:PORT when the server ends TLS
// itself, so that each server forwards to each other in its own scheme.
func internalURL(flag string, ln net.Addr, tls bool) string {
	if tls {
		return "https://" + internalAddr(flag, ln)
	}
	return internalAddr(flag, ln)
}

// endsTLS: the main listener speaks HTTPS (--acme or --tls-cert).
func (n serveNames) endsTLS() bool { return n.certs != nil || len(n.domains) > 0 }

// peerNames are the names another server's certificate is checked for
// when a request is forwarded to it over HTTPS: the --acme domains, else
// the --host names and then the --tls-cert certificate's (the first name
// that is no wildcard is checked when the request's host is none of
// them, nor covered by a wildcard), else the answered hosts.
func (n serveNames) peerNames(hosts []string) []string {
	if len(n.domains) > 0 {
		return n.domains
	}
	if n.certs != nil {
		names := append([]string{}, n.hosts...)
		if c, _ := n.certs.get(nil); c != nil && c.Leaf != nil {
			names = append(append(names, c.Leaf.DNSNames...), ipStrings(c.Leaf.IPAddresses)...)
		}
		return names
	}
	return hosts
}

// warnNoPeerName warns, at start, when a server ending TLS itself has
// no name to check the others' certificates for: none of its tables'
// requests can then be forwarded to another server.
func warnNoPeerName(log *slog.Logger, peerNames []string) {
	for _, n := range peerNames {
		if strings.TrimSuffix(n, ".") != "" {
			return
		}
	}
	log.Warn("no name to check the other servers' certificates for: requests cannot be forwarded to them; " +
		"give a certificate with a DNS name or IP address (--tls-cert), or set --host")
}

func ipStrings(ips []net.IP) []string {
	out := make([]string, len(ips))
	for i, ip := range ips {
		out[i] = ip.String()
	}
	return out
}

// cluster is the registry as arlweb.Cluster sees it.
type cluster struct{ n *pgstore.Node }

var _ arlweb.Cluster = cluster{}

func (c cluster) Where(ctx context.Context, id string) (arlweb.Place, error) {
	r, err := c.n.Route(ctx, id)
	switch {
	case err != nil:
		return arlweb.Place{}, err
	case r.Addr != "" && !r.Self:
		return arlweb.Place{Addr: r.Addr}, nil
	case r.Open:
		// Open with no live server, or held here and not started yet:
		// being taken over.
		return arlweb.Place{Wait: true}, nil
	}
	// Finished, and not running here (its claim may not have been given
	// back): its record is in the database, which any server reads.
	return arlweb.Place{Here: true}, nil
}

func (c cluster) ForNew(ctx context.Context) (string, error) {
	id, addr, err := c.n.Least(ctx)
	if err != nil || id == c.n.ID() {
		return "", err
	}
	return addr, nil
}

func (c cluster) Others(ctx context.Context, player string) ([]table.Summary, map[string]bool, error) {
	return c.n.Others(ctx, player)
}
