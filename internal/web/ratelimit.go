package web

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The rate limit keys players by the identity cookie's raw value; it does
// not need to trust it, because the limit by address holds for anyone who
// drops or forges the cookie.

// RateLimit bounds how fast the requests that create something on the
// server arrive: the routes each mounted game names (Limited), such as
// Spider's new games, loaded save files, opened saves and save writes, or
// Arlington's new tables. Each player (by the identity cookie) and each
// client address (IPv4 address, or IPv6 /64) has a token bucket; a request
// needs a token from both.
type RateLimit struct {
	Player, Address Bucket
	// OftenPlayer and OftenAddress are the buckets of the routes a page
	// calls at a player's every click (Frequent), such as Arlington's
	// preview of a selection: cheap each, but many, so they have buckets
	// of their own, and clicking never uses up the tokens of the routes
	// that create things. A zero Bucket is DefaultRateLimit's.
	OftenPlayer, OftenAddress Bucket
	// MaxKeys bounds how many players, and how many addresses, are
	// tracked at once in each set of buckets; beyond it the idle ones are
	// forgotten first.
	MaxKeys int
}

// Bucket is a token bucket: Burst requests at once, then one per Every.
type Bucket struct {
	Burst int
	Every time.Duration
}

// DefaultRateLimit is what cardtable serve uses. A player gets 60 at once
// and then one a second: more than anyone clicking "New game" by hand, who
// also has to look at the deal. An address gets 240 at once and two a
// second, for players sharing one address (a household or a classroom
// behind one router). On the routes called at every click a player gets
// 120 at once and then five a second, more than anyone clicks cards for
// long, and an address 600 at once and 25 a second: thirty players behind
// it each picking a card about every 1.2 s.
func DefaultRateLimit() RateLimit {
	return RateLimit{
		Player:       Bucket{Burst: 60, Every: time.Second},
		Address:      Bucket{Burst: 240, Every: 500 * time.Millisecond},
		OftenPlayer:  Bucket{Burst: 120, Every: 200 * time.Millisecond},
		OftenAddress: Bucket{Burst: 600, Every: 40 * time.Millisecond},
		MaxKeys:      10000,
	}
}

// often is the limit of the routes called at every click (Frequent): the
// Often buckets as the Player and Address ones, zero ones DefaultRateLimit's.
func (rl RateLimit) often() RateLimit {
	d := DefaultRateLimit()
	o := RateLimit{Player: rl.OftenPlayer, Address: rl.OftenAddress, MaxKeys: rl.MaxKeys}
	if o.Player.Burst <= 0 || o.Player.Every <= 0 {
		o.Player = d.OftenPlayer
	}
	if o.Address.Burst <= 0 || o.Address.Every <= 0 {
		o.Address = d.OftenAddress
	}
	return o
}

// limiter holds the buckets. Memory is bounded: each map holds at most
// MaxKeys buckets.
type limiter struct {
	cfg     RateLimit
	mu      sync.Mutex
	players map[string]*bucketState
	addrs   map[string]*bucketState
}

type bucketState struct {
	tokens float64
	at     time.Time // when tokens was right
}

func newLimiter(cfg RateLimit) *limiter {
	if cfg.MaxKeys <= 0 {
		cfg.MaxKeys = DefaultRateLimit().MaxKeys
	}
	return &limiter{cfg: cfg, players: map[string]*bucketState{}, addrs: map[string]*bucketState{}}
}

// allow takes a token from the player's bucket (player "" has none) and
// the address's, or from neither; when refused, wait is how long until
// both will have one.
func (l *limiter) allow(player, addr string, now time.Time) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.get(l.addrs, addr, l.cfg.Address, now)
	wait = a.need(l.cfg.Address)
	var p *bucketState
	if player != "" {
		p = l.get(l.players, player, l.cfg.Player, now)
		wait = max(wait, p.need(l.cfg.Player))
	}
	if wait > 0 {
		return false, wait
	}
	a.tokens--
	if p != nil {
		p.tokens--
	}
	return true, 0
}

// get returns key's bucket in m, refilled to now; a new key's bucket is
// full. Inserting into a full map first forgets buckets that are full
// again (forgetting them loses nothing: a new bucket is full), then, if
// the map is still full, the quarter idle longest.
func (l *limiter) get(m map[string]*bucketState, key string, b Bucket, now time.Time) *bucketState {
	s := m[key]
	if s == nil {
		if len(m) >= l.cfg.MaxKeys {
			l.evict(m, b, now)
		}
		s = &bucketState{tokens: float64(b.Burst), at: now}
		m[key] = s
		return s
	}
	s.refill(b, now)
	return s
}

func (s *bucketState) refill(b Bucket, now time.Time) {
	if d := now.Sub(s.at); d > 0 {
		s.tokens = min(float64(b.Burst), s.tokens+float64(d)/float64(b.Every))
		s.at = now
	}
}

