package dbcopy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
)

// ErrNotEmpty: the target of a copy already holds rows.
var ErrNotEmpty = errors.New("the target database is not empty")

// ErrNewer: the database was made by a newer cardtable (its schema
// version is past this program's), which this one must not read or
// change. Both stores return it (store.ErrNewer is this one), so that a
// caller tells it the same way for either (cardtable db copy: bad
// input); it is here, beside the rows both stores share, as a store's
// concern, not a game service's.
var ErrNewer = errors.New("made by a newer cardtable")

// chunkRows and chunkBytes bound one import transaction, so a copy's
// memory does not grow with the database (a save is up to about 1.3 MB).
const (
	chunkRows  = 500
	chunkBytes = 8 << 20
)

// Sum is a table's row count and the SHA-256 of its rows in export order.
type Sum struct {
	Table string
	Rows  int64
	Hash  string
}

// Copy copies every row of src into dst, which must be empty, then checks
// that both hold the same rows: the same count and content hash for every
// table. It returns the sums (the same on both sides) on success.
func Copy(ctx context.Context, src, dst Store) ([]Sum, error) {
	for _, t := range Tables {
		err := dst.Export(ctx, t, func(any) error { return ErrNotEmpty })
		if errors.Is(err, ErrNotEmpty) {
			return nil, fmt.Errorf("%w (table %s has rows): copy only into a new database", ErrNotEmpty, t)
		}
		if err != nil {
			return nil, fmt.Errorf("reading the target's %s: %w", t, err)
		}
	}
	for _, t := range Tables {
		if err := copyTable(ctx, src, dst, t); err != nil {
			return nil, fmt.Errorf("copying %s: %w", t, err)
		}
	}
	from, err := Sums(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("checking the source: %w", err)
	}
	to, err := Sums(ctx, dst)
	if err != nil {
		return nil, fmt.Errorf("checking the copy: %w", err)
	}
	for i := range from {
		if from[i] != to[i] {
			return nil, fmt.Errorf("the copy differs from the source in %s: %d rows (%.12s) against %d (%.12s); was the source in use?",
				from[i].Table, to[i].Rows, to[i].Hash, from[i].Rows, from[i].Hash)
		}
	}
	return from, nil
}

func copyTable(ctx context.Context, src, dst Store, table string) error {
	var chunk []any
	size := 0
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		err := dst.Import(ctx, table, chunk)
		chunk, size = chunk[:0], 0
		return err
	}
	err := src.Export(ctx, table, func(row any) error {
		chunk = append(chunk, row)
		size += rowSize(row)
		if len(chunk) >= chunkRows || size >= chunkBytes {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// rowSize is about what a row holds in memory: its long texts.
func rowSize(row any) int {
	switch r := row.(type) {
	case Game:
		return len(r.Save) + 200
	case Save:
		return len(r.Save) + 200
	case Table:
		return len(r.Config) + len(r.Seats) + 200
	case Setting:
		return len(r.JSON) + 100
	}
	return 100
}

// Sums counts and hashes every table of s, in the order of Tables.
func Sums(ctx context.Context, s Store) ([]Sum, error) {
	out := make([]Sum, 0, len(Tables))
	for _, t := range Tables {
		sum := Sum{Table: t}
		var h hash.Hash = sha256.New()
		err := s.Export(ctx, t, func(row any) error {
			sum.Rows++
			// %#v of a plain struct names every field with its value
			// quoted: one line per row, the same from either store.
			_, err := fmt.Fprintf(h, "%#v\n", row)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		sum.Hash = hex.EncodeToString(h.Sum(nil))
		out = append(out, sum)
	}
	return out, nil
}
