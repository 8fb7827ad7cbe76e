package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cardtable/internal/spidergame"
)

// RecordResult records how one of player's game lineages ended. A lineage
// has one entry: a loss is recorded only if nothing is yet, and a win
// replaces a loss (the player took the moves back and went on to win) but
// never another win, nor a loss made final by giving the lineage up for
// its analysis (Result.GaveUp). Recording a given-up loss makes an
// existing loss final and leaves a win as it is; once final, every game
// of the lineage still open is given up too (its version goes up by one).
func (db *DB) RecordResult(ctx context.Context, player string, r Result) error {
	return db.tx(ctx, func(tx *sql.Tx) error { return recordResult(ctx, tx, player, r) })
}

func recordResult(ctx context.Context, tx *sql.Tx, player string, r Result) error {
	if r.Lineage == "" {
		return errors.New("result without a lineage")
	}
	if r.GaveUp && r.Won {
		return errors.New("a given-up result cannot be a win")
	}
	// Lineages are the random ids of games, so one belongs to one player;
	// the WHERE keeps it so even if a caller mixes them up.
	upsert := `ON CONFLICT (lineage) DO UPDATE SET won = excluded.won, score = excluded.score,
			at = excluded.at, variant = excluded.variant, suits = excluded.suits, played = excluded.played
		WHERE excluded.won = 1 AND results.won = 0 AND results.gave_up = 0 AND results.player = excluded.player`
	if r.GaveUp {
		upsert = `ON CONFLICT (lineage) DO UPDATE SET gave_up = 1
		WHERE results.won = 0 AND results.player = excluded.player`
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO results (player, lineage, variant, suits, won, score, at, played, gave_up)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) `+upsert,
		player, r.Lineage, r.Variant, r.Suits, r.Won, r.Score, millis(r.At), r.Played.Milliseconds(), r.GaveUp)
	if err != nil || !r.GaveUp {
		return err
	}
	// The lineage's loss is final (unless it was won first): its other
	// games, opened from its saves, are closed too, so none plays on to a
	// win that would not count (docs/analysis.md "The web route"). Each
	// changes version, so a tab showing one catches up.
	_, err = tx.ExecContext(ctx, `UPDATE games SET gave_up = 1, version = version + 1
		WHERE player = ? AND lineage = ? AND gave_up = 0
		AND EXISTS (SELECT 1 FROM results r WHERE r.lineage = ? AND r.player = ? AND r.gave_up = 1)`,
		player, r.Lineage, r.Lineage, player)
	return err
}

// LineageGivenUp reports whether player's lineage was given up for its
// analysis (Result.GaveUp): the mark a save of it carries (Save.GaveUp).
func (db *DB) LineageGivenUp(ctx context.Context, player, lineage string) (bool, error) {
	var gaveUp bool
	err := db.r.QueryRowContext(ctx, `SELECT coalesce((SELECT gave_up FROM results
		WHERE lineage = ? AND player = ?), 0)`, lineage, player).Scan(&gaveUp)
	return gaveUp, err
}

// SaveQuota bounds what one player keeps in named saves: their count, and
// their total size (bytes of save text). Named saves are never pruned, so
// without it a player could grow the database without end (a save at
// spider's move limit is about 1.3 MB).
type SaveQuota struct {
	Count int
	Bytes int64
}

// DefaultSaveQuota is what a player may keep unless the server is told
// otherwise (docs/api.md, "Named saved games"): 50 saves, 64 MiB, so fifty
// saves of the longest games still fit.
var DefaultSaveQuota = SaveQuota{Count: 50, Bytes: 64 << 20}

// SetSaveQuota sets the per-player bounds PutSave enforces (a zero field:
// its default). Call it before serving.
func (db *DB) SetSaveQuota(q SaveQuota) {
	if q.Count <= 0 {
		q.Count = DefaultSaveQuota.Count
	}
	if q.Bytes <= 0 {
		q.Bytes = DefaultSaveQuota.Bytes
	}
	db.quota = q
}

// ErrTooMany is returned by PutSave for a save beyond the player's quota
// (a new name past the count, or more bytes than the quota leaves).
var ErrTooMany = spidergame.ErrTooMany

// SaveUsage is what player's named saves take, other than the one named
// except (""): their count and bytes of text.
func (db *DB) SaveUsage(ctx context.Context, player, except string) (SaveQuota, error) {
	return saveUsage(ctx, db.r, player, except)
}

// querier is a pool or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func saveUsage(ctx context.Context, q querier, player, except string) (SaveQuota, error) {
	var u SaveQuota
	// octet_length reads the stored size, not the text.
	err := q.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(octet_length(save)), 0)
		FROM saves WHERE player = ? AND name != ?`, player, except).Scan(&u.Count, &u.Bytes)
	return u, err
}

