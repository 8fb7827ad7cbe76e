package arlweb

import (
	"errors"
	"fmt"

	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// classes maps the table package's sentinel errors to the web layer's error
// classes, in this one place; classify is used by the HTTP handlers and the
// WebSocket alike.
var classes = []struct {
	err, class error
}{
	{table.ErrNotFound, web.ErrNotFound},
	{table.ErrBadConfig, web.ErrBadRequest},
	{table.ErrUnknownLevel, web.ErrBadRequest},
	{table.ErrBadName, web.ErrBadRequest},
	{table.ErrBadPlayer, web.ErrBadRequest},
	{table.ErrChat, web.ErrBadRequest},
	{table.ErrTooMany, web.ErrTooMany},
	{table.ErrRateLimited, web.ErrTooMany},
	{table.ErrCrowded, web.ErrTooMany},
	{table.ErrReplaced, web.ErrConflict},
	{table.ErrTableFull, web.ErrConflict},
	{table.ErrSeatTaken, web.ErrConflict},
	{table.ErrNotStarted, web.ErrConflict},
	{table.ErrOver, web.ErrConflict},
	{table.ErrNotOver, web.ErrConflict},
	{table.ErrNotYourTurn, web.ErrConflict},
	{table.ErrNotSeated, web.ErrForbidden},
	{table.ErrNotYourSeat, web.ErrForbidden},
	{table.ErrIllegal, web.ErrUnprocessable},
	{table.ErrClosed, web.ErrUnavailable},
	{table.ErrSlow, web.ErrUnavailable},
	{table.ErrStore, web.ErrUnavailable},
	{arlington.ErrBadAction, web.ErrBadRequest},
	{arlington.ErrBadSet, web.ErrBadRequest},
	{arlington.ErrUnknownSpectrum, web.ErrBadRequest},
}

// classify wraps err with its web error class (err unchanged if it has
// one already or is unknown: WriteError answers an unknown error 500).
func classify(err error) error {
	if err == nil {
		return nil
	}
	for _, c := range classes {
		if errors.Is(err, c.class) {
			return err
		}
	}
	for _, c := range classes {
		if errors.Is(err, c.err) {
			return fmt.Errorf("%w: %w", c.class, err)
		}
	}
	return err
}

// className is the short name of err's class for WebSocket error messages.
func className(err error) string {
	switch {
	case errors.Is(err, web.ErrBadRequest):
		return "bad_request"
	case errors.Is(err, web.ErrForbidden):
		return "forbidden"
	case errors.Is(err, web.ErrNotFound):
		return "not_found"
	case errors.Is(err, web.ErrConflict):
		return "conflict"
	case errors.Is(err, web.ErrUnprocessable):
		return "illegal"
	case errors.Is(err, web.ErrTooMany):
		return "too_many"
	case errors.Is(err, web.ErrUnavailable):
		return "unavailable"
	}
	return "internal"
}
