package web

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
)

// The shared layer every game's handlers use (see docs/architecture.md):
// error classes mapped to HTTP statuses in one place (status), JSON in and
// out with limits, the player's identity, and Routes for mounting a game.

// Error classes. A game package wraps its errors with one of these
// (fmt.Errorf("%w: seat 3 is taken", web.ErrConflict)); WriteError answers
// with the class's status and the error's text.
var (
	ErrBadRequest    = errBadRequest               // 400
	ErrForbidden     = errForbidden                // 403
	ErrNotFound      = errors.New("not found")     // 404
	ErrConflict      = errors.New("conflict")      // 409
	ErrUnprocessable = errors.New("unprocessable") // 422: the rules refuse it
	ErrTooMany       = errTooMany                  // 429
	ErrUnavailable   = errUnavailable              // 503
	// ErrInsufficientStorage: the server's storage is full (507).
	ErrInsufficientStorage = errors.New("insufficient storage")
	// ErrNotImplemented: the server was built without what the request
	// needs (a solver, say).
	ErrNotImplemented = errNoSolver // 501
)

// Errorf is an error of class (one of the classes above) whose text, the
// message the player sees, is the formatted message alone.
func Errorf(class error, format string, a ...any) error {
	return &requestError{class, fmt.Sprintf(format, a...)}
}

// Public is err with msg as the message the player sees in place of the
// generic one a server fault (5xx) gets; err itself still goes to the log.
// For faults the player can act on ("restart the server").
func Public(err error, msg string) error { return &public{err, msg} }

// HandlerFunc is a handler that returns its error for WriteError.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Handle adapts f, sending its error to WriteError.
func Handle(log *slog.Logger, f HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := f(w, r); err != nil {
			WriteError(w, r, log, err)
		}
	}
}

// WriteJSON answers with code and v as JSON (never cached).
func WriteJSON(w http.ResponseWriter, code int, v any) { writeJSON(w, code, v) }

// WriteError answers with err's status and {"error": message}; server
// faults are logged and their details stay in the log.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	writeError(w, r, log, err)
}

// ReadBody reads r's whole body, at most limit bytes (413 beyond; other
// faults are 400s).
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	return readBody(w, r, limit)
}

// DecodeJSON decodes b into v strictly: one value, no unknown fields,
// nothing after it; an empty b is refused. Its errors are 400s.
func DecodeJSON(b []byte, v any) error { return unmarshalStrict(b, v, false) }

// ReadJSON decodes r's body into v strictly (one value, no unknown fields),
// reading at most limit bytes (413 beyond); other faults are 400s.
func ReadJSON(w http.ResponseWriter, r *http.Request, v any, limit int64) error {
	b, err := readBody(w, r, limit)
	if err != nil {
		return err
	}
	return unmarshalStrict(b, v, false)
}

// Player is the id of the player the request comes from, set by the
// identity middleware on every API request and page; "" for a request
// that did not pass through it.
func Player(r *http.Request) string { return playerFrom(r) }

// PlayerFromCookie is the player id a raw identity cookie value stands for,
// or "" if the value is not a valid identity.
func PlayerFromCookie(value string) string {
	if !validToken(value) {
		return ""
	}
	return playerID(value)
}

// Routes is one game's handlers: Register adds its routes (Go 1.22 mux
// patterns) to the server's mux. The server's middleware (security
// headers, CSP, host check, cross-origin protection, identity, rate
// limits) wraps every mounted route, and every mounted route's requests
// carry a Player.
type Routes interface{ Register(mux *http.ServeMux) }

// Limited is what a mounted game may implement besides Routes: the
// patterns of its routes that create things (tables, games, saves), to
// which Options.RateLimit applies, as it does to Spider's.
type Limited interface{ Limited() []string }
