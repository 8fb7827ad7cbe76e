package spiderweb

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"cardtable/internal/spidergame"
	"cardtable/internal/web"
	"cardtable/spider"
)

// ErrNoMove is what Options.Hint wraps when there is no move to suggest.
var ErrNoMove = errors.New("no move to suggest")

// classes gives the engine's and the service's sentinel errors their web
// error classes (web.Classify), in this one place.
var classes = []web.Class{
	{Err: spider.ErrFormat, Class: web.ErrBadRequest},
	{Err: spidergame.ErrNotFound, Class: web.ErrNotFound},
	{Err: spider.ErrIllegal, Class: web.ErrUnprocessable},
	{Err: spider.ErrNothing, Class: web.ErrUnprocessable},
	{Err: spider.ErrLimit, Class: web.ErrUnprocessable},
	{Err: spidergame.ErrTooMany, Class: web.ErrUnprocessable},
	{Err: spidergame.ErrStale, Class: web.ErrUnavailable},
	// When the database file is gone only a restart helps: the player is
	// told so.
	{Err: spidergame.ErrReplaced, Class: web.ErrUnavailable,
		Public: "the server can no longer save: its database file was deleted or replaced; restart the server"},
	// A game damaged in the store stays a server fault; the player is told
	// what happened (the log has which game and why).
	{Err: spidergame.ErrUnreadable,
		Public: "this game is damaged on the server and cannot be read; start another game"},
	{Err: spidergame.ErrDiskFull, Class: web.ErrInsufficientStorage,
		Public: "the server's disk is full: this was not saved; try again later"},
	{Err: spidergame.ErrGivenUp, Class: web.ErrConflict},
	{Err: spidergame.ErrInPlay, Class: web.ErrConflict},
	{Err: spidergame.ErrBehind, Class: web.ErrConflict},
}

// badRequest makes a bad-request error with a message for the player.
func badRequest(format string, a ...any) error {
	return web.Errorf(web.ErrBadRequest, format, a...)
}

// Request body limits.
const (
	maxJSONBody     = 64 << 10 // every JSON request
	maxSettingsBody = 16 << 10 // PUT /api/settings
	// POST /api/games/load: a save file. It holds every save the server
	// writes: spider.MaxSteps move lines of at most 13 bytes ("move 10 9
	// 13\n", 1.3 MB) and a header of at most a few KiB.
	maxSaveBody = 2 << 20
	maxSaveName = 100 // runes in a save's name
)

// decodeJSON reads a JSON body into v: one value, no unknown fields, nothing
// after it. An empty body is allowed when emptyOK (v keeps its defaults).
func decodeJSON(w http.ResponseWriter, r *http.Request, v any, emptyOK bool) error {
	b, err := web.ReadBody(w, r, maxJSONBody)
	if err != nil {
		return err
	}
	if emptyOK && strings.TrimSpace(string(b)) == "" {
		return nil
	}
	return web.DecodeJSON(b, v)
}

// refuseForLoad refuses a request for load (503, marked web.Busy) with
// Retry-After secs, the player reading why and the same wait ("...: try
// again in 10 s"); the log reads cause, or those words without one. The
// hint and the analysis refuse through it, so the header and the words
// never disagree.
func refuseForLoad(w http.ResponseWriter, secs int, why string, cause error) error {
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	msg := fmt.Sprintf("%s: try again in %d s", why, secs)
	err := web.Errorf(web.ErrUnavailable, "%s", msg)
	if cause != nil {
		err = fmt.Errorf("%w: %w", web.ErrUnavailable, cause)
	}
	return web.Busy(web.Public(err, msg))
}
