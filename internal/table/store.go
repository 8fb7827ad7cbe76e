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

// LiveLoader is what a Store may also offer: LoadLive is LoadTable for
// the tables' own work (a table started again after an outage, a
// refused move or chat line checked), read on what the
// store keeps for the live tables, so that requests holding the rest
// (waiting on a lock, a burst) stall neither a restart nor a move.
type LiveLoader interface {
	LoadLive(ctx context.Context, id string) (Stored, error)
}

// LoadLive is the stored table id for the tables' own work: s's LoadLive
// where it has one (LiveLoader), else its LoadTable. A store wrapping
// another calls it to keep the wrapped one's LoadLive.
func LoadLive(ctx context.Context, s Store, id string) (Stored, error) {
	if l, ok := s.(LiveLoader); ok {
		return l.LoadLive(ctx, id)
	}
	return s.LoadTable(ctx, id)
}

// loadLive is the stored table id for the tables' own work (LoadLive).
func (h *Hub) loadLive(ctx context.Context, id string) (Stored, error) {
	return LoadLive(ctx, h.o.Store, id)
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
	// Away: the person left the game in play, or timed out while not
	// connected; a stand-in plays for them until they return. Kept so
	// that it goes on so after a restart or on another server.
	Away bool `json:"away,omitempty"`
	// Left: away because the person left the table (Leave) and has not
	// come back, not because their connection was lost; a rematch holds
	// no seat for them (docs/tables.md, "Rematch").
	Left bool `json:"left,omitempty"`
}

// StoredMove is one action: the seat that took it and the action in the
// engine's notation (arlington.Action.String).
type StoredMove struct {
	Seat   int
	Action string
}

// Claims share the open tables between several servers over one store,
// each table run by exactly one of them (the PostgreSQL store's registry
// of servers has it). Without Claims (Options.Claims nil: one server, as
// on SQLite) every open table is this hub's and it restores them all at
// its start. With Claims the hub takes orphans (tables no live server
// runs) every ScanEvery, drops the tables it no longer holds, and
// releases its tables when it stops so that the others take them at once.
// The store fences every write of a table by the claim: a write of a
// table this server no longer holds fails with ErrMoved.
type Claims interface {
	// Take claims up to room open tables that no live server runs, but
	// none of skip (tables this server could not start), and returns
	// them with their moves, read after the claim.
	Take(ctx context.Context, room int, skip []string) ([]Stored, error)
	// Held is the set of tables this server holds now (its claims
	// another server has not taken since).
	Held(ctx context.Context) (map[string]bool, error)
	// Release gives up those of ids this server still holds, so that
	// another server takes them now; one another server took stays its.
	Release(ctx context.Context, ids []string) error
}
