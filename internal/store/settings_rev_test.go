package store

import (
	"context"
	"testing"
)

// TestMigrationSettingsRev: settings kept at schema 11 (before their
// revision) read back as they were, and any write with a revision is
// newer than them; from then on an older one is not stored.
func TestMigrationSettingsRev(t *testing.T) {
	ctx := context.Background()
	path, old := oldSchema(t, 11)
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
