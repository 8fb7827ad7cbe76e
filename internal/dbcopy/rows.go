// Package dbcopy copies a whole cardtable database from one store to
// another (SQLite to PostgreSQL and back) and checks the copy row for row.
// The stores meet here as plain rows: each store exports its tables as
// these structs and imports them, so no SQL crosses from one driver to the
// other. Times are Unix milliseconds, as both stores keep them.
package dbcopy

import (
	"context"
	"fmt"
	"reflect"
	"strings"
)

// Tables are the tables a copy carries, in the order it carries them:
// each after the tables its rows refer to.
var Tables = []string{"games", "game_log", "saves", "results", "settings", "live_tables", "live_table_moves", "live_table_chat", "ratings", "acme_cache", "players"}

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

// Setting is a row of settings (a player's page settings, JSON, and
// their revision: a write older than the one kept is not stored).
type Setting struct {
	Player, JSON string
	Rev          int64
}

// Player is a row of players (when an identity was last seen).
type Player struct {
	Player string
	Seen   int64
}

// Table is a row of live_tables (an Arlington table).
type Table struct {
	ID, Creator, Config, Seed, Seats, Status string
	Moves                                    int
	Created, Updated                         int64
	Chat                                     int // the number of its last chat line
}

// TableMove is a row of live_table_moves (one action at a table).
type TableMove struct {
	Table     string
	Seq, Seat int
	Action    string
}

// TableChat is a row of live_table_chat (one chat line at a table).
type TableChat struct {
	Table      string
	N, Seat    int
	Name, Text string
	At         int64
}

// Rating is a row of ratings (an Arlington player's or bot level's
// rating).
type Rating struct {
	Entrant, Name string
	Bot           bool
	Mu, Sigma     float64
	Games         int
	Updated       int64
	Folded        string // the name's table.FoldName, a person's only
}

// ACMEEntry is a row of acme_cache (an entry of serve --acme's
// certificate cache: the account key, a certificate and its private key,
// a challenge's answer).
type ACMEEntry struct {
	Key     string
	Data    []byte
	Updated int64
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

// Columns are each table's columns, in the order of its row struct's
// fields: the stores read and write rows through them (Scan, Values).
var Columns = map[string][]string{
	"games": {"id", "player", "lineage", "save", "variant", "suits", "deal", "moves", "score", "created",
		"updated", "version", "logn", "played", "gave_up"},
	"game_log":         {"game", "seq", "cmd"},
	"saves":            {"player", "name", "lineage", "save", "variant", "suits", "deal", "moves", "score", "updated", "played"},
	"results":          {"player", "lineage", "variant", "suits", "won", "score", "at", "played", "gave_up"},
	"settings":         {"player", "json", "rev"},
	"live_tables":      {"id", "creator", "config", "seed", "seats", "status", "moves", "created", "updated", "chat"},
	"live_table_moves": {"tbl", "seq", "seat", "action"},
	"live_table_chat":  {"tbl", "n", "seat", "name", "text", "at"},
	"ratings":          {"entrant", "name", "bot", "mu", "sigma", "games", "updated", "folded"},
	"acme_cache":       {"key", "data", "updated"},
	"players":          {"player", "seen"},
}

var rowTypes = map[string]reflect.Type{
	"games": reflect.TypeFor[Game](), "game_log": reflect.TypeFor[GameLog](), "saves": reflect.TypeFor[Save](),
	"results": reflect.TypeFor[Result](), "settings": reflect.TypeFor[Setting](),
	"live_tables": reflect.TypeFor[Table](), "live_table_moves": reflect.TypeFor[TableMove](),
	"live_table_chat": reflect.TypeFor[TableChat](),
	"ratings":         reflect.TypeFor[Rating](),
	"acme_cache":      reflect.TypeFor[ACMEEntry](),
	"players":         reflect.TypeFor[Player](),
}

// Scan reads a row of table with scan (database/sql's Rows.Scan, or
// pgx's), its columns selected in the order of Columns.
func Scan(table string, scan func(dest ...any) error) (any, error) {
	t, ok := rowTypes[table]
	if !ok {
		return nil, fmt.Errorf("no table %q", table)
	}
	v := reflect.New(t).Elem()
	dest := make([]any, v.NumField())
	for i := range dest {
		dest[i] = v.Field(i).Addr().Interface()
	}
	if err := scan(dest...); err != nil {
		return nil, err
	}
	return v.Interface(), nil
}

// Values are row's fields, in the order of its table's Columns; an error
// if row is not a row of table.
func Values(table string, row any) ([]any, error) {
	v := reflect.ValueOf(row)
	if t, ok := rowTypes[table]; !ok || v.Type() != t {
		return nil, fmt.Errorf("a %T is not a row of %s", row, table)
	}
	out := make([]any, v.NumField())
	for i := range out {
		out[i] = v.Field(i).Interface()
	}
	return out, nil
}

// Select is the query of table's rows, ordered by order.
func Select(table, order string) string {
	return "SELECT " + strings.Join(Columns[table], ", ") + " FROM " + table + " ORDER BY " + order
}

// Insert is the statement inserting one row of table, its values written
// by placeholder (i from 1).
func Insert(table string, placeholder func(i int) string) string {
	cols := Columns[table]
	ph := make([]string, len(cols))
	for i := range ph {
		ph[i] = placeholder(i + 1)
	}
	return "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(ph, ", ") + ")"
}

// Rows is what database/sql's and pgx's query results have in common.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Each calls each for every row of table in rows, selected by Select.
func Each(table string, rows Rows, each func(row any) error) error {
	for rows.Next() {
		row, err := Scan(table, rows.Scan)
		if err != nil {
			return err
		}
		if err := each(row); err != nil {
			return err
		}
	}
	return rows.Err()
}
