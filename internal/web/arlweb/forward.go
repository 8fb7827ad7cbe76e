package arlweb

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardtable/internal/arlwire"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// Several servers sharing the tables (docs/scaling.md, "Several
// servers"): each table runs on one of them, and a request or WebSocket
// for it may reach any. The one that gets it forwards it to the table's
// server (Forward), once: a forwarded request is marked (ForwardedHeader)
// and never forwarded again.

// Cluster is what the handlers need of the servers sharing the tables;
// the wiring makes it over the PostgreSQL store's registry of servers.
// nil (Options.Cluster): this server runs every table.
type Cluster interface {
	// Where is where table id runs: this server (Place.Here), the
	// server at Place.Addr, or none right now (Place.Wait: it is being
	// taken over; ask again in a moment).
	Where(ctx context.Context, id string) (Place, error)
	// ForNew is the address of the server a new table goes to (the least
	// loaded, by open tables): "" for this one.
	ForNew(ctx context.Context) (string, error)
	// Others is the tables the other servers run, as the lobby lists
	// them, and which of them player holds a seat at.
	Others(ctx context.Context, player string) ([]table.Summary, map[string]bool, error)
}

// Place is where a table runs: Here (this server, or nowhere: a finished
// table's record, or no such table), at Addr (the other server's
// address), or nowhere yet (Wait).
//
// An address is HOST:PORT (plain HTTP) or https://HOST:PORT (the server
// ends TLS itself: forwarded over HTTPS, its certificate checked).
type Place struct {
	Here bool
	Addr string
	Wait bool
}

// ForwardedHeader marks a request one server forwarded to another.
const ForwardedHeader = "X-Cardtable-Forwarded"

// retryAfter is the Retry-After, in seconds, of a table being taken over.
const retryAfter = "1"

// markMoving marks w's answer as a table between servers
// (arlwire.MovingHeader), to be asked again after retryAfter.
func markMoving(w http.ResponseWriter) {
	w.Header().Set("Retry-After", retryAfter)
	w.Header().Set(arlwire.MovingHeader, "1")
}

// Forward wraps the server's handler (all of it but the outermost
// layers, see below: the table's server then
// applies the checks, limits and identity of an ordinary request) so that
// a request for a table another server runs is forwarded there, and a
// new table is made on the least loaded server (Cluster.ForNew); only if
// the look-up fails or that server cannot be reached is it made here. A
// forwarded request for a table this server does not run (it moved in
// between) is answered 503 with Retry-After: the page and the client
// reconnect. Without a Cluster it is next.
//
// It goes in web.Options.Front: inside the security headers, so that its
// own answers (the 503s) carry them, and after the server has read who
// the client is, which it passes on (web.ForwardTo).
func (h *Handlers) Forward(next http.Handler) http.Handler {
	if h.cluster == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, isNew := tablePath(r)
		if id == "" && !isNew {
			next.ServeHTTP(w, r)
			return
		}
		forwarded := r.Header.Get(ForwardedHeader) != ""
		if isNew {
			if forwarded { // another server chose this one: no look-up
				next.ServeHTTP(w, r)
				return
			}
			addr, err := h.cluster.ForNew(r.Context())
			if err != nil || addr == "" {
				next.ServeHTTP(w, r) // here: a failed look-up makes the table here
				return
			}
			h.proxyNew(w, r, addr, next)
			return
		}
		if _, err := h.hub.Table(id); err == nil {
			next.ServeHTTP(w, r)
			return
		}
		p, err := h.cluster.Where(r.Context(), id)
		switch {
		case err != nil:
			// Forward runs before the server's handler, whose
			// context carries its event log: given here instead.
			h.events.Fault(r.Context(), h.log, "arlington: where a table runs", web.ClientAddr(r), err, "table", id)
			unavailable(w, r, "the table's server cannot be found now")
		case p.Here:
			next.ServeHTTP(w, r)
		case p.Wait || forwarded:
			unavailable(w, r, "the table is moving to another server")
		default:
			h.proxy(w, r, p.Addr)
		}
	})
}

// tablePath is the table id of a table's API path, or isNew for the
// request that makes a table.
func tablePath(r *http.Request) (id string, isNew bool) {
	const prefix = "/api/arlington/tables"
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	if !ok {
		return "", false
	}
	if rest == "" || rest == "/" {
		return "", r.Method == http.MethodPost
	}
	rest, ok = strings.CutPrefix(rest, "/")
	if !ok {
		return "", false
	}
	id, _, _ = strings.Cut(rest, "/")
	if !plausibleID(id) {
		return "", false // no table has it: answered here, no look-up
	}
	return id, false
}

// plausibleID: id could be a table's (letters and digits, as rand.Text
// makes them), so that junk costs no look-up in the database.
func plausibleID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// unavailable answers 503 with Retry-After: the table is between servers.
func unavailable(w http.ResponseWriter, r *http.Request, why string) {
	markMoving(w)
	web.WriteJSON(w, http.StatusServiceUnavailable, struct {
		Error string `json:"error"`
	}{why + ": try again in a moment"})
}

