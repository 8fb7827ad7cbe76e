package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkOpen is the time Open takes (Close not counted): on a path
// where no file exists yet (the file created and its schema written, as
// every test server and a first start do), and on a database a previous
// Open created and Close closed (a server's restart).
//
//	go test -bench Open -benchtime 20x -run '^$' ./internal/store
//	go test -race -bench Open -benchtime 20x -run '^$' ./internal/store
func BenchmarkOpen(b *testing.B) {
	ctx := context.Background()
	b.Run("new", func(b *testing.B) {
		dir := b.TempDir()
		for i := 0; b.Loop(); i++ {
			db, err := Open(ctx, filepath.Join(dir, fmt.Sprint(i), "cardtable.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if err := db.Close(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	})
	b.Run("existing", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "cardtable.db")
		db, err := Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			db, err := Open(ctx, path)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if err := db.Close(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	})
}
