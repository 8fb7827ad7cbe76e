package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// TestMigrationSettingsRev: settings kept at schema 11 (before their
// revision) read back as they were, and any write with a revision is
// newer than them; from then on an older one is not stored.
func TestMigrationSettingsRev(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v11.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	names, err := migrationNames()
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range names[:11] {
		text, err := migrations.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := old.Exec(string(text)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := old.Exec(fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := old.Exec(`INSERT INTO settings (player, json) VALUES ('p', '{"sound":false}')`); err != nil {
		t.Fatal(err)
	}
	old.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if js := must(db.Settings(ctx, "p")); js != `{"sound":false}` {
		t.Fatalf("settings after the migration: %s", js)
	}
	for _, w := range []struct {
		js   string
		rev  int64
		kept string
	}{
		{`{"sound":true,"rev":1}`, 1, `{"sound":true,"rev":1}`},
		{`{"sound":false,"rev":0}`, 0, `{"sound":true,"rev":1}`},
	} {
		kept, rev, err := db.PutSettingsRev(ctx, "p", w.js, w.rev)
		if err != nil || kept != w.kept || rev != 1 {
			t.Fatalf("writing %s after the migration: kept %s rev %d (%v), want %s rev 1", w.js, kept, rev, err, w.kept)
		}
	}
}
