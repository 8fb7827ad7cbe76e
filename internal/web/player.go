package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"
)

// Player identity (docs/api.md, "Players"): each browser holds a random
// token in an HttpOnly cookie; the server keys everything the player owns
// by a hash of it, so the database never holds a token that works.
const (
	playerCookie = "cardtable_player"
	// playerMaxAge is the cookie's lifetime, the most browsers keep one
	// (400 days); it is renewed with every page load.
	playerMaxAge = 400 * 24 * time.Hour
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
				MaxAge: int(playerMaxAge / time.Second), HttpOnly: true,
				SameSite: http.SameSiteLaxMode, Secure: IsHTTPS(r)})
		}
		if fresh && s.legacy.Load() && (page || fromBrowser(r)) {
			if err := s.adopt(r.Context(), id); err != nil {
				WriteError(w, r, s.log, err)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), playerKey{}, id)))
	})
}

// fromBrowser reports whether r is a browser's own request: every
// current browser sends Sec-Fetch-Mode with each request (a page's fetch,
// its WebSocket), and neither curl nor the terminal clients do. What was
// stored before players goes only to a browser (a page load, or a page
// left open across the upgrade): the first new identity after an upgrade
// was once a terminal client's (arlington new-table, connect), which
// keeps no cookie, and the player's own browser then found nothing.
func fromBrowser(r *http.Request) bool { return r.Header.Get("Sec-Fetch-Mode") != "" }

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