// need is how long until the bucket holds a token (0: it does).
func (s *bucketState) need(b Bucket) time.Duration {
	if s.tokens >= 1 {
		return 0
	}
	return time.Duration(math.Ceil((1 - s.tokens) * float64(b.Every)))
}

func (l *limiter) evict(m map[string]*bucketState, b Bucket, now time.Time) {
	for k, s := range m {
		s.refill(b, now)
		if s.tokens >= float64(b.Burst) {
			delete(m, k)
		}
	}
	if len(m) < l.cfg.MaxKeys {
		return
	}
	type idle struct {
		key string
		at  time.Time
	}
	all := make([]idle, 0, len(m))
	for k, s := range m {
		all = append(all, idle{k, s.at})
	}
	slices.SortFunc(all, func(x, y idle) int { return x.at.Compare(y.at) })
	for _, e := range all[:len(all)/4+1] {
		delete(m, e.key)
	}
}

// size is how many buckets are held, for tests.
func (l *limiter) size() (players, addrs int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.players), len(l.addrs)
}

// rateLimit refuses a request to a limited route when its player or its
// address is out of tokens: 429 with Retry-After. The routes the games
// name Limited take tokens from s.limit, those they name Frequent from
// s.often.
func (s *Server) rateLimit(mux *http.ServeMux, next http.Handler) http.Handler {
	limited := map[string]*limiter{}
	for _, g := range s.opts.Games {
		if fg, ok := g.(Frequent); ok {
			for _, p := range fg.Frequent() {
				limited[p] = s.often
			}
		}
		if lg, ok := g.(Limited); ok { // a route named both takes the Limited buckets
			for _, p := range lg.Limited() {
				limited[p] = s.limit
			}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, pattern := mux.Handler(r)
		l := limited[pattern]
		if l == nil {
			next.ServeHTTP(w, r)
			return
		}
		if s.allow(w, r, l, pattern) {
			next.ServeHTTP(w, r)
		}
	})
}

// LimitOften takes a token from the request's address's bucket of the
// routes called at every click (Frequent) before a request whose path
// starts with prefix reaches next, refusing it as those routes are
// refused when there is none; other requests go to next as they are. It
// bounds, by address, the routes served besides the Server's own whose
// every request reads the database, such as --acme's challenge answers
// on the plain-HTTP listener. Without a rate limit it is next.
func (s *Server) LimitOften(prefix string, next http.Handler) http.Handler {
	if s.often == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, prefix) || s.allow(w, r, s.often, prefix) {
			next.ServeHTTP(w, r)
		}
	})
}

// allow takes a token from l for r's player and address, or refuses r
// (429 with Retry-After, logged as route) and is false.
func (s *Server) allow(w http.ResponseWriter, r *http.Request, l *limiter, route string) bool {
	ok, wait := l.allow(cookieKey(r), addrKey(r), s.now())
	if ok {
		return true
	}
	secs := int(math.Ceil(wait.Seconds()))
	s.obs.RateLimited()
	s.events.Event(r.Context(), slog.LevelWarn, "request refused", "rate limited", ClientAddr(r),
		"route", route)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	// The words are the shared layer's, so they name no game's
	// things: the route is the one the player just used.
	WriteError(w, r, s.log, &requestError{ErrTooMany, fmt.Sprintf(
		"too many requests like this one from this player or address: try again in %d s", secs)})
	return false
}

// cookieKey is the identity cookie's value ("" without one); a long value
// is hashed, so a key's size is bounded whatever the client sends.
func cookieKey(r *http.Request) string {
	c, err := r.Cookie(playerCookie)
	if err != nil || c.Value == "" {
		return ""
	}
	if len(c.Value) <= 64 {
		return c.Value
	}
	sum := sha256.Sum256([]byte(c.Value))
	return "#" + hex.EncodeToString(sum[:])
}

// AddrKey is the client address a request comes from as the limits by
// address key it (addrKey: ClientAddr's address, an IPv6 one as its /64):
// the games' handlers use it for their own bounds by address, so every
// limit by address agrees on who the client is.
func AddrKey(r *http.Request) string { return addrKey(r) }

// addrKey is the client's address: an IPv4 address, or the /64 network of
// an IPv6 address (one machine commonly holds a whole /64).
func addrKey(r *http.Request) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr // not from a TCP connection (tests); still a key
	}
	return keyOf(ap.Addr().Unmap())
}

// keyOf is a's address key: a itself for IPv4, its /64 for IPv6.
func keyOf(a netip.Addr) string {
	if a.Is6() {
		p, _ := a.Prefix(64) // 64 is valid for IPv6
		return p.String()
	}
	return a.String()
}
