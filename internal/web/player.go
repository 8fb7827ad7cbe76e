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

// playerFrom is the player the request comes from: the key identify put in
// its context ("" only for a request that did not go through identify).
func playerFrom(r *http.Request) string {
	p, _ := r.Context().Value(playerKey{}).(string)
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
// adopts what was stored before players existed (store.AdoptLegacy).
func (s *Server) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
		// page (not every API answer), so an active player's never lapses.
		if fresh || !strings.HasPrefix(r.URL.Path, "/api/") {
			http.SetCookie(w, &http.Cookie{Name: playerCookie, Value: token, Path: "/",
				MaxAge: int(playerMaxAge / time.Second), HttpOnly: true,
				SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
		}
		if fresh && s.legacy.Load() {
			if err := s.adoptLegacy(r.Context(), id); err != nil {
				writeError(w, r, s.log, err)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), playerKey{}, id)))
	})
}

// adoptLegacy gives player the rows stored before players existed, if any
// are left: only the first new player after an upgrade finds any.
func (s *Server) adoptLegacy(ctx context.Context, player string) error {
	ok, err := s.db.AdoptLegacy(context.WithoutCancel(ctx), player)
	if err != nil {
		return err
	}
	if ok {
		s.log.InfoContext(ctx, "stored games, saves, statistics and settings from before players adopted by a new player")
	}
	s.legacy.Store(false)
	return nil
}
