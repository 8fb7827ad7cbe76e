package table

import (
	"context"
	"time"
)

// Store keeps tables so that a restarted server resumes them. The table
// writes through it before it acknowledges or broadcasts anything: a
// table's creation, every seat change and every action. Its methods are
// called from many tables' goroutines at once.
type Store interface {
	// CreateTable stores a new table with no moves.
	CreateTable(ctx context.Context, t Stored) error
	// SaveSeats replaces the table's seats.
	SaveSeats(ctx context.Context, id string, seats []StoredSeat) error
	// AppendAction stores move number seq (from 0); it must refuse any seq
	// but the number of moves stored, so nothing is lost or doubled.
	AppendAction(ctx context.Context, id string, seq int, m StoredMove) error
	// AppendChat stores chat line l of table id (numbered from 1) and
	// deletes the table's lines numbered keep or more below it, in one
	// transaction: the store keeps a table's last keep lines. It must
	// refuse, storing nothing, any number but one past the last stored
	// (1 for the first), so a line is never lost or doubled, whoever
	// writes.
	AppendChat(ctx context.Context, id string, l ChatLine, keep int) error
	// FinishTable marks the table over or closed; OpenTables no longer
	// returns it, LoadTable still does.
	FinishTable(ctx context.Context, id string, status Status, at time.Time) error
	// OpenTables is every table whose status is StatusOpen, with its
	// moves and chat.
	OpenTables(ctx context.Context) ([]Stored, error)
	// LoadTable is one table, whatever its status, with its moves and
	// chat; an error wrapping ErrNotFound if there is none.
	LoadTable(ctx context.Context, id string) (Stored, error)
	// PlayerTables is at most limit tables whose game ended (StatusOver)
	// with player (an identity) in one of its seats, the latest to end
	// first, each with its moves.
	PlayerTables(ctx context.Context, player string, limit int) ([]Stored, error)
}

// Status is where a table is in its life.
type Status string

// Statuses.
const (
	StatusOpen   Status = "open"   // waiting for people or in play
	StatusOver   Status = "over"   // the game ended
	StatusClosed Status = "closed" // closed before the end (idle, no people)
)

// Stored is a table as the store keeps it: opaque to the store (the
// config is JSON text, a move is a seat and the engine's action notation).
type Stored struct {
	ID      string
	Creator string // the creating player's identity
	Config  string // Config as JSON
	Seed    uint64 // the deal's seed: never sent until the game is over
	Seats   []StoredSeat
	Moves   []StoredMove
	// Chat is the table's last chat lines kept (at most the keep of
	// AppendChat), oldest first; LoadTable and OpenTables fill it.
	Chat    []ChatLine
	Status  Status
	Created time.Time
	Updated time.Time
}

// StoredSeat is who holds a seat: a person's identity and display name
// (both empty for an open or bot seat).
type StoredSeat struct {
	Player string `json:"player,omitempty"`
	Name   string `json:"name,omitempty"`
	// Reserved: the seat is held for Player (a rematch) until they take
	// it or give it up; they are not seated yet.
	Reserved bool `json:"reserved,omitempty"`
}

// StoredMove is one action: the seat that took it and the action in the
// engine's notation (arlington.Action.String).
type StoredMove struct {
	Seat   int
	Action string
}
