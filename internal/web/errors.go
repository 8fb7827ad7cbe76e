package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// errMethod: the path exists, the method does not (405). The other error
// classes are the contract's (contract.go); every handler returns its
// error to WriteError, and status is the one place that maps errors to
// HTTP statuses.
var errMethod = errors.New("method not allowed")

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
	return &requestError{ErrBadRequest, fmt.Sprintf(format, a...)}
}

// status maps an error to its HTTP status and the message the player sees.
func status(err error) (int, string) {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("request body too large (limit %d bytes)", tooBig.Limit)
	case errors.Is(err, ErrBadRequest):
		return http.StatusBadRequest, words(err, ErrBadRequest)
	case errors.Is(err, ErrNotFound):
		return http.StatusNotFound, words(err, ErrNotFound)
	case errors.Is(err, ErrConflict):
		return http.StatusConflict, words(err, ErrConflict)
	case errors.Is(err, ErrUnprocessable):
		return http.StatusUnprocessableEntity, words(err, ErrUnprocessable)
	case errors.Is(err, ErrForbidden):
		return http.StatusForbidden, words(err, ErrForbidden)
	case errors.Is(err, errMethod):
		return http.StatusMethodNotAllowed, words(err, errMethod)
	case errors.Is(err, errMisdirected):
		return http.StatusMisdirectedRequest, words(err, errMisdirected)
	case errors.Is(err, ErrTooMany):
		return http.StatusTooManyRequests, words(err, ErrTooMany)
	case errors.Is(err, ErrNotImplemented):
		return http.StatusNotImplemented, words(err, ErrNotImplemented)
	case errors.Is(err, ErrInsufficientStorage):
		return http.StatusInsufficientStorage, "the server's storage is full; nothing was saved"
	// The database's classes before the generic deadline: the store's
	// refusals for want of a connection, and PostgreSQL not answering,
	// wrap the wait's context.DeadlineExceeded, and their words say
	// which of the two went wrong.
	case slowDatabase(err):
		return http.StatusServiceUnavailable, "the server's database is too slow just now; try again in a moment"
	case lostConnection(err):
		return http.StatusServiceUnavailable, "the server cannot reach its database just now; try again in a moment"
	case errors.Is(err, ErrUnavailable), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable, "server busy or shutting down; try again"
	}
	return http.StatusInternalServerError, "internal error"
}

// words is err's text without its class's name before it: an error
// made as fmt.Errorf("%w: seat taken", ErrConflict) reads "conflict: seat
// taken", whose "conflict" is told by the status (and a WebSocket
// message's class) already; the player reads "seat taken". The class
// stays in err for the log.
func words(err, class error) string {
	msg := err.Error()
	for {
		rest, ok := strings.CutPrefix(msg, class.Error()+": ")
		if !ok {
			return msg
		}
		msg = rest
	}
}

// lostConnection reports whether err says the database is out of reach
// for now (PostgreSQL restarting, stopped, its connection broken): an
// error in its chain with a method Unavailable() bool that reports true,
// which the store's errors have (pgstore), so that this package imports
// no store. Such a request is answered 503, to be tried again, not 500
// "internal error" (docs/scaling.md).
func lostConnection(err error) bool {
	var u interface{ Unavailable() bool }
	return errors.As(err, &u) && u.Unavailable()
}

// slowDatabase reports whether err says the database answered but did
// not finish a statement in time (PostgreSQL's statement_timeout or
// lock_timeout): an error in its chain with a method TooSlow() bool
// that reports true (pgstore). It is a 503 as lostConnection is, told
// in its own words and log reason: "cannot reach its database" sent the
// operator looking for a network fault where a lock was held.
func slowDatabase(err error) bool {
	var s interface{ TooSlow() bool }
	return errors.As(err, &s) && s.TooSlow()
}

// public is an error with the message the player sees in place of a
// server fault's generic one (Public).
type public struct {
	err error
	msg string
}

func (e *public) Error() string { return e.err.Error() }
func (e *public) Unwrap() error { return e.err }

// Message is the words the player reads of err, over HTTP and on a
// WebSocket alike, and whether err is a server fault (5xx): a fault is
// told in its class's generic sentence or its Public one, never in its
// own words (a database's error, a path), which belong in the log alone.
func Message(err error) (msg string, fault bool) {
	code, msg := answerOf(err)
	return msg, code >= 500
}

// answerOf is err's status and the words the player reads of it (Message).
func answerOf(err error) (int, string) {
	code, msg := status(err)
	var p *public
	if code >= 500 && errors.As(err, &p) {
		msg = p.msg
	}
	return code, msg
}

// WriteError answers with err's status and {"error": message}. Server
// faults are logged (log nil: not logged); their details stay in the log.
// A request failed because the database is out of reach is logged at
// WARN through the server's event log, 20 a minute and a count
// (LogFault, docs/hosting.md); one whose client went away, or refused
// for load (Busy), at INFO the same way.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	code, msg := answerOf(err)
	if code >= 500 {
		LogFault(r.Context(), log, "request failed", ClientAddr(r), err, "method", r.Method, "path", r.URL.Path)
	}
	if secs := retryAfter(err); secs > 0 && code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	WriteJSON(w, code, errorBody{msg})
}