// maxNewBody bounds the body of a new table's request kept to make the
// table here (the create handler reads at most 4 KiB of it).
const maxNewBody = 4<<10 + 1

// proxyNew forwards a new table's request to the server at addr; if that
// server cannot be reached (it died, and its lease has not run out, so it
// still looks the least loaded; or its certificate fails the check), the
// table is made here instead: nothing reached it, so nothing is made
// twice.
func (h *Handlers) proxyNew(w http.ResponseWriter, r *http.Request, addr string, next http.Handler) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxNewBody))
	if err != nil || len(body) >= maxNewBody {
		// Refused here, as the handler refuses it, reading it whole.
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		next.ServeHTTP(w, r)
		return
	}
	fresh := func() io.ReadCloser { return io.NopCloser(bytes.NewReader(body)) }
	r.Body = fresh()
	r.GetBody = func() (io.ReadCloser, error) { return fresh(), nil }
	h.proxyOr(w, r, addr, func(w http.ResponseWriter, r *http.Request, err error) bool {
		var op *net.OpError
		if (!errors.As(err, &op) || op.Op != "dial") && !tlsRefused(err) {
			return false
		}
		h.logForwardErr(addr, err)
		r.Body = fresh()
		next.ServeHTTP(w, r)
		return true
	})
}

// proxy forwards r to the server at addr, WebSocket upgrades too. The
// client's address and scheme go on in X-Forwarded-For and
// X-Forwarded-Proto as this server believes them (web.ForwardTo; the
// other servers must be among that server's --trusted-proxy for them to
// be believed); the Host is kept, so the host check and cookies work as
// on the first server.
func (h *Handlers) proxy(w http.ResponseWriter, r *http.Request, addr string) {
	h.proxyOr(w, r, addr, nil)
}

// proxyOr is proxy, with instead answering a request the server at addr
// did not (true: answered).
func (h *Handlers) proxyOr(w http.ResponseWriter, r *http.Request, addr string,
	instead func(http.ResponseWriter, *http.Request, error) bool) {
	target, transport := h.peers.forAddr(addr, r.Host)
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host
			// The client as this server believes it: a chain or a scheme
			// a client wrote itself must not reach the table's server,
			// which trusts this one.
			web.ForwardTo(pr.In, pr.Out.Header)
			pr.Out.Header.Set(ForwardedHeader, "1")
		},
		// This server's headers are on w already (web.Options.Front):
		// the table's server's answer carries its own, which replace
		// them rather than go out twice.
		ModifyResponse: func(res *http.Response) error {
			for k := range res.Header {
				w.Header().Del(k)
			}
			return nil
		},
		Transport: transport,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if instead != nil && instead(w, r, err) {
				return
			}
			h.logForwardErr(addr, err)
			unavailable(w, r, "the table's server does not answer")
		},
	}
	rp.ServeHTTP(w, r)
}

// logForwardErr logs why a request could not be forwarded to addr. At
// DEBUG: while a dead server's tables are taken over, every client's
// retry fails once; the take-over is logged. A refused handshake is the
// servers' configuration: WARN, once a minute at most, not at every
// request.
func (h *Handlers) logForwardErr(addr string, err error) {
	switch {
	case tlsRefused(err) && h.peers.warnNow():
		h.log.Warn("arlington: the other server refused over HTTPS (its certificate, or the system's roots here)", "addr", addr, "err", err)
	case !errors.Is(err, context.Canceled):
		h.log.Debug("arlington: forwarding to the other server", "addr", addr, "err", err)
	}
}

// tlsRefused: err is a TLS handshake that failed before any request was
// sent: the other server's certificate did not pass the check, the two
// disagree on TLS (a plain HTTP listener answering, an alert), or the
// other server took the connection and never answered the handshake.
// Nothing reached its handlers, so a new table may be made here.
func tlsRefused(err error) bool {
	var hs *handshakeError
	return errors.As(err, &hs) && !errors.Is(err, context.Canceled)
}

// handshakeError is a TLS handshake with another server that failed:
// no request was sent on the connection.
type handshakeError struct{ err error }

func (e *handshakeError) Error() string { return "TLS handshake: " + e.err.Error() }
func (e *handshakeError) Unwrap() error { return e.err }

// Timeouts of a connection to another server: a short dial, so a dead
// server is found fast, and a bounded TLS handshake.
const (
	dialTimeout      = 2 * time.Second
	handshakeTimeout = 5 * time.Second
)

// newForwardTransport carries forwarded requests between servers:
// kept-alive connections, and a short dial so a dead server is found
// fast. tc (nil: plain HTTP) checks an HTTPS peer's certificate; HTTP/1.1
// only, as WebSocket upgrades need it. The handshake is made here, not
// by the transport, so that every way it fails (a stalled one too) is
// known as a handshake's (handshakeError).
func newForwardTransport(tc *tls.Config, handshake time.Duration) *http.Transport {
	dialer := &net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		DialContext:         dialer.DialContext,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
	}
	if tc != nil {
		t.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			tconn := tls.Client(conn, tc)
			hctx, cancel := context.WithTimeout(ctx, handshake)
			defer cancel()
			if err := tconn.HandshakeContext(hctx); err != nil {
				conn.Close()
				return nil, &handshakeError{err}
			}
			return tconn, nil
		}
	}
	return t
}

