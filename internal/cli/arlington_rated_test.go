package cli

import (
	"context"
	"path"
	"path/filepath"
	"testing"

	"cardtable/internal/arlclient"
)

// TestArlingtonNewTableRated: new-table --rated makes a rated table;
// without it the table is casual.
func TestArlingtonNewTableRated(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	c, err := arlclient.New(url)
	if err != nil {
		t.Fatal(err)
	}
	for _, rated := range []bool{true, false} {
		args := []string{"--seats", "human,greedy"}
		if rated {
			args = append(args, "--rated")
		}
		tb, err := c.Table(context.Background(), path.Base(arlNewTable(t, url, args...)))
		if err != nil || tb.Rated != rated {
			t.Fatalf("new-table %v: rated %v, %v", args, tb.Rated, err)
		}
	}
}
