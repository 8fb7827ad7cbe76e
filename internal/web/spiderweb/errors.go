package spiderweb

import (
	"errors"
	"net/http"
	"strings"

	"cardtable/internal/record"
	"cardtable/internal/web"
	"cardtable/spider"
)

// ErrNoMove is what Options.Hint wraps when there is no move to suggest.
var ErrNoMove = errors.New("no move to suggest")

// classes maps the engine's and the store's sentinel errors to the web
// layer's error classes, in this one place.
var classes = []struct {
	err, class error
}{
	{spider.ErrFormat, web.ErrBadRequest},
	{record.ErrNotFound, web.ErrNotFound},
	{spider.ErrIllegal, web.ErrUnprocessable},
	{spider.ErrNothing, web.ErrUnprocessable},
	{spider.ErrLimit, web.ErrUnprocessable},
	{record.ErrTooMany, web.ErrUnprocessable},
	{record.ErrStale, web.ErrUnavailable},
	{record.ErrReplaced, web.ErrUnavailable},
	{record.ErrDiskFull, web.ErrInsufficientStorage},
}

// replaced is what the player is told when the database file is gone: only
// a restart helps.
const replaced = "the server can no longer save: its database file was deleted or replaced; restart the server"

// diskFull is what the player is told when the database cannot grow.
const diskFull = "the server's disk is full: this was not saved; try again later"

// classified is an error with its class; its text is the error's own, so
// the player reads the same message.
type classified struct{ err, class error }

func (c *classified) Error() string   { return c.err.Error() }
func (c *classified) Unwrap() []error { return []error{c.err, c.class} }

// classify gives err its web error class (err unchanged if it has none of
// the classes above: the web layer classifies the rest, or answers 500).
func classify(err error) error {
	if err == nil {
		return nil
	}
	for _, c := range classes {
		if errors.Is(err, c.err) {
			err = &classified{err, c.class}
			break
		}
	}
	if errors.Is(err, record.ErrReplaced) {
		return web.Public(err, replaced)
	}
	if errors.Is(err, record.ErrDiskFull) {
		return web.Public(err, diskFull)
	}
	return err
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
