package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Player identity (docs/api.md, "Players"): each browser holds a random
// token in an HttpOnly cookie; the server keys everything the player owns
// by a hash of it, so the database never holds a token that works.
const (
	playerCookie = "cardtable_player"
	// PlayerMaxAge is the cookie's lifetime, the most browsers keep one
	// (400 days); it is renewed with every page load. The one source of
	// that figure: an identity unseen for as long is one nobody holds, and
	// what it stored is pruned (spidergame.Options.Forget).
	PlayerMaxAge = 400 * 24 * time.Hour
	// tokenLen is the length of rand.Text's 130-bit base32 tokens.
	tokenLen = 26
)

type playerKey struct{}

// Player is the id of the player the request comes from: the key the
// identity middleware put in its context on every API request and page
// ("" only for a request that did not go through it).
func Player(r *http.Request) string {
	p, _ := r.Context().Value(playerKey{}).(string)
	return p
}

// PlayerFromContext is the player of the request whose context ctx is (or
// derives from), "" when it did not go through identify. Server-side only:
// it is the key the database stores, never the cookie's token.
func PlayerFromContext(ctx context.Context) string {
	p, _ := ctx.Value(playerKey{}).(string)
	return p
}

// playerID is the key of a token: what the database stores.
func playerID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:16])
}

// validToken reports whether s can be a token rand.Text made.
func validToken(s string) bool {
	if len(s) != tokenLen {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", c) {
			return false
		}
	}
	return true
}

// identify gives every request a player: the one its cookie names, or a
// new one, whose cookie goes out with the answer. The first new player
// that is a browser adopts what was stored before players existed
// (Options.Adopt).
func (s *Server) identify(mux *http.ServeMux, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only the API and the pages need a player, and the pages hand one
		// out. Static files (the "/" catch-all) never carry the cookie, so
		// no cache can keep and replay it to another browser.
		_, pattern := mux.Handler(r)
		page := s.pages[r.URL.Path] ||
			(pattern != "/" && pattern != "" && !strings.HasPrefix(r.URL.Path, "/api/"))
		if !page && !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		token := ""
		if c, err := r.Cookie(playerCookie); err == nil && validToken(c.Value) {
			token = c.Value
		}
		fresh := token == ""
		if fresh {
			token = rand.Text()
		}
		id := playerID(token)
		// A new cookie goes out at once; an old one is renewed with the
		// page (not with every API answer), so an active player's never
		// lapses.
		if fresh || page {
			http.SetCookie(w, &http.Cookie{Name: playerCookie, Value: token, Path: "/",
				MaxAge: int(PlayerMaxAge / time.Second), HttpOnly: true,
				SameSite: http.SameSiteLaxMode, Secure: IsHTTPS(r)})
			// Whatever answer carries the cookie (a page, an API answer,
			// a redirect, an error) is this player's alone (cache.go). A
			// handler setting a stricter value (no-store) overrides.
			cachePrivate(w.Header())
		}
		if fresh && s.legacy.Load() && browser(r, page) {
			if err := s.adopt(r.Context(), id); err != nil {
				WriteError(w, r, s.log, err)
				return
			}
		}
		if !fresh && s.opts.Seen != nil {
			s.seen(r, id)
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), playerKey{}, id)))
	})
}

// browser reports whether r, a page load when page is set, is a
// browser's own: only a browser adopts what was stored before players
// (docs/api.md, "Players"). The first new identity after an upgrade was
// once a script's or a terminal client's (curl, an uptime monitor's probe
// of the page, arlington new-table), and the player's browser then found
// nothing.
//
// A page load counts when it is a navigation: GET (not HEAD) asking for
// HTML, as every browser's does and curl's */* does not. An API request
// counts when it carries what a browser adds to a page's own requests:
// Sec-Fetch-Mode (sent only to trustworthy origins: HTTPS, localhost,
// 127.0.0.0/8); a same-origin Origin (a POST's, a WebSocket's, at any
// origin); or, for a GET fetch from a page served over plain HTTP at a
// network address, which carries neither (the pages' Referrer-Policy
// no-referrer drops the Referer too), a browser's User-Agent with
// Accept-Language, both of which every browser sends with every request
// and neither curl, Go's client nor the terminal clients do.
func browser(r *http.Request, page bool) bool {
	if page {
		return r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/html")
	}
	// A request another site's page made (an image, a no-cors fetch)
	// carries Sec-Fetch-Site cross-site or same-site: never the player's.
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	if r.Header.Get("Sec-Fetch-Mode") != "" || sameOrigin(r, r.Header.Get("Origin")) {
		return true
	}
	return strings.HasPrefix(r.Header.Get("User-Agent"), "Mozilla/5.0 ") && r.Header.Get("Accept-Language") != ""
}

// sameOrigin reports whether origin names the host (and port) r was sent
// to.
func sameOrigin(r *http.Request, origin string) bool {
	if origin == "" || origin == "null" {
		return false
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

// adopt hands player what was stored before players existed
// (Options.Adopt), until a call succeeds: only the first new player after
// an upgrade finds anything.
func (s *Server) adopt(ctx context.Context, player string) error {
	ok, err := s.opts.Adopt(context.WithoutCancel(ctx), player)
	if err != nil {
		return err
	}
	if ok {
		s.log.InfoContext(ctx, "what was stored before players adopted by a new player")
	}
	s.legacy.Store(false)
	return nil
}

// seenWithin bounds recording a visit, and SeenPause is how long visits
// go unrecorded after a failure. A visit's record is worth little to one
// request (it is tried again at a later one, long before the identity
// could be forgotten), and a database out of reach or slow (a lock held)
// must not hold up every request, pages and live tables included that
// need no database, nor take a connection of its pool for each.
var seenWithin = 2 * time.Second

// SeenPause: see seenWithin.
const SeenPause = 30 * time.Second

// seen records the visit of the player id (Options.Seen), unless a
// failure within SeenPause paused the recording.
func (s *Server) seen(r *http.Request, id string) {
	if s.now().UnixNano() < s.seenPaused.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), seenWithin)
	err := s.opts.Seen(ctx, id)
	cancel()
	if err == nil {
		return
	}
	// A client that hung up meanwhile is no fault of the server's: INFO,
	// as Fault logs clients gone.
	level, reason := slog.LevelWarn, seenReason(err)
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		level, reason = slog.LevelInfo, clientGone
	} else {
		s.seenPaused.Store(s.now().Add(SeenPause).UnixNano())
	}
	s.events.Event(r.Context(), level, "recording a player as seen", reason, ClientAddr(r), "err", err)
}

// seenReason is the log's reason of a visit not recorded: the reasons of
// the requests' database refusals (dbReason: the 503s, the disk full's
// 507), or seenSlow past its own bound,
// or seenFailed; the error's own words go in the line's err. Decision:
// the error's text was the reason, so the event log's bound by reason
// held nothing back (each text a reason of its own, up to its limit of
// kinds) and a line told no class an operator could count.
func seenReason(err error) string {
	if reason, ok := dbReason(err); ok {
		return reason
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return seenSlow
	}
	return seenFailed
}

// The reasons of a visit not recorded besides the database refusals'.
const (
	// The statement may have been running long, or PostgreSQL may have
	// stopped answering on a connection already open: the bound cannot
	// tell which.
	seenSlow   = "database slow or not answering: visit not answered within its bound"
	seenFailed = "failed"
)