// forwardTransport carries forwarded requests to plain HTTP servers.
var forwardTransport = newForwardTransport(nil, 0)

// maxHostTransports bounds the transports made for request hosts a
// wildcard name covers (the Host is the client's to choose); past it, a
// host is checked as one no name covers.
const maxHostTransports = 64

// peerTransports carry forwarded requests to HTTPS servers: one per name
// a peer's certificate is checked for (a transport's connections are
// pooled by address, so one checked for another name is never reused).
// The names are the configured ones, and the hosts a configured wildcard
// covers, at most maxHostTransports of them: bounded. It holds a lock and
// a counter, so it is used through a pointer, never copied.
type peerTransports struct {
	names     []string // the configured names, no wildcard, in order
	wildcards *x509.Certificate
	roots     *x509.CertPool
	byName    map[string]*http.Transport // the configured names'
	byHost    hostTransports
	warned    atomic.Int64  // when a refused handshake was last logged at WARN (Unix ns)
	handshake time.Duration // how long a TLS handshake may take
}

// hostTransports are the transports of hosts a wildcard covers.
type hostTransports struct {
	mu sync.Mutex
	m  map[string]*http.Transport
}

// warnNow: no refused handshake was logged at WARN in the last minute;
// this one is (the others at DEBUG).
func (p *peerTransports) warnNow() bool {
	now, last := time.Now().UnixNano(), p.warned.Load()
	return now-last >= int64(time.Minute) && p.warned.CompareAndSwap(last, now)
}

// roots nil: the system's trusted roots (SSL_CERT_FILE and SSL_CERT_DIR
// on Unix); tests pass their own. A wildcard name (*.example.org) covers
// the request hosts x509 would match it with.
func newPeerTransports(names []string, roots *x509.CertPool) *peerTransports {
	return newPeerTransportsWith(names, roots, handshakeTimeout)
}

// newPeerTransportsWith is newPeerTransports with the handshake's
// timeout (tests shorten it).
func newPeerTransportsWith(names []string, roots *x509.CertPool, handshake time.Duration) *peerTransports {
	p := &peerTransports{byName: map[string]*http.Transport{}, roots: roots, handshake: handshake,
		byHost: hostTransports{m: map[string]*http.Transport{}}}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSuffix(n, "."))
		switch {
		case n == "" || p.byName[n] != nil:
		case strings.Contains(n, "*"):
			if p.wildcards == nil {
				p.wildcards = &x509.Certificate{}
			}
			p.wildcards.DNSNames = append(p.wildcards.DNSNames, n)
		default:
			p.names = append(p.names, n)
			p.byName[n] = p.transport(n)
		}
	}
	return p
}

// transport checks the peer's certificate for name.
func (p *peerTransports) transport(name string) *http.Transport {
	return newForwardTransport(&tls.Config{ServerName: name, RootCAs: p.roots, MinVersion: tls.VersionTLS12}, p.handshake)
}

// forAddr is where a request for the server at addr goes and how: addr
// https://HOST:PORT over HTTPS, its certificate checked for host (the
// request's Host) if that is one of the names or a wildcard covers it,
// else for the first name; HOST:PORT over plain HTTP.
func (p *peerTransports) forAddr(addr, host string) (*url.URL, http.RoundTripper) {
	hostport, ok := strings.CutPrefix(addr, "https://")
	if !ok {
		return &url.URL{Scheme: "http", Host: addr}, forwardTransport
	}
	u := &url.URL{Scheme: "https", Host: hostport}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if t := p.byName[host]; t != nil {
		return u, t
	}
	if t := p.forWildcard(host); t != nil {
		return u, t
	}
	if len(p.names) == 0 {
		return u, noPeerNames{}
	}
	return u, p.byName[p.names[0]]
}

// forWildcard is the transport for host if a wildcard name covers it
// and the bound allows, else nil.
func (p *peerTransports) forWildcard(host string) *http.Transport {
	if p.wildcards == nil || p.wildcards.VerifyHostname(host) != nil {
		return nil
	}
	p.byHost.mu.Lock()
	defer p.byHost.mu.Unlock()
	t := p.byHost.m[host]
	if t == nil && len(p.byHost.m) < maxHostTransports {
		t = p.transport(host)
		p.byHost.m[host] = t
	}
	return t
}

// noPeerNames answers for an HTTPS server when no name is configured to
// check its certificate for. Its error counts as a refused handshake:
// nothing was sent, so a new table is made here.
type noPeerNames struct{}

func (noPeerNames) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close() // as a RoundTripper must
	}
	return nil, &handshakeError{errNoPeerNames}
}

var errNoPeerNames = errors.New("no name to check the server's certificate for (--host, --acme or --tls-cert)")
