package web

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// Pinger is what the readiness check asks of the database: Ping proves it
// reachable and writable (the store does a write probe), or says why not.
type Pinger interface {
	Ping(ctx context.Context) error
}

// readyTimeout bounds one readiness probe: a database that takes longer is
// not ready.
const readyTimeout = 3 * time.Second

// health answers /healthz (the process is alive: 200) and /readyz (it
// can serve: the database answers a write probe and the server is not
// stopping; 503 with the reason otherwise). The probe's answer is reused
// for readyFresh (ready.go), so /readyz needs no rate limit. Both come before the host
// check: a load balancer probes by address, and they tell nothing private.
func (s *Server) health(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/healthz":
			writePlain(w, r, http.StatusOK, "ok")
		case "/readyz":
			if why := s.notReady(r.Context()); why != "" {
				writePlain(w, r, http.StatusServiceUnavailable, "not ready: "+why)
				return
			}
			writePlain(w, r, http.StatusOK, "ready")
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// notReady is why the server cannot take players now ("" if it can).
func (s *Server) notReady(ctx context.Context) string {
	if s.Draining() {
		return "the server is stopping"
	}
	if s.ready == nil {
		return ""
	}
	if err := s.ready.check(ctx); err != nil {
		// The database's own words name its file's path, or its host,
		// port, user and database: not for the public listener, which
		// answers /readyz to anyone. They go to the log
		// (notReadyLogged).
		return notReadyDatabase
	}
	return ""
}

// notReadyDatabase is /readyz's reason when the database's probe fails.
const notReadyDatabase = "the database does not answer its check; the server's log says why"

// notReadyLogged logs a failed readiness probe's error, bounded like the
// other events (at most one probe a second fails: readyFresh).
func (s *Server) notReadyLogged(err error) {
	s.events.Event(context.Background(), slog.LevelWarn, "not ready", "database check failed", "", "err", err)
}

func writePlain(w http.ResponseWriter, r *http.Request, code int, text string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		code, text = http.StatusMethodNotAllowed, "method not allowed"
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		w.Write([]byte(text + "\n"))
	}
}

type restartKey struct{}

// Drain marks the server as stopping: /readyz answers 503 from now on, and
// every request's Restarting channel closes, so long-lived connections
// (the Arlington WebSockets) tell their pages the server is restarting and
// end. Calling it again does nothing.
func (s *Server) Drain() {
	s.drainOnce.Do(func() { close(s.drain) })
}

// Draining reports whether Drain was called.
func (s *Server) Draining() bool {
	select {
	case <-s.drain:
		return true
	default:
		return false
	}
}

// Restarting is closed when the server that took the request whose
// context ctx is (or derives from) starts stopping; nil (never ready)
// outside such a request.
func Restarting(ctx context.Context) <-chan struct{} {
	c, _ := ctx.Value(restartKey{}).(chan struct{})
	return c
}

// RestartReason is the WebSocket close reason a page is given when the
// server stops: it tells the player and reconnects.
const RestartReason = "restarting"

// Wait waits until every request the server is handling has returned
// (WebSockets included, which http.Server.Shutdown does not wait for), or
// ctx ends.
func (s *Server) Wait(ctx context.Context) error {
	done := make(chan struct{})
	// Exits when the last handler returns; if ctx ends first it stays
	// until then (the process is exiting anyway).
	go func() {
		s.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
