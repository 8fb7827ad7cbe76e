// Package web is cardtable's shared HTTP layer: the server, its middleware
// (security headers, CSP, host check, cross-origin protection, player
// identity, rate limits), the error classes and their statuses, JSON in and
// out with limits, and the embedded static files. Each game's handlers live
// in a package of their own (spiderweb, arlweb) and are mounted through
// Routes (Options.Games); this package knows no game and no store.
package web

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Server. The zero value is usable.
type Options struct {
	Log *slog.Logger
	// Now is the clock of the rate limit and of the readiness probe's
	// reuse (tests fix it); time.Now if nil.
	Now func() time.Time
	// CheckHost makes the server answer only requests addressed (the Host
	// header, port aside) to a loopback name (localhost, 127.0.0.1, [::1])
	// or to one of Hosts; others get 421. It keeps DNS-rebinding pages
	// out (hosts.go). cardtable serve always sets it.
	CheckHost bool
	Hosts     []string
	// RateLimit, if not nil, bounds how fast each player and each client
	// address may use the routes that create things (Limited) and, with
	// buckets of their own, the routes called at every click (Frequent;
	// see ratelimit.go). nil: no limit, for tests and the load benchmark, which
	// create games at machine speed; cardtable serve uses DefaultRateLimit.
	RateLimit *RateLimit
	// Games are the games' handlers, mounted on the server's mux.
	Games []Routes
	// Adopt, if set, is given the first new player (a request without a
	// valid identity cookie) after the server starts, and each following
	// new player until a call returns no error: it hands that player what
	// was stored before players existed ("rows from before the upgrade go
	// to the first new browser"), reporting whether there was anything.
	// Its error is answered (WriteError) and the request goes no further.
	Adopt func(ctx context.Context, player string) (adopted bool, err error)
	// Seen, if set, is told the player of every request that brought its
	// identity cookie back (not of a new one: a client that keeps no
	// cookie would cost a write a request), to record, at most once a
	// day and only for an identity the store knows, that the identity is
	// still in use; what an identity unseen for PlayerMaxAge (and
	// spidergame.ForgetMargin) stored is pruned.
	Seen func(ctx context.Context, player string) error
	// TrustedProxies are the addresses whose X-Forwarded-For,
	// X-Forwarded-Proto and Forwarded headers are believed (proxy.go);
	// from anyone else those headers are ignored.
	TrustedProxies []netip.Prefix
	// Ready, if set, is asked by /readyz whether the database can be
	// written (health.go).
	Ready Pinger
	// Observer, if set, is told of every request (observe.go).
	Observer Observer
	// Events, if set, logs refused and closed connections and rate-limit
	// refusals, bounded (events.go); default: Log, EventsPerMinute.
	Events *EventLog
	// HSTS, if positive, is the max-age of the Strict-Transport-Security
	// header sent on every answer to a request made over HTTPS (directly,
	// or to a trusted proxy that says so); never over plain HTTP.
	HSTS time.Duration
	// Front, if set, wraps all the server does but its outermost layers:
	// the security headers, the reading of the client (realClient) and
	// Strict-Transport-Security. cardtable serve gives it a cluster's
	// forwarding to a table's server (arlweb's Forward), whose own
	// answers then carry the headers, and which then passes the client
	// on as this server believes it (ForwardTo).
	Front func(http.Handler) http.Handler
}

// Server serves the mounted games and the pages. It is an http.Handler.
type Server struct {
	log   *slog.Logger
	now   func() time.Time
	opts  Options
	limit *limiter // nil without Options.RateLimit
	often *limiter // the routes called at every click (Frequent); nil with limit
	h     http.Handler
	// pages are the URL paths of the static HTML pages (the front page,
	// the Spider page), which hand out the identity cookie (identify).
	pages map[string]bool
	// legacy is set while Options.Adopt has yet to succeed (see identify).
	legacy atomic.Bool
	// seenPaused is until when (Unix nanoseconds) visits go unrecorded
	// after a failure to record one (seen).
	seenPaused atomic.Int64

	obs    Observer
	events *EventLog
	ready  *readiness // nil without Options.Ready
	// drain closes when the server starts stopping (Drain); inflight
	// counts the requests being handled (Wait).
	drain     chan struct{}
	drainOnce sync.Once
	inflight  sync.WaitGroup
}

// New returns a server of the games in o.
func New(o Options) *Server {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Server{log: o.Log, now: o.Now, opts: o, obs: o.Observer, events: o.Events, drain: make(chan struct{})}
	if s.obs == nil {
		s.obs = nopObserver{}
	}
	if s.events == nil {
		s.events = NewEventLog(o.Log, 0, nil)
	}
	if o.Ready != nil {
		s.ready = &readiness{ping: o.Ready, now: o.Now, failed: s.notReadyLogged}
	}
	s.legacy.Store(o.Adopt != nil)
	s.h = s.routes()
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.h.ServeHTTP(w, r) }

