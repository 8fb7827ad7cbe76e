package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"cardtable/internal/store"
	"cardtable/spider"
)

// Errors the handlers classify requests by. Every handler returns its error
// to writeError, the one place that maps errors to HTTP statuses.
var (
	// errBadRequest: the request itself is malformed (400).
	errBadRequest = errors.New("bad request")
	// errForbidden: the request may not be served at all (403).
	errForbidden = errors.New("forbidden")
	// errMethod: the path exists, the method does not (405).
	errMethod = errors.New("method not allowed")
	// errNoSolver: the server was built without what the request needs (501).
	errNoSolver = errors.New("not available")
	// ErrNoMove is what Options.Hint wraps when there is no move to suggest.
	ErrNoMove = errors.New("no move to suggest")
	// errUnavailable: the server is shutting down or overloaded (503).
	errUnavailable = errors.New("unavailable")
)

// requestError is a message for the player classified by kind; its text is
// the message alone.
type requestError struct {
	kind error
	msg  string
}

func (e *requestError) Error() string { return e.msg }
func (e *requestError) Unwrap() error { return e.kind }

// badRequest makes a bad-request error with a message for the player.
func badRequest(format string, a ...any) error {
	return &requestError{errBadRequest, fmt.Sprintf(format, a...)}
}

// status maps an error to its HTTP status and the message the player sees.
func status(err error) (int, string) {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("request body too large (limit %d bytes)", tooBig.Limit)
	case errors.Is(err, errBadRequest), errors.Is(err, spider.ErrFormat):
		return http.StatusBadRequest, err.Error()
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, err.Error()
	case errors.Is(err, spider.ErrIllegal), errors.Is(err, spider.ErrNothing), errors.Is(err, spider.ErrLimit):
		return http.StatusUnprocessableEntity, err.Error()
	case errors.Is(err, errForbidden):
		return http.StatusForbidden, err.Error()
	case errors.Is(err, errMethod):
		return http.StatusMethodNotAllowed, err.Error()
	case errors.Is(err, errNoSolver):
		return http.StatusNotImplemented, err.Error()
	case errors.Is(err, errUnavailable), errors.Is(err, store.ErrStale), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable, "server busy or shutting down; try again"
	}
	return http.StatusInternalServerError, "internal error"
}

// writeError answers with err's status and {"error": message}. Server
// faults are logged; their details stay in the log.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	code, msg := status(err)
	if code >= 500 {
		log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeJSON(w, code, errorBody{msg})
}

type errorBody struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}