// retryAfter is the Retry-After, in whole seconds (at least 1), an error
// in err's chain asks for with a method RetryAfter() time.Duration (the
// store's refusal for want of a connection: pgstore); else
// outOfReachRetry for the database out of reach (lostConnection); 0 for
// none.
func retryAfter(err error) int {
	var ra interface{ RetryAfter() time.Duration }
	if !errors.As(err, &ra) || ra.RetryAfter() <= 0 {
		if lostConnection(err) && !slowDatabase(err) {
			return outOfReachRetry
		}
		return 0
	}
	return max(1, int((ra.RetryAfter()+time.Second-1)/time.Second))
}

// outOfReachRetry is the Retry-After, in seconds, of a request refused
// because the database is out of reach. Decision: 5, a server's lease
// (pgstore.DefaultLease): within it a PostgreSQL restart is usually over
// (one shorter than the lease changes nothing for the tables), or, if
// this server alone is cut off, its tables have moved to another server
// that answers; asked sooner, the request mostly meets the same refusal.
// Clients that ask again by themselves wait it out first, as for a
// database with no connection free (5 s too): the Arlington page's ask
// for a game's result (askEnded, connection.js) on any 503, and Spider's
// settings write on its one retry.
const outOfReachRetry = 5

// slowReason is the log's reason of a database too slow (slowDatabase):
// the error's own (a method SlowReason() string: "no connection free"),
// else statement_timeout's.
func slowReason(err error) string {
	var r interface{ SlowReason() string }
	if errors.As(err, &r) && r.SlowReason() != "" {
		return r.SlowReason()
	}
	return tooSlow
}

// eventsKey is the request context's key of the server's EventLog.
type eventsKey struct{}

// outOfReach and tooSlow are the reasons of the lines of the database's
// 503s LogFault bounds (lostConnection, slowDatabase).
const (
	outOfReach = "database out of reach"
	// Either PostgreSQL setting ends a statement so (SQLSTATE 57014 or
	// 55P03), and the line's err says which: the reason names both, so
	// that a lock_timeout is not read as a statement running long.
	tooSlow = "database too slow: statement_timeout or lock_timeout"
)

// LogFault logs err, a server fault met serving a client at addr, under
// msg, through the server's EventLog in ctx (EventLog.Fault).
func LogFault(ctx context.Context, log *slog.Logger, msg, addr string, err error, attrs ...any) {
	e, _ := ctx.Value(eventsKey{}).(*EventLog)
	e.Fault(ctx, log, msg, addr, err, attrs...)
}

// dbReason is the log's reason of a database refusal (too slow, out of
// reach, or its disk full), and whether err is one.
func dbReason(err error) (string, bool) {
	switch {
	case slowDatabase(err):
		return slowReason(err), true
	case lostConnection(err):
		return outOfReach, true
	case errors.Is(err, ErrInsufficientStorage):
		// Every write needing room fails while the disk is full: one
		// ERROR line each, unbounded, wrote to the full disk the most
		// when it had the least room.
		return diskFull, true
	}
	return "", false
}

// diskFull is the log's reason of a write refused for want of room (507,
// a visit not recorded): the store's disk full.
const diskFull = "disk full"

// Fault logs err, a server fault met serving a client at addr, under
// msg: at ERROR on log with its own words; but the database out of
// reach (lostConnection) at WARN through e, with reason "database out
// of reach" (one too slow, slowDatabase: "database too slow:
// statement_timeout or lock_timeout"; a write refused for want of room,
// ErrInsufficientStorage: "disk full"), at most its share a minute for
// each msg and the rest counted. While PostgreSQL is stopped every request and every table's
// action fails so: logged one by one, a busy site wrote a line for each
// of thousands of requests a second, in which the one line that says
// what happened was lost. A nil e (a handler used outside Server) logs
// every fault.
//
// Two kinds of 503 are no fault of the server's and are logged at INFO
// through e, bounded the same way: a request whose client went away
// before its answer (its context canceled: a hint or a move abandoned),
// reason "client gone", and a refusal for load (Busy: the server's one
// analysis taken, an address's hints waiting their turn), reason
// "busy". Logged one by one at ERROR, a client abandoning hints in a
// loop wrote an ERROR line a request, without end.
func (e *EventLog) Fault(ctx context.Context, log *slog.Logger, msg, addr string, err error, attrs ...any) {
	if e != nil {
		var b *busy
		if reason, ok := dbReason(err); ok {
			e.Event(ctx, slog.LevelWarn, msg, reason, addr, append(attrs, "err", err)...)
			return
		}
		switch {
		case errors.Is(err, context.Canceled) && ctx.Err() != nil:
			e.Event(ctx, slog.LevelInfo, msg, clientGone, addr, append(attrs, "err", err)...)
			return
		case errors.As(err, &b):
			e.Event(ctx, slog.LevelInfo, msg, busyReason, addr, append(attrs, "err", err)...)
			return
		}
	}
	log.ErrorContext(ctx, msg, append(attrs, "err", err)...)
}

// The reasons of the 503s Fault logs bounded at INFO.
const (
	clientGone = "client gone"
	busyReason = "busy"
)

// Busy marks err, a 503 refusal for load (another analysis running,
// the address's other hint still searched, a hint out of its time
// waiting for a slot or a core), as no fault of the
// server's: Fault logs it bounded, at INFO. Its class and words are
// err's.
func Busy(err error) error { return &busy{err} }

type busy struct{ err error }

func (b *busy) Error() string { return b.err.Error() }
func (b *busy) Unwrap() error { return b.err }

type errorBody struct {
	Error string `json:"error"`
}

// WriteJSON answers with code and v as JSON (never cached).
func WriteJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}
