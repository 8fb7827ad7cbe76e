package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
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
	if err := r.Check(); err != nil {
		return err
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

// SaveQuota bounds what one player keeps in named saves
// (spidergame.SaveQuota, which both stores enforce alike).
type SaveQuota = spidergame.SaveQuota

// DefaultSaveQuota is what a player may keep unless the server is told
// otherwise.
var DefaultSaveQuota = spidergame.DefaultSaveQuota

// SetSaveQuota sets the per-player bounds PutSave enforces (a zero field:
// its default). Call it before serving.
func (db *DB) SetSaveQuota(q SaveQuota) { db.quota = q.OrDefault() }

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
		if err := db.quota.Admit(u, len(s.Save)); err != nil {
			return err
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
// their text. A save whose row is damaged is listed marked Damaged, not
// an error (reading it by name is).
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
		if s.Deal, err = spidergame.ParseDeal(deal); err != nil {
			// One damaged row must not hide the player's other saves:
			// it is listed, marked, so that the player can delete it.
			s.Deal, s.Damaged = 0, true
		}
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
	if s.Deal, err = spidergame.ParseDeal(deal); err != nil {
		return s, fmt.Errorf("saved game %q: %w", name, err)
	}
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

// PutSettings stores player's settings JSON as given, whatever revision
// is kept (a write that carries none). The caller validates it.
func (db *DB) PutSettings(ctx context.Context, player, json string) error {
	_, _, err := db.PutSettingsRev(ctx, player, json, spidergame.NoRevision)
	return err
}

// SettingsRev returns player's stored settings JSON and the revision
// kept beside them, or "{}" and 0 if none were stored. The JSON is the
// caller's, as given; the revision is the column's alone.
func (db *DB) SettingsRev(ctx context.Context, player string) (string, int64, error) {
	var s string
	var rev int64
	err := db.r.QueryRowContext(ctx, `SELECT json, rev FROM settings WHERE player = ?`, player).Scan(&s, &rev)
	if errors.Is(err, sql.ErrNoRows) {
		return "{}", 0, nil
	}
	return s, rev, err
}

// PutSettingsRev stores player's settings JSON with its revision rev,
// unless the settings kept have a newer one (a larger rev): a write held
// up on its way must not undo a newer one. It returns the settings kept
// afterwards, json or the newer ones it left in place, with the revision
// kept (SettingsRev). A rev of
// spidergame.NoRevision is stored whatever is kept, and keeps the
// revision kept. Compared and written in one statement, so two writes
// cannot both pass the check. The caller validates json.
func (db *DB) PutSettingsRev(ctx context.Context, player, json string, rev int64) (string, int64, error) {
	kept, keptRev := json, int64(0)
	err := db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO settings (player, json, rev) VALUES (?1, ?2, max(?3, 0))
			ON CONFLICT (player) DO UPDATE SET json = excluded.json, rev = max(settings.rev, excluded.rev)
			WHERE ?3 < 0 OR excluded.rev >= settings.rev`, player, json, rev)
		if err != nil {
			return err
		}
		if _, err := res.RowsAffected(); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT json, rev FROM settings WHERE player = ?`, player).Scan(&kept, &keptRev)
	})
	return kept, keptRev, err
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

// Stats returns player's statistics of every variant and suit count, in
// the order of spidergame.Variants then SuitCounts, including groups with
// no games (spidergame.Tally counts them).
func (db *DB) Stats(ctx context.Context, player string) ([]Group, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT lineage, variant, suits, won, score, at, played
		FROM results WHERE player = ? ORDER BY at, rowid`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	tally := spidergame.NewTally()
	for rows.Next() {
		var r Result
		var at, played int64
		if err := rows.Scan(&r.Lineage, &r.Variant, &r.Suits, &r.Won, &r.Score, &at, &played); err != nil {
			return nil, err
		}
		r.At = fromMillis(at)
		r.Played = time.Duration(played) * time.Millisecond
		tally.Add(r)
	}
	return tally.Groups(), rows.Err()
}
