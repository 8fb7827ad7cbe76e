package arlclient

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// IdentityCookie is the server's player-identity cookie (docs/api.md,
// "Players"): the server sets it on the first API answer to a client
// without a valid one, with Path=/ and Secure over TLS.
const IdentityCookie = "cardtable_player"

// MaxToken bounds an identity token this client keeps or sends; the
// server's are 26 characters.
const MaxToken = 256

// ErrBadToken: a token that cannot be a cookie's value.
var ErrBadToken = errors.New("not an identity token")

// Origin is the server's origin, scheme://host:port with the port always
// written, the key under which a caller keeps this client's identity.
func (c *Client) Origin() string {
	return originOf(c.base)
}

// CanonicalOrigin is address's origin as Origin writes it, or an error
// when address is not a plain origin (a path, a query, another scheme).
func CanonicalOrigin(address string) (string, error) {
	u, err := url.Parse(address)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%w: %q is not scheme://host:port", ErrBadServer, address)
	}
	return originOf(u), nil
}

func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	// An IPv6 zone (fe80::1%eth0) is written %25 as in a URL, so that the
	// origin parses back to itself.
	host := strings.ReplaceAll(strings.ToLower(u.Hostname()), "%", "%25")
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(host, port)
}

// cookieURL is where the identity cookie lives: the server's root, as
// its Path=/ says, whatever path prefix the client's links carry.
func (c *Client) cookieURL() *url.URL {
	return &url.URL{Scheme: c.base.Scheme, Host: c.base.Host, Path: "/"}
}

// Identity is the identity token the client holds for its server: the
// one SetIdentity gave it, or the one the server issued (replacing one it
// did not accept); "" before either. Whoever holds it acts as the player.
func (c *Client) Identity() string {
	for _, k := range c.hc.Jar.Cookies(c.cookieURL()) {
		if k.Name == IdentityCookie {
			return k.Value
		}
	}
	return ""
}

// SetIdentity makes the client act as the player token stands for, as a
// browser does with the cookie it kept; call it before the first request.
// The cookie is set as the server sets it (Path=/, Secure over https), so
// the client sends it where a browser would.
func (c *Client) SetIdentity(token string) error {
	if !ValidToken(token) {
		return ErrBadToken
	}
	u := c.cookieURL()
	c.hc.Jar.SetCookies(u, []*http.Cookie{{Name: IdentityCookie, Value: token, Path: "/",
		HttpOnly: true, Secure: u.Scheme == "https", SameSite: http.SameSiteLaxMode}})
	return nil
}

// ValidToken reports whether s can be sent as the identity cookie's
// value: 1 to MaxToken cookie-octets (RFC 6265). The client does not
// check the server's own form: a server that does not accept a token
// issues a new one.
func ValidToken(s string) bool {
	if s == "" || len(s) > MaxToken {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x21 || b > 0x7e || b == '"' || b == ',' || b == ';' || b == '\\' {
			return false
		}
	}
	return true
}