// PutSave stores a named save, replacing any of the same name and player,
// within the player's quota (SetSaveQuota): refused with ErrTooMany and
// what to do, nothing changed.
func (db *DB) PutSave(ctx context.Context, s SaveRecord) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		u, err := saveUsage(ctx, tx, s.Player, s.Name)
		if err != nil {
			return err
		}
		if u.Count >= db.quota.Count {
			return fmt.Errorf("%w: you have %d saved games (the most a player keeps); delete one to save another", ErrTooMany, u.Count)
		}
		if u.Bytes+int64(len(s.Save)) > db.quota.Bytes {
			return fmt.Errorf("%w: your saved games take %s and this one %s more, past the %s a player keeps; delete some to save it",
				ErrTooMany, megabytes(u.Bytes), megabytes(int64(len(s.Save))), megabytes(db.quota.Bytes))
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO saves
			(player, name, lineage, save, variant, suits, deal, moves, score, updated, played)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (player, name) DO UPDATE SET lineage = excluded.lineage, save = excluded.save,
				variant = excluded.variant, suits = excluded.suits, deal = excluded.deal,
				moves = excluded.moves, score = excluded.score, updated = excluded.updated,
				played = excluded.played`,
			s.Player, s.Name, s.Lineage, s.Save, s.Variant, s.Suits, strconv.FormatUint(s.Deal, 10),
			s.Moves, s.Score, millis(s.Updated), s.Played.Milliseconds())
		return err
	})
}

// saveGaveUp is the column of a saves row s saying whether its lineage was
// given up (Save.GaveUp): its results entry's mark, found by the key.
const saveGaveUp = `coalesce((SELECT r.gave_up FROM results r
		WHERE r.lineage = s.lineage AND r.player = s.player), 0)`

// Saves lists player's named saves, most recently updated first, without
// their text.
func (db *DB) Saves(ctx context.Context, player string) ([]SaveRecord, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT s.name, s.lineage, s.variant, s.suits, s.deal, s.moves,
		s.score, s.updated, s.played, `+saveGaveUp+` FROM saves s WHERE s.player = ?
		ORDER BY s.updated DESC, s.name`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []SaveRecord{}
	for rows.Next() {
		s := SaveRecord{Player: player}
		var deal string
		var updated, played int64
		if err := rows.Scan(&s.Name, &s.Lineage, &s.Variant, &s.Suits, &deal, &s.Moves, &s.Score, &updated, &played, &s.GaveUp); err != nil {
			return nil, err
		}
		s.Deal, _ = strconv.ParseUint(deal, 10, 64)
		s.Updated = fromMillis(updated)
		s.Played = time.Duration(played) * time.Millisecond
		out = append(out, s)
	}
	return out, rows.Err()
}

// Save returns player's named save with its text.
func (db *DB) Save(ctx context.Context, player, name string) (SaveRecord, error) {
	s := SaveRecord{Player: player}
	var deal string
	var updated, played int64
	err := db.r.QueryRowContext(ctx, `SELECT s.name, s.lineage, s.save, s.variant, s.suits, s.deal, s.moves,
		s.score, s.updated, s.played, `+saveGaveUp+` FROM saves s WHERE s.player = ? AND s.name = ?`, player, name).Scan(
		&s.Name, &s.Lineage, &s.Save, &s.Variant, &s.Suits, &deal, &s.Moves, &s.Score, &updated, &played, &s.GaveUp)
	if errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("saved game %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return s, err
	}
	s.Deal, _ = strconv.ParseUint(deal, 10, 64)
	s.Updated = fromMillis(updated)
	s.Played = time.Duration(played) * time.Millisecond
	return s, nil
}

