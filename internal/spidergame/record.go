package spidergame

// What a Spider player keeps on the server, as the store writes it and the
// service reads it: games in play, named saves, results and statistics,
// the errors of their storage and how a deal number is read back. The
// store imports this package for these alone (docs/architecture.md).

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Errors of the storage. The store returns them wrapped (%w); the Spider
// web adapter maps them to its error classes.
var (
	// ErrNotFound: a game or a save does not exist, or belongs to another
	// player.
	ErrNotFound = errors.New("not found")
	// ErrStale: a write is based on a version of a game that is no longer
	// the stored one; it is refused and nothing changes.
	ErrStale = errors.New("the game changed since it was read")
	// ErrTooMany: a new named save when the player already has the most
	// saves a player may keep.
	ErrTooMany = errors.New("too many")
	// ErrReplaced: the database file was deleted, renamed away or replaced
	// under the running server. Writes are refused from then on, since they
	// would go to a file no longer at the path and be lost at the next
	// start; only a restart (opening the file now at the path) clears it.
	ErrReplaced = errors.New("database file deleted or replaced while in use")
	// ErrDiskFull: the database could not grow (its disk is full, or its
	// size limit reached); the write was not stored.
	ErrDiskFull = errors.New("database disk full")
	// ErrUnreadable: a stored row holds what its column cannot mean (a
	// deal that is not a number, a game's text that does not load): the
	// row was damaged outside the server.
	// It is refused rather than read as some other game.
	ErrUnreadable = errors.New("stored row unreadable")
)

// ParseDeal reads a deal number as the stores keep it, in decimal text
// (SQLite's integers are signed, deal numbers are not); anything else is
// ErrUnreadable.
func ParseDeal(text string) (uint64, error) {
	d, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: deal %q is not a deal number", ErrUnreadable, text)
	}
	return d, nil
}

// Summary is what listings show of a game: copied from its save text.
type Summary struct {
	Variant string
	Suits   int
	Deal    uint64 // 0 for a custom position
	Moves   int
	Score   int
}

// Game is a stored game in play.
type Game struct {
	ID     string
	Player string
	// Lineage groups a game with the games opened from its named saves:
	// statistics count a lineage once.
	Lineage string
	// Save is the game's last snapshot (spider save format) and Log the
	// commands accepted since, oldest first: replaying Log on Save gives
	// the game.
	Save string
	Log  []string
	// Version counts the game's writes; a Change must name the version it
	// was based on.
	Version int64
	Summary
	// Updated is the time of the latest command (Created until one).
	Created, Updated time.Time
	// Played is the active play time up to Updated (docs/api.md, "Play
	// time").
	Played time.Duration
	// GaveUp: the game was given up (or, not won, analysed) for its
	// analysis, which showed the hidden cards: it takes no more commands.
	GaveUp bool
}

// Change is one accepted command on a stored game.
type Change struct {
	ID, Player string
	// Version is the version the command was applied to; the change is
	// refused (ErrStale) if the stored game is at another.
	Version int64
	// Cmd is appended to the game's log.
	Cmd string
	// Snapshot, if not empty, is the whole game after Cmd: it replaces the
	// save and empties the log (Cmd included, being in it).
	Snapshot string
	Summary
	Updated time.Time
	// Played is the game's active play time after Cmd.
	Played time.Duration
}

// Result is one statistics entry: how a game lineage ended.
type Result struct {
	Lineage string
	Variant string
	Suits   int
	Won     bool
	Score   int
	At      time.Time
	// Played is the game's active play time when it ended (0: not timed,
	// a result from before play time was kept).
	Played time.Duration
	// GaveUp: the lineage was given up for its analysis. Recorded with a
	// loss, it makes the lineage's loss final: no later win replaces it. A
	// lineage already won stays won.
	GaveUp bool
}

// Check refuses a Result no store records: one without a lineage, or a
// given-up win.
func (r Result) Check() error {
	if r.Lineage == "" {
		return errors.New("result without a lineage")
	}
	if r.GaveUp && r.Won {
		return errors.New("a given-up result cannot be a win")
	}
	return nil
}

// Save is a named saved game.
type Save struct {
	Player  string
	Name    string
	Lineage string
	Save    string // empty in listings
	Summary
	Updated time.Time
	Played  time.Duration // the game's play time when saved
	// GaveUp: the save's lineage was given up for its analysis (read only:
	// it is the lineage's, Result.GaveUp). A game opened from it plays, but
	// its win does not count.
	GaveUp bool
	// Damaged: in a listing, the stored row cannot be read in full (its
	// deal is not a deal number; Deal is 0). It is listed so that the
	// player can delete it; reading it by name is ErrUnreadable.
	Damaged bool
}

// Group is the statistics of one variant and suit count.
type Group struct {
	Variant string
	Suits   int
	Played  int
	Won     int
	// CurrentStreak is the number of wins in a row ending with the latest
	// game (0 if it was lost); LongestStreak the most wins in a row ever.
	CurrentStreak int
	LongestStreak int
	// BestScore is the highest counted score of any game, won or lost
	// (0 when none).
	BestScore int
	// BestTime and AverageTime are the shortest and the mean play time of
	// the timed wins (TimedWins of them; both 0 when there are none).
	BestTime, AverageTime time.Duration
	TimedWins             int
	History               []Result // oldest first, the latest entries
}

// WinRate is the share of games won, 0 to 1 (0 when none played).
func (g Group) WinRate() float64 {
	if g.Played == 0 {
		return 0
	}
	return float64(g.Won) / float64(g.Played)
}
