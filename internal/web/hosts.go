package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// errMisdirected: the request names a host this server does not answer (421).
var errMisdirected = errors.New("misdirected request")

// The host check keeps DNS-rebinding pages out. Such a page is loaded from
// the attacker's name (evil.example), which then resolves to the player's
// server; the browser treats the server as evil.example and lets the page
// read its answers, but still sends "Host: evil.example". Answering only the
// names the server is meant to be reached by closes that door. Loopback names
// are always answered: a browser sends "Host: localhost" or "Host:
// 127.0.0.1" only for a page that came from this machine's own loopback
// address, which a rebinding attacker cannot serve.

// NormalizeHost checks a host name given to the server (cardtable serve
// --host) and returns it in the form the check compares: lower case, no
// trailing dot, an IP address in its canonical text (IPv6 without
// brackets). A port is an error: the check ignores ports.
func NormalizeHost(name string) (string, error) {
	h := strings.TrimSpace(name)
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")); err == nil && a.Zone() == "" {
		return a.Unmap().String(), nil
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if !validDNSName(h) {
		return "", fmt.Errorf("host %q: want a host name or an IP address, without a port", name)
	}
	return h, nil
}

// validDNSName: dot-separated labels of letters, digits and hyphens, 1 to
// 63 bytes each and not starting or ending with a hyphen; 253 bytes at most.
func validDNSName(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range []byte(label) {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// requestHost is the name in a request's Host header, normalized as
// NormalizeHost does, or "" when there is none or it is malformed.
func requestHost(r *http.Request) string {
	h := r.Host
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	n, err := NormalizeHost(h)
	if err != nil {
		return ""
	}
	return n
}

// isLoopbackName: localhost or a loopback address.
func isLoopbackName(h string) bool {
	if h == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.IsLoopback()
}

// hostCheck answers only requests addressed to a loopback name or to one of
// hosts (normalized); others get 421 Misdirected Request.
func (s *Server) hostCheck(hosts []string, next http.Handler) http.Handler {
	allowed := make(map[string]bool, len(hosts))
	for _, h := range hosts {
		if n, err := NormalizeHost(h); err == nil {
			allowed[n] = true
		} else {
			s.log.Warn("ignoring an invalid allowed host", "host", h, "err", err)
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := requestHost(r)
		if h != "" && (isLoopbackName(h) || allowed[h]) {
			next.ServeHTTP(w, r)
			return
		}
		msg := fmt.Sprintf("host %q refused: not a host name or IP address", r.Host)
		if h != "" {
			msg = fmt.Sprintf("host %q refused: this server answers only the names it was started for; "+
				"to reach it by this name, start it with cardtable serve --host %s", r.Host, h)
		}
		WriteError(w, r, s.log, &requestError{errMisdirected, msg})
	})
}
