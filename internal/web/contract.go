package web

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
)

// The shared layer every game's handlers use (see docs/architecture.md):
// error classes (a game's errors classified once, Classify, and mapped to
// HTTP statuses in one place, status), JSON in and out with limits
// (body.go), the player's identity (player.go), and Routes for mounting a
// game.

// Error classes. A game package gives its errors one of these: its
// sentinel errors through Classify, its own messages with Errorf (or
// fmt.Errorf("%w: ...", web.ErrConflict)); WriteError answers with the
// class's status and the error's text.
var (
	ErrBadRequest    = errors.New("bad request")       // 400
	ErrForbidden     = errors.New("forbidden")         // 403
	ErrNotFound      = errors.New("not found")         // 404
	ErrConflict      = errors.New("conflict")          // 409
	ErrUnprocessable = errors.New("unprocessable")     // 422: the rules refuse it
	ErrTooMany       = errors.New("too many requests") // 429: over a rate limit
	// ErrInsufficientStorage: the server's storage is full (507).
	ErrInsufficientStorage = errors.New("insufficient storage")
	// ErrNotImplemented: the server was built without what the request
	// needs (a solver, say).
	ErrNotImplemented = errors.New("not available") // 501
	// ErrUnavailable: the server is shutting down or overloaded, or the
	// store cannot serve the request now.
	ErrUnavailable = errors.New("unavailable") // 503
)

// Class gives a game's sentinel error (matched with errors.Is) a web error
// class. Public, if not "", is the message the player sees of a 5xx class
// in place of the generic one (see Public). A nil Class leaves the error a
// server fault (500), shown with Public: for what the server's own data
// caused, which the player can only be told about.
type Class struct {
	Err, Class error
	Public     string
}

// classified is an error with its class; its text is the error's own, so
// the player reads the same message.
type classified struct{ err, class error }

func (c *classified) Error() string   { return c.err.Error() }
func (c *classified) Unwrap() []error { return []error{c.err, c.class} }

// Classify gives err the class of the first of classes whose Err it is,
// keeping its text; err is unchanged if it is nil, has a class already, or
// is none of them (WriteError answers it 500). Each game's handlers list
// their classes once and classify every error they answer, on HTTP and on
// WebSocket alike.
func Classify(err error, classes []Class) error {
	if err == nil {
		return nil
	}
	if code, _ := status(err); code != http.StatusInternalServerError {
		return err
	}
	for _, c := range classes {
		if errors.Is(err, c.Err) {
			if c.Class != nil {
				err = &classified{err, c.Class}
			}
			if c.Public != "" {
				err = Public(err, c.Public)
			}
			return err
		}
	}
	return err
}

// ClassName is the short name of err's class, as WebSocket error messages
// carry it (docs/api.md).
func ClassName(err error) string {
	switch {
	case errors.Is(err, ErrBadRequest):
		return "bad_request"
	case errors.Is(err, ErrForbidden):
		return "forbidden"
	case errors.Is(err, ErrNotFound):
		return "not_found"
	case errors.Is(err, ErrConflict):
		return "conflict"
	case errors.Is(err, ErrUnprocessable):
		return "illegal"
	case errors.Is(err, ErrTooMany):
		return "too_many"
	case errors.Is(err, ErrUnavailable), lostConnection(err):
		// The database out of reach answers 503 over HTTP (status):
		// "unavailable" to a table's client too, to be tried again,
		// not "internal".
		return "unavailable"
	case errors.Is(err, ErrInsufficientStorage):
		return "storage_full"
	}
	return "internal"
}

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

// Frequent is what a mounted game may implement besides Routes: the
// patterns of its cheap routes that its pages call at a player's every
// click (a preview of the cards selected). Options.RateLimit bounds them
// too, with buckets of their own (RateLimit.OftenPlayer, OftenAddress)
// far above a person's pace, so that a flood is held and clicking never
// spends the tokens of the Limited routes.
type Frequent interface{ Frequent() []string }
