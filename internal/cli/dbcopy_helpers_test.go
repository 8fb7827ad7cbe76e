package cli

import (
	"bytes"
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

// fill stores rows in every table of the database at db.
func fill(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	s, err := storetest.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"b", "a", "Ä", "c"} {
		g := spidergame.Game{ID: id, Player: "p" + id, Lineage: id, Save: "save " + id, Created: t0, Updated: t0,
			Summary: spidergame.Summary{Variant: "spider", Suits: 2, Deal: 1<<63 + uint64(i)}}
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateGame(ctx, spidergame.Change{ID: id, Player: g.Player, Version: 1, Cmd: "deal", Updated: t0},
			spidergame.Result{Lineage: id, Variant: "spider", Suits: 2, Won: i%2 == 0, At: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSave(ctx, spidergame.Save{Player: g.Player, Name: "n " + id, Lineage: id, Save: "s", Updated: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSettings(ctx, g.Player, `{"v":"`+id+`"}`); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateTable(ctx, table.Stored{ID: "t" + id, Config: "{}", Seed: 1 << 63, Seats: []table.StoredSeat{{Player: "x", Name: "X"}},
			Created: t0, Updated: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendAction(ctx, "t"+id, 0, table.StoredMove{Seat: 0, Action: "lead 7H"}); err != nil {
			t.Fatal(err)
		}
		line := table.ChatLine{N: 1, Seat: i - 1, Name: "Ñame " + id, Text: "hi ♠ " + id, At: t0.Add(time.Duration(i) * time.Millisecond)}
		if err := s.AppendChat(ctx, "t"+id, line, table.ChatHistory); err != nil {
			t.Fatal(err)
		}
		r := table.Rating{Key: "p:" + id, Name: id, Bot: i%2 == 0, Mu: 25 + float64(i)/3, Sigma: 8.0 / 7, Games: i + 1}
		if err := s.FinishRated(ctx, "t"+id, t0, table.RatedEnd{Keys: []string{r.Key},
			Update: func([]table.Rating) ([]table.Rating, error) { return []table.Rating{r}, nil }}); err != nil {
			t.Fatal(err)
		}
		// A certificate cache entry: binary data, keys in byte order.
		if err := s.ACMEPut(ctx, id+".example+rsa", []byte{0, byte(i), 0xff, '\n'}); err != nil {
			t.Fatal(err)
		}
	}
}

// acmeCarried: db holds the certificate cache entries fill stored.
func acmeCarried(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	s, err := storetest.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, id := range []string{"b", "a", "Ä", "c"} {
		data, found, err := s.ACMEGet(ctx, id+".example+rsa")
		if err != nil || !found || !bytes.Equal(data, []byte{0, byte(i), 0xff, '\n'}) {
			t.Fatalf("%s: the certificate cache's entry %s: %q %v %v", db, id, data, found, err)
		}
	}
}

func sums(t *testing.T, db string) []dbcopy.Sum {
	t.Helper()
	s, err := storetest.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, err := dbcopy.Sums(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sqlExec runs statements on the SQLite file at path, with no store.
func sqlExec(t *testing.T, path, stmts string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmts); err != nil {
		t.Fatal(err)
	}
}

// dirBytes is every file under dir by its path, with its content; a
// -shm's content is left out (nil): SQLite's shared index of a WAL
// database, which any reader writes in, the source's readers too.
func dirBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(path, "-shm") {
			files[path] = nil
			return nil
		}
		b, err := os.ReadFile(path)
		files[path] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameDir fails unless after (dirBytes) names the files of before and
// no other, each with its content (a -shm's aside): a file made beside
// them counts, an empty one too.
func sameDir(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	for name, b := range after {
		was, ok := before[name]
		switch {
		case !ok:
			t.Errorf("%s appeared (%d bytes)", name, len(b))
		case !bytes.Equal(b, was):
			t.Errorf("%s changed (%d bytes, was %d)", name, len(b), len(was))
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			t.Errorf("%s went away", name)
		}
	}
}
