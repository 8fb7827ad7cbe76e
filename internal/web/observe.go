package web

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
)

// Observer is told of the server's traffic, for metrics; the wiring layer
// implements it (with Prometheus collectors). Its methods are called from
// many requests at once and must be quick.
type Observer interface {
	// Request: a request to the route pattern ("GET /api/...", "/" for
	// the pages' files, "" for one refused before routing) ended with
	// status after d.
	Request(pattern string, status int, d time.Duration)
	// WebSocket: a WebSocket connection opened (+1) or closed (-1).
	WebSocket(delta int)
	// RateLimited: a request was refused by the rate limit.
	RateLimited()
}

type nopObserver struct{}

func (nopObserver) Request(string, int, time.Duration) {}
func (nopObserver) WebSocket(int)                      {}
func (nopObserver) RateLimited()                       {}

// closeKey holds where a WebSocket handler puts its close reason.
type closeKey struct{}

// SetCloseReason records why the WebSocket of the request whose context
// ctx is was closed, for the log line the server writes when it ends.
func SetCloseReason(ctx context.Context, reason string) {
	if p, ok := ctx.Value(closeKey{}).(*string); ok {
		*p = reason
	}
}

func isWebSocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// observe counts every request for the Observer, tracks it for Wait, and
// logs the end of each WebSocket (and each refused one) through the
// bounded event log.
func (s *Server) observe(mux *http.ServeMux, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.inflight.Add(1)
		defer s.inflight.Done()
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		ctx := context.WithValue(r.Context(), restartKey{}, s.drain)
		ctx = context.WithValue(ctx, eventsKey{}, s.events)
		ws := isWebSocket(r)
		var reason string
		if ws {
			ctx = context.WithValue(ctx, closeKey{}, &reason)
			sw.opened = func() { s.obs.WebSocket(1) }
		}
		r = r.WithContext(ctx)
		next.ServeHTTP(sw, r)
		_, pattern := mux.Handler(r)
		if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
			pattern = r.URL.Path // answered before the mux
		}
		s.obs.Request(pattern, sw.code(), time.Since(start))
		if !ws {
			return
		}
		if sw.hijacked {
			s.obs.WebSocket(-1)
			if reason == "" {
				reason = "closed"
			}
			s.events.Event(ctx, slog.LevelInfo, "websocket closed", reason, ClientAddr(r),
				"path", r.URL.Path, "duration", time.Since(start).Round(time.Millisecond))
			return
		}
		s.events.Event(ctx, slog.LevelInfo, "websocket refused", http.StatusText(sw.code()), ClientAddr(r),
			"path", r.URL.Path, "status", sw.code())
	})
}

// statusWriter remembers the status written, and counts a WebSocket while
// its connection is hijacked.
type statusWriter struct {
	http.ResponseWriter
	status   int
	hijacked bool
	opened   func()
}

func (w *statusWriter) code() int {
	switch {
	case w.hijacked:
		return http.StatusSwitchingProtocols
	case w.status == 0:
		return http.StatusOK
	}
	return w.status
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Hijack is what the WebSocket upgrade uses.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("web: the connection cannot be taken over")
	}
	c, rw, err := h.Hijack()
	if err == nil {
		w.hijacked = true
		if w.opened != nil {
			w.opened()
		}
	}
	return c, rw, err
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
