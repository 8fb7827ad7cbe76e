package web

import (
	"context"
	"log/slog"
	"net"
	"net/netip"
	"sync"
)

// MaxConnsPerAddress is how many TCP connections one client address (an
// IPv4 address, or an IPv6 /64, as the rate limits count them) may hold
// open at once on the server's listeners (docs/hosting.md,
// "Behind a proxy"). An idle keep-alive connection lasts two minutes and a
// connection sending its headers slowly ten seconds, so without a bound a
// single machine could hold every file descriptor the process has, and
// no one else could connect. 512 is four times the WebSockets an address
// may hold (128), with room left for the page's own HTTP connections from
// a classroom behind one router.
const MaxConnsPerAddress = 512

// LimitListener returns ln, accepting at most perAddr connections open at
// once from each client address; a connection past it is closed as soon
// as it is accepted, before anything is read from it, and logged through
// events (bounded; nil: not logged). Connections from the trusted proxies
// are not counted: each carries many clients, whom the rate limits tell
// apart by their forwarded addresses. perAddr <= 0 is MaxConnsPerAddress.
func LimitListener(ln net.Listener, perAddr int, trusted []netip.Prefix, events *EventLog) net.Listener {
	if perAddr <= 0 {
		perAddr = MaxConnsPerAddress
	}
	return &limitListener{Listener: ln, per: perAddr, trusted: trusted, events: events, open: map[string]int{}}
}

type limitListener struct {
	net.Listener
	per     int
	trusted []netip.Prefix
	events  *EventLog

	mu   sync.Mutex
	open map[string]int // connections open by address key; no zero entries
}

// Accept returns the next connection its address may open, closing the
// others; it fails only as the listener does.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key, counted := l.key(c.RemoteAddr())
		if !counted {
			return c, nil
		}
		if l.take(key) {
			return &limitConn{Conn: c, release: func() { l.release(key) }}, nil
		}
		c.Close()
		if l.events != nil {
			l.events.Event(context.Background(), slog.LevelWarn, "connection refused", "too many connections", key,
				"limit", l.per)
		}
	}
}

// key is the address key a connection from a counts under, and whether
// it counts at all (not a trusted proxy's, and a TCP address).
func (l *limitListener) key(a net.Addr) (string, bool) {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return "", false
	}
	addr := ap.Addr().Unmap()
	if isTrusted(l.trusted, addr) {
		return "", false
	}
	return keyOf(addr), true
}

func (l *limitListener) take(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key] >= l.per {
		return false
	}
	l.open[key]++
	return true
}

func (l *limitListener) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// limitConn gives its address's place back once, at its first Close
// (the HTTP server, TLS and a WebSocket may each close it).
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
