// Package dbcopy copies a whole cardtable database from one store to
// another (SQLite to PostgreSQL and back) and checks the copy row for row.
// The stores meet here as plain rows: each store exports its tables as
// these structs and imports them, so no SQL crosses from one driver to the
// other. Times are Unix milliseconds, as both stores keep them.
package dbcopy

import "context"

// Tables are the tables a copy carries, in the order it carries them:
// each after the tables its rows refer to.
var Tables = []string{"games", "game_log", "saves", "results", "settings", "live_tables", "live_table_moves"}

// Game is a row of games (a Spider game in play).
type Game struct {
	ID, Player, Lineage, Save, Variant string
	Suits                              int
	Deal                               string // decimal uint64
	Moves, Score                       int
	Created, Updated                   int64
	Version, LogN, Played              int64
	GaveUp                             bool
}

// GameLog is a row of game_log (a command since the game's snapshot).
type GameLog struct {
	Game string
	Seq  int64
	Cmd  string
}

// Save is a row of saves (a named saved game).
type Save struct {
	Player, Name, Lineage, Save, Variant string
	Suits                                int
	Deal                                 string
	Moves, Score                         int
	Updated, Played                      int64
}

// Result is a row of results (how a lineage ended). Export gives them in
// the order statistics read them (their time, then the order stored), and
// Import keeps the order it is given.
type Result struct {
	Player, Lineage, Variant string
	Suits                    int
	Won                      bool
	Score                    int
	At, Played               int64
	GaveUp                   bool
}

// Setting is a row of settings (a player's page settings, JSON).
type Setting struct {
	Player, JSON string
}

// Table is a row of live_tables (an Arlington table).
type Table struct {
	ID, Creator, Config, Seed, Seats, Status string
	Moves                                    int
	Created, Updated                         int64
}

// TableMove is a row of live_table_moves (one action at a table).
type TableMove struct {
	Table     string
	Seq, Seat int
	Action    string
}

// Store is what a copy needs of each store.
type Store interface {
	// Export calls each for every row of table (one of Tables), as the
	// struct above, in an order both stores agree on (keys in byte
	// order; results as Result says), inside one read transaction.
	Export(ctx context.Context, table string, each func(row any) error) error
	// Import stores rows of table, each the table's struct, in one
	// transaction: all of them or none.
	Import(ctx context.Context, table string, rows []any) error
}
