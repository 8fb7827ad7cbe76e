package web

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Behind a reverse proxy every request comes from the proxy's address, and
// the proxy says who the client is in X-Forwarded-For / X-Forwarded-Proto
// or RFC 7239's Forwarded. Anyone can send those headers, so they are
// believed only when the peer is one of Options.TrustedProxies; and since
// each proxy appends the address it got the request from, the client is the
// rightmost address that is not a trusted proxy (anything left of it was
// written by the client and may be forged). Without trusted proxies the
// headers are ignored.

// ParseProxies reads a comma-separated list of addresses or CIDR prefixes
// (cardtable serve --trusted-proxy); an address is a /32 (or /128).
func ParseProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			bits := p.Bits()
			if p.Addr().Is4In6() {
				bits = max(0, bits-96)
			}
			out = append(out, netip.PrefixFrom(p.Addr().Unmap(), bits).Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: want an IP address or a CIDR prefix such as 10.0.0.0/8", item)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// client is who a request comes from, as the server believes it.
type client struct {
	addr  netip.Addr // invalid when RemoteAddr is not an address (tests)
	https bool       // the client's request was made over HTTPS
	// peer is the RemoteAddr the request came from (realClient rewrites
	// it), and vouched is set when that peer is a trusted proxy, whose
	// chain of addresses this server believed (ForwardTo passes both on).
	peer    string
	vouched bool
}

type clientKey struct{}

func clientFrom(r *http.Request) client {
	c, _ := r.Context().Value(clientKey{}).(client)
	return c
}

// IsHTTPS reports whether the client made r over HTTPS: directly, or to a
// trusted proxy that says so.
func IsHTTPS(r *http.Request) bool {
	if c, ok := r.Context().Value(clientKey{}).(client); ok {
		return c.https
	}
	return r.TLS != nil
}

// ClientAddr is the client's address, the trusted proxies' word taken
// (logs and rate limits use it); RemoteAddr when it is not an address.
func ClientAddr(r *http.Request) string {
	if c := clientFrom(r); c.addr.IsValid() {
		return c.addr.String()
	}
	return r.RemoteAddr
}

// ForwardTo writes on out, the headers of r as this server passes it on
// to another server (a cluster's, which must count this one among its
// trusted proxies), who r's client is as this server believes it, in the
// headers that server reads: X-Forwarded-For, the chain of addresses a
// trusted proxy gave this server (none from anyone else, who may have
// written anything there) and then the peer r came from; and
// X-Forwarded-Proto, https or http as this server decided it (IsHTTPS),
// never as the client claimed. Forwarded is dropped: its chain, when
// believed, goes on as X-Forwarded-For.
func ForwardTo(r *http.Request, out http.Header) {
	c, ok := r.Context().Value(clientKey{}).(client)
	if !ok {
		c = client{peer: r.RemoteAddr} // not through realClient: no proxy believed
	}
	var chain []string
	if hops, ok := forwardedHops(r.Header); ok && c.vouched {
		for _, h := range hops {
			if h.addr.IsValid() {
				chain = append(chain, h.addr.String())
			} else {
				chain = append(chain, "unknown") // trust stops there, there too
			}
		}
	}
	if host, _, err := net.SplitHostPort(c.peer); err == nil {
		chain = append(chain, host)
	}
	out.Del("Forwarded")
	out.Del("X-Forwarded-For")
	if len(chain) > 0 {
		out.Set("X-Forwarded-For", strings.Join(chain, ", "))
	}
	proto := "http"
	if IsHTTPS(r) {
		proto = "https"
	}
	out.Set("X-Forwarded-Proto", proto)
}

// realClient works out the client of each request and rewrites RemoteAddr
// to it (port 0 when a proxy named it), so everything after sees the client.
func realClient(trusted []netip.Prefix, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := resolveClient(trusted, r)
		if c.addr.IsValid() {
			if peer, err := netip.ParseAddrPort(r.RemoteAddr); err != nil || peer.Addr().Unmap() != c.addr {
				r.RemoteAddr = netip.AddrPortFrom(c.addr, 0).String()
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, c)))
	})
}

func isTrusted(trusted []netip.Prefix, a netip.Addr) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// hop is one step of a forwarding chain: the address a proxy got the
// request from, and the scheme it was made with ("" if not said).
type hop struct {
	addr  netip.Addr
	proto string
}

func resolveClient(trusted []netip.Prefix, r *http.Request) client {
	c := client{https: r.TLS != nil, peer: r.RemoteAddr}
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return c
	}
	c.addr = peer.Addr().Unmap()
	if !isTrusted(trusted, c.addr) {
		return c
	}
	c.vouched = true
	hops, ok := forwardedHops(r.Header)
	if !ok {
		// A proxy may say only the scheme: the peer is then the client.
		if p := r.Header.Get("X-Forwarded-Proto"); p != "" {
			c.https = strings.EqualFold(strings.TrimSpace(p), "https")
		}
		return c
	}
	// From the right: each trusted hop vouches for the one before it.
	for i := len(hops) - 1; i >= 0; i-- {
		h := hops[i]
		if !h.addr.IsValid() {
			break // an obfuscated or malformed hop: trust stops here
		}
		c.addr = h.addr
		if h.proto != "" {
			c.https = strings.EqualFold(h.proto, "https")
		}
		if !isTrusted(trusted, h.addr) {
			break
		}
	}
	return c
}

// forwardedHops reads the chain a proxy reported. X-Forwarded-For is
// preferred when present (the headers nginx and most proxies set; a proxy
// that writes Forwarded instead must drop a client's X-Forwarded-For); a
// lone X-Forwarded-Proto applies to the hop nearest this server.
func forwardedHops(h http.Header) ([]hop, bool) {
	if xff := h.Values("X-Forwarded-For"); len(xff) > 0 {
		var hops []hop
		for _, line := range xff {
			for item := range strings.SplitSeq(line, ",") {
				hops = append(hops, hop{addr: parseHopAddr(item)})
			}
		}
		var protos []string
		for _, line := range h.Values("X-Forwarded-Proto") {
			for p := range strings.SplitSeq(line, ",") {
				protos = append(protos, strings.TrimSpace(p))
			}
		}
		switch {
		case len(protos) == len(hops):
			for i := range hops {
				hops[i].proto = protos[i]
			}
		case len(protos) > 0:
			hops[len(hops)-1].proto = protos[len(protos)-1]
		}
		return hops, true
	}
	fwd := h.Values("Forwarded")
	if len(fwd) == 0 {
		return nil, false
	}
	var hops []hop
	for _, line := range fwd {
		for elem := range strings.SplitSeq(line, ",") {
			var hp hop
			for pair := range strings.SplitSeq(elem, ";") {
				k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if !ok {
					continue
				}
				v = strings.Trim(v, `"`)
				switch strings.ToLower(k) {
				case "for":
					hp.addr = parseHopAddr(v)
				case "proto":
					hp.proto = v
				}
			}
			hops = append(hops, hp)
		}
	}
	return hops, true
}

// parseHopAddr reads an address as proxies write it: bare, with a port, or
// bracketed IPv6 with or without a port. Invalid when it is none of these
// (an obfuscated identifier, "unknown").
func parseHopAddr(s string) netip.Addr {
	s = strings.TrimSpace(s)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap()
	}
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil {
		return a.Unmap()
	}
	return netip.Addr{}
}
