package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"cardtable/internal/spidergame"
)

// RecordResult records how one of player's game lineages ended, with the
// SQLite store's rules: one entry per lineage; a win replaces a loss that
// was not given up, nothing replaces a win; a given-up loss is final and
// gives up the lineage's open games.
func (db *DB) RecordResult(ctx context.Context, player string, r spidergame.Result) error {
	return db.tx(ctx, func(tx pgx.Tx) error { return recordResult(ctx, tx, player, r) })
}

func recordResult(ctx context.Context, tx pgx.Tx, player string, r spidergame.Result) error {
	if err := r.Check(); err != nil {
		return err
	}
	upsert := `ON CONFLICT (lineage) DO UPDATE SET won = excluded.won, score = excluded.score,
			at = excluded.at, variant = excluded.variant, suits = excluded.suits, played = excluded.played
		WHERE excluded.won AND NOT results.won AND NOT results.gave_up AND results.player = excluded.player`
	if r.GaveUp {
		upsert = `ON CONFLICT (lineage) DO UPDATE SET gave_up = true
		WHERE NOT results.won AND results.player = excluded.player`
	}
	_, err := tx.Exec(ctx, `INSERT INTO results (player, lineage, variant, suits, won, score, at, played, gave_up)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) `+upsert,
		player, r.Lineage, r.Variant, r.Suits, r.Won, r.Score, millis(r.At), r.Played.Milliseconds(), r.GaveUp)
	if err != nil || !r.GaveUp {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE games SET gave_up = true, version = version + 1
		WHERE player = $1 AND lineage = $2 AND NOT gave_up
		AND EXISTS (SELECT 1 FROM results r WHERE r.lineage = $2 AND r.player = $1 AND r.gave_up)`,
		player, r.Lineage)
	return err
}

// LineageGivenUp reports whether player's lineage was given up for its
// analysis.
func (db *DB) LineageGivenUp(ctx context.Context, player, lineage string) (bool, error) {
	var gaveUp bool
	err := db.pool.QueryRow(ctx, `SELECT coalesce((SELECT gave_up FROM results
		WHERE lineage = $1 AND player = $2), false)`, lineage, player).Scan(&gaveUp)
	return gaveUp, err
}

// SaveQuota bounds what one player keeps in named saves, as in the SQLite
// store (spidergame.SaveQuota).
type SaveQuota = spidergame.SaveQuota

// SetSaveQuota sets the per-player bounds PutSave enforces (a zero field:
// its default). Call it before serving.
func (db *DB) SetSaveQuota(q SaveQuota) { db.quota = q.OrDefault() }

// SaveUsage is what player's named saves take, other than the one named
// except (""): their count and bytes of text.
func (db *DB) SaveUsage(ctx context.Context, player, except string) (SaveQuota, error) {
	return saveUsage(ctx, db.pool, player, except)
}

// querier is the pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func saveUsage(ctx context.Context, q querier, player, except string) (SaveQuota, error) {
	var u SaveQuota
	// octet_length: the stored size in bytes, as SQLite counts it.
	err := q.QueryRow(ctx, `SELECT count(*), coalesce(sum(octet_length(save)), 0)
		FROM saves WHERE player = $1 AND name != $2`, player, except).Scan(&u.Count, &u.Bytes)
	return u, err
}

// PutSave stores a named save, replacing any of the same name and player,
// within the player's quota (SetSaveQuota): refused with ErrTooMany and
// what to do, nothing changed.
func (db *DB) PutSave(ctx context.Context, s spidergame.Save) error {
	return db.tx(ctx, func(tx pgx.Tx) error {
		// Two servers saving for one player at once would both count
		// below the bound; the player's lock makes them count in turn.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('saves ' || $1))`, s.Player); err != nil {
			return err
		}
		u, err := saveUsage(ctx, tx, s.Player, s.Name)
		if err != nil {
			return err
		}
		if err := db.quota.Admit(u, len(s.Save)); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO saves
			(player, name, lineage, save, variant, suits, deal, moves, score, updated, played)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
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
// given up.
const saveGaveUp = `coalesce((SELECT r.gave_up FROM results r
		WHERE r.lineage = s.lineage AND r.player = s.player), false)`

// Saves lists player's named saves, most recently updated first, without
// their text. A save whose row is damaged is listed marked Damaged, not
// an error (reading it by name is).
func (db *DB) Saves(ctx context.Context, player string) ([]spidergame.Save, error) {
	rows, err := db.pool.Query(ctx, `SELECT s.name, s.lineage, s.variant, s.suits, s.deal, s.moves,
		s.score, s.updated, s.played, `+saveGaveUp+` FROM saves s WHERE s.player = $1
		ORDER BY s.updated DESC, s.name COLLATE "C"`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []spidergame.Save{}
	for rows.Next() {
		s := spidergame.Save{Player: player}
		var deal string
		var updated, played int64
		if err := rows.Scan(&s.Name, &s.Lineage, &s.Variant, &s.Suits, &deal, &s.Moves, &s.Score,
			&updated, &played, &s.GaveUp); err != nil {
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
func (db *DB) Save(ctx context.Context, player, name string) (spidergame.Save, error) {
	s := spidergame.Save{Player: player}
	var deal string
	var updated, played int64
	err := db.pool.QueryRow(ctx, `SELECT s.name, s.lineage, s.save, s.variant, s.suits, s.deal, s.moves,
		s.score, s.updated, s.played, `+saveGaveUp+` FROM saves s WHERE s.player = $1 AND s.name = $2`,
		player, name).Scan(&s.Name, &s.Lineage, &s.Save, &s.Variant, &s.Suits, &deal, &s.Moves, &s.Score,
		&updated, &played, &s.GaveUp)
	if errors.Is(err, pgx.ErrNoRows) {
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
	tag, err := db.exec(ctx, `DELETE FROM saves WHERE player = $1 AND name = $2`, player, name)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("saved game %q: %w", name, ErrNotFound)
	}
	return nil
}

// Settings returns player's stored settings JSON, or "{}" if none were
// stored.
func (db *DB) Settings(ctx context.Context, player string) (string, error) {
	var s string
	err := db.pool.QueryRow(ctx, `SELECT json FROM settings WHERE player = $1`, player).Scan(&s)
	if errors.Is(err, pgx.ErrNoRows) {
		return "{}", nil
	}
	return s, err
}

// PutSettings stores player's settings JSON as given, whatever revision
// is kept (a write that carries none).
func (db *DB) PutSettings(ctx context.Context, player, json string) error {
	_, _, err := db.PutSettingsRev(ctx, player, json, spidergame.NoRevision)
	return err
}

// SettingsRev returns player's stored settings JSON and the revision
// kept with them, as the SQLite store's does.
func (db *DB) SettingsRev(ctx context.Context, player string) (string, int64, error) {
	var s string
	var rev int64
	err := db.pool.QueryRow(ctx, `SELECT json, rev FROM settings WHERE player = $1`, player).Scan(&s, &rev)
	if errors.Is(err, pgx.ErrNoRows) {
		return "{}", 0, nil
	}
	return s, rev, err
}

// PutSettingsRev stores player's settings JSON with its revision rev,
// unless the settings kept have a newer one, and returns the settings
// kept afterwards and their revision, as the SQLite store's does. The check and the write
// are one statement (the conflicting row is locked and compared as it
// stands); the newer settings left in place are read in the same
// transaction, by a statement that sees the row that won.
func (db *DB) PutSettingsRev(ctx context.Context, player, json string, rev int64) (string, int64, error) {
	kept, keptRev := json, int64(0)
	err := db.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO settings (player, json, rev) VALUES ($1, $2, greatest($3::bigint, 0))
			ON CONFLICT (player) DO UPDATE SET json = excluded.json, rev = greatest(settings.rev, excluded.rev)
			WHERE $3::bigint < 0 OR excluded.rev >= settings.rev`, player, json, rev)
		if err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT json, rev FROM settings WHERE player = $1`, player).Scan(&kept, &keptRev)
	})
	return kept, keptRev, err
}

// AdoptLegacy gives player every row stored before players existed (the
// empty player). Only the first caller finds any.
func (db *DB) AdoptLegacy(ctx context.Context, player string) (bool, error) {
	if player == "" {
		return false, errors.New("adopting for the legacy player itself")
	}
	var any bool
	err := db.tx(ctx, func(tx pgx.Tx) error {
		any = false
		for _, table := range []string{"games", "saves", "results", "settings"} {
			tag, err := tx.Exec(ctx, `UPDATE `+table+` SET player = $1 WHERE player = ''`, player)
			if err != nil {
				return fmt.Errorf("adopting %s: %w", table, err)
			}
			any = any || tag.RowsAffected() > 0
		}
		return nil
	})
	return any, err
}

// Stats returns player's statistics of every variant and suit count, in
// the order of spidergame's groups, including groups with no games.
func (db *DB) Stats(ctx context.Context, player string) ([]spidergame.Group, error) {
	rows, err := db.pool.Query(ctx, `SELECT lineage, variant, suits, won, score, at, played
		FROM results WHERE player = $1 ORDER BY at, n`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	st := spidergame.NewTally()
	for rows.Next() {
		var r spidergame.Result
		var at, played int64
		if err := rows.Scan(&r.Lineage, &r.Variant, &r.Suits, &r.Won, &r.Score, &at, &played); err != nil {
			return nil, err
		}
		r.At = fromMillis(at)
		r.Played = time.Duration(played) * time.Millisecond
		st.Add(r)
	}
	return st.Groups(), rows.Err()
}