// DeleteSave deletes player's named save.
func (db *DB) DeleteSave(ctx context.Context, player, name string) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM saves WHERE player = ? AND name = ?`, player, name)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("saved game %q: %w", name, ErrNotFound)
		}
		return nil
	})
}

// Settings returns player's stored settings JSON, or "{}" if none were
// stored.
func (db *DB) Settings(ctx context.Context, player string) (string, error) {
	var s string
	err := db.r.QueryRowContext(ctx, `SELECT json FROM settings WHERE player = ?`, player).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return "{}", nil
	}
	return s, err
}

// PutSettings stores player's settings JSON as given. The caller validates
// it.
func (db *DB) PutSettings(ctx context.Context, player, json string) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO settings (player, json) VALUES (?, ?)
			ON CONFLICT (player) DO UPDATE SET json = excluded.json`, player, json)
		return err
	})
}

// AdoptLegacy gives player every row stored before players existed (the
// legacy player, the empty string): games, saves, statistics and settings. It reports
// whether there was anything to adopt. Only the first caller finds any.
func (db *DB) AdoptLegacy(ctx context.Context, player string) (bool, error) {
	if player == "" {
		return false, errors.New("adopting for the legacy player itself")
	}
	var any bool
	err := db.tx(ctx, func(tx *sql.Tx) error {
		any = false
		for _, table := range []string{"games", "saves", "results", "settings"} {
			res, err := tx.ExecContext(ctx, `UPDATE `+table+` SET player = ? WHERE player = ''`, player)
			if err != nil {
				return fmt.Errorf("adopting %s: %w", table, err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n > 0 {
				any = true
			}
		}
		return nil
	})
	return any, err
}

// HistoryLimit is how many of a group's latest results Stats returns in
// History; the counts cover every result.
const HistoryLimit = 1000

// Variants and SuitCounts fix the statistics groups and their order.
var (
	Variants   = []string{"arachnid", "spider"}
	SuitCounts = []int{1, 2, 4}
)

// Stats returns player's statistics of every variant and suit count, in
// the order of Variants then SuitCounts, including groups with no games.
func (db *DB) Stats(ctx context.Context, player string) ([]Group, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT lineage, variant, suits, won, score, at, played
		FROM results WHERE player = ? ORDER BY at, rowid`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var groups []Group
	index := map[string]int{}
	key := func(v string, s int) string { return v + "/" + strconv.Itoa(s) }
	for _, v := range Variants {
		for _, s := range SuitCounts {
			index[key(v, s)] = len(groups)
			groups = append(groups, Group{Variant: v, Suits: s, History: []Result{}})
		}
	}
	for rows.Next() {
		var r Result
		var at, played int64
		if err := rows.Scan(&r.Lineage, &r.Variant, &r.Suits, &r.Won, &r.Score, &at, &played); err != nil {
			return nil, err
		}
		r.At = fromMillis(at)
		r.Played = time.Duration(played) * time.Millisecond
		i, ok := index[key(strings.ToLower(r.Variant), r.Suits)]
		if !ok {
			continue // not a group this program knows; kept, not shown
		}
		g := &groups[i]
		g.Played++
		if r.Won {
			g.Won++
			g.CurrentStreak++
			g.LongestStreak = max(g.LongestStreak, g.CurrentStreak)
			if r.Played > 0 {
				if g.TimedWins == 0 || r.Played < g.BestTime {
					g.BestTime = r.Played
				}
				// AverageTime holds the sum until the end.
				g.TimedWins++
				g.AverageTime += r.Played
			}
		} else {
			g.CurrentStreak = 0
		}
		if g.Played == 1 || r.Score > g.BestScore {
			g.BestScore = r.Score
		}
		g.History = append(g.History, r)
		if len(g.History) > HistoryLimit {
			g.History = g.History[len(g.History)-HistoryLimit:]
		}
	}
	for i := range groups {
		if g := &groups[i]; g.TimedWins > 0 {
			g.AverageTime /= time.Duration(g.TimedWins)
		}
	}
	return groups, rows.Err()
}

// megabytes writes n bytes for a player: "1.3 MB".
func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
