package arlweb

import (
	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// classes gives the table package's and the engine's sentinel errors their
// web error classes (web.Classify), in this one place, for the HTTP
// handlers and the WebSocket alike.
var classes = []web.Class{
	{Err: table.ErrNotFound, Class: web.ErrNotFound},
	{Err: table.ErrBadConfig, Class: web.ErrBadRequest},
	{Err: table.ErrUnknownLevel, Class: web.ErrBadRequest},
	{Err: table.ErrBadName, Class: web.ErrBadRequest},
	{Err: table.ErrBadPlayer, Class: web.ErrBadRequest},
	{Err: table.ErrChat, Class: web.ErrBadRequest},
	{Err: table.ErrTooMany, Class: web.ErrTooMany},
	{Err: table.ErrRateLimited, Class: web.ErrTooMany},
	{Err: table.ErrCrowded, Class: web.ErrTooMany},
	{Err: table.ErrReplaced, Class: web.ErrConflict},
	{Err: table.ErrTableFull, Class: web.ErrConflict},
	{Err: table.ErrSeatTaken, Class: web.ErrConflict},
	{Err: table.ErrNameTaken, Class: web.ErrConflict},
	{Err: table.ErrNotStarted, Class: web.ErrConflict},
	{Err: table.ErrOver, Class: web.ErrConflict},
	{Err: table.ErrNotOver, Class: web.ErrConflict},
	{Err: table.ErrNotYourTurn, Class: web.ErrConflict},
	{Err: table.ErrNotSeated, Class: web.ErrForbidden},
	{Err: table.ErrNotYourSeat, Class: web.ErrForbidden},
	{Err: table.ErrIllegal, Class: web.ErrUnprocessable},
	{Err: table.ErrClosed, Class: web.ErrUnavailable},
	{Err: table.ErrMoved, Class: web.ErrUnavailable, Public: "the table moved to another server: reconnect"},
	{Err: table.ErrSlow, Class: web.ErrUnavailable},
	// Before ErrStore, which wraps it.
	{Err: table.ErrDiskFull, Class: web.ErrInsufficientStorage,
		Public: "the server's disk is full: this was not saved; try again later"},
	{Err: table.ErrStore, Class: web.ErrUnavailable},
	// A record the engine refuses is one the server stored (the replay):
	// a server fault, though the error may also wrap ErrBadAction or
	// ErrBadSet for the move it could not read. Before those two.
	{Err: arlington.ErrBadRecord},
	{Err: arlington.ErrBadAction, Class: web.ErrBadRequest},
	{Err: arlington.ErrBadSet, Class: web.ErrBadRequest},
	{Err: arlington.ErrUnknownSpectrum, Class: web.ErrBadRequest},
}
