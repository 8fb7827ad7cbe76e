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
	// A stored table the hub cannot rebuild (for its record or its
	// replay) is the server's own data gone wrong: a server fault, 500
	// with the generic message (the log has which table and why), though
	// the error also wraps what refused it, ErrBadConfig or the engine's
	// ErrBadAction or ErrBadSet (the requester's fault when the requester
	// sent them). First, before those.
	{Err: table.ErrDamaged},
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
	{Err: table.ErrSeatHeld, Class: web.ErrConflict},
	{Err: table.ErrNoSeat, Class: web.ErrBadRequest},
	{Err: table.ErrNameTaken, Class: web.ErrConflict},
	{Err: table.ErrNotStarted, Class: web.ErrConflict},
	{Err: table.ErrOver, Class: web.ErrConflict},
	{Err: table.ErrNotOver, Class: web.ErrConflict},
	{Err: table.ErrNotYourTurn, Class: web.ErrConflict},
	{Err: table.ErrNotSeated, Class: web.ErrForbidden},
	{Err: table.ErrNotYourSeat, Class: web.ErrForbidden},
	{Err: table.ErrIllegal, Class: web.ErrUnprocessable},
	{Err: table.ErrClosed, Class: web.ErrUnavailable, Public: "the table has closed"},
	{Err: table.ErrMoved, Class: web.ErrUnavailable, Public: "the table moved to another server: reconnect"},
	{Err: table.ErrSlow, Class: web.ErrUnavailable},
	// Before ErrStore, which wraps it.
	{Err: table.ErrDiskFull, Class: web.ErrInsufficientStorage,
		Public: "the server's disk is full: this was not saved; try again later"},
	// A store failure is told in one sentence of the server's, never in
	// the store's words (a database's error, its file's path), which go
	// to the log (web.Message). ErrStore wraps reads (the leaderboard, a
	// player's games, a finished table) as well as writes, so its
	// sentence is true of both; a chat line's, a write, names the message.
	{Err: table.ErrChatNotStored, Class: web.ErrUnavailable, Public: "the server could not save your message; try again"},
	{Err: table.ErrStore, Class: web.ErrUnavailable, Public: "the server's storage failed; try again"},
	// A record text the engine refuses is one the hub wrote (the replay
	// reads the record it gets from the hub): a server fault too, though
	// the error may also wrap ErrBadAction or ErrBadSet for the move it
	// could not read. Before those two.
	{Err: arlington.ErrBadRecord},
	{Err: arlington.ErrBadAction, Class: web.ErrBadRequest},
	{Err: arlington.ErrBadSet, Class: web.ErrBadRequest},
	{Err: arlington.ErrUnknownSpectrum, Class: web.ErrBadRequest},
}