// embeddedFiles are the page's files ready to serve, made once a process
// and shared, read-only, by its servers: the embedded files never change,
// and gzipping them at the best level takes a while (under the race
// detector about a fifth of a second, which every test server paid again).
var embeddedFiles = sync.OnceValues(func() (staticFiles, error) {
	static, err := fs.Sub(Static, "static")
	if err != nil {
		return nil, err
	}
	return loadStatic(static)
})

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	for _, g := range s.opts.Games {
		g.Register(mux)
	}

	files, err := embeddedFiles()
	if err != nil {
		panic(err) // the embed pattern guarantees the directory; files read from memory
	}
	s.pages = files.pages()
	// "/" catches everything else: unknown API paths get a JSON 404, other
	// paths the page's files (GET and HEAD only).
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/api" {
			if allow := allowed(mux, r); allow != "" {
				w.Header().Set("Allow", allow)
				WriteError(w, r, s.log, &requestError{errMethod,
					fmt.Sprintf("%s %s: method not allowed (allowed: %s)", r.Method, r.URL.Path, allow)})
				return
			}
			WriteError(w, r, s.log, fmt.Errorf("%w: no API endpoint %s %s", ErrNotFound, r.Method, r.URL.Path))
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			WriteError(w, r, s.log, &requestError{errMethod, r.Method + " " + r.URL.Path + ": method not allowed"})
			return
		}
		if spiderLink(r) {
			// A deal link from before the front page (/?deal=617) still
			// deals: the Spider page moved to /spider/.
			http.Redirect(w, r, "/spider/?"+r.URL.RawQuery, http.StatusMovedPermanently)
			return
		}
		if err := files.serve(w, r); err != nil {
			WriteError(w, r, s.log, err)
		}
	})

	var h http.Handler = s.identify(mux, mux)
	if s.opts.RateLimit != nil {
		// Outside identify: a flood is refused before it is given identities.
		s.limit = newLimiter(*s.opts.RateLimit)
		s.often = newLimiter(s.opts.RateLimit.often())
		h = s.rateLimit(mux, h)
	}
	// Refuses cross-site writes (a page elsewhere posting to localhost),
	// in the API's error body like every other refusal (docs/api.md).
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		WriteError(w, r, s.log, Errorf(ErrForbidden,
			"cross-site request refused: another site's page may not write to this server"))
	}))
	h = cop.Handler(h)
	if s.opts.CheckHost {
		h = s.hostCheck(s.opts.Hosts, h)
	}
	h = s.health(h)
	h = s.observe(mux, h)
	if s.opts.Front != nil {
		h = s.opts.Front(h)
	}
	return SecurityHeaders(realClient(s.opts.TrustedProxies, s.strictTransport(h)))
}

// strictTransport sets Strict-Transport-Security (Options.HSTS) on the
// answers to requests made over HTTPS: inside realClient, which says
// whether a proxy's client used HTTPS. A browser ignores the header
// over plain HTTP, where anyone on the way could have added it.
func (s *Server) strictTransport(next http.Handler) http.Handler {
	if s.opts.HSTS <= 0 {
		return next
	}
	v := fmt.Sprintf("max-age=%d", int64(s.opts.HSTS/time.Second))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if IsHTTPS(r) {
			w.Header().Set("Strict-Transport-Security", v)
		}
		next.ServeHTTP(w, r)
	})
}

// spiderLink: r is a link to the Spider page as it was written when that
// page was the front page: / with the parameters the Spider page reads
// (deal, new).
func spiderLink(r *http.Request) bool {
	if r.URL.Path != "/" && r.URL.Path != "/index.html" {
		return false
	}
	q := r.URL.Query()
	return q.Has("deal") || q.Has("new")
}

// allowed lists the methods an API path has, for a 405: the catch-all "/"
// pattern answers every method, so the mux never makes a 405 itself.
func allowed(mux *http.ServeMux, r *http.Request) string {
	var out []string
	for _, m := range []string{"GET", "POST", "PUT", "DELETE"} {
		q := r.Clone(r.Context())
		q.Method = m
		if _, pattern := mux.Handler(q); pattern != "/" && pattern != "" {
			out = append(out, m)
		}
	}
	return strings.Join(out, ", ")
}

// SecurityHeaders sets the headers every answer carries (docs/hosting.md,
// "Security"): no content sniffing, no Referer, no framing, and the
// Content-Security-Policy. cardtable serve wraps the plain-HTTP redirect
// listener in it too, so that no public answer goes without them.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
		next.ServeHTTP(w, r)
	})
}
