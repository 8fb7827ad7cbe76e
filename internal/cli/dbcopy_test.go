package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/pgstore"
	"cardtable/internal/pgtest"
	"cardtable/internal/spidergame"
	"cardtable/internal/storetest"
	"cardtable/internal/table"
)

// fillIDs name the rows fill stores: out of byte order, one not ASCII.
var fillIDs = []string{"b", "a", "Ä", "c"}

// withStore opens db, runs f on it and closes it before returning, so the
// command under test next finds no other connection open.
func withStore(t testing.TB, db string, f func(ctx context.Context, s storetest.Store)) {
	t.Helper()
	ctx := context.Background()
	s, err := storetest.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f(ctx, s)
}

// emptyStore makes a cardtable database with no rows at db, its schema
// current.
func emptyStore(t testing.TB, db string) {
	t.Helper()
	withStore(t, db, func(context.Context, storetest.Store) {})
}

// fill stores rows in every table of the database at db.
func fill(t testing.TB, db string) {
	t.Helper()
	withStore(t, db, func(ctx context.Context, s storetest.Store) {
		t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		for i, id := range fillIDs {
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
			// A revision of its own, which the copy carries.
			if _, _, err := s.PutSettingsRev(ctx, g.Player, `{"v":"`+id+`"}`, int64(1800000000000+i)); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Seen(ctx, g.Player, t0.Add(time.Duration(i)*time.Millisecond)); err != nil {
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
	})
}

// acmeCarried: db holds the certificate cache entries fill stored.
func acmeCarried(t testing.TB, db string) {
	t.Helper()
	withStore(t, db, func(ctx context.Context, s storetest.Store) {
		for i, id := range fillIDs {
			data, found, err := s.ACMEGet(ctx, id+".example+rsa")
			if err != nil || !found || !bytes.Equal(data, []byte{0, byte(i), 0xff, '\n'}) {
				t.Fatalf("%s: the certificate cache's entry %s: %q %v %v", db, id, data, found, err)
			}
		}
	})
}

// revCarried: each player's settings kept their revision through the
// copy, so a write one older than fill's is not stored (the sums compare
// rows without it). It writes nothing when the revision was carried.
func revCarried(t testing.TB, db string) {
	t.Helper()
	withStore(t, db, func(ctx context.Context, s storetest.Store) {
		for i, id := range fillIDs {
			want := `{"v":"` + id + `"}`
			kept, rev, err := s.PutSettingsRev(ctx, "p"+id, `{"v":"older"}`, int64(1800000000000+i-1))
			if err != nil || kept != want || rev != int64(1800000000000+i) {
				t.Fatalf("%s: an older write over p%s's copied settings kept %s rev %d (%v), want %s rev %d", db, id, kept, rev, err, want, 1800000000000+i)
			}
		}
	})
}

func sums(t testing.TB, db string) (out []dbcopy.Sum) {
	t.Helper()
	withStore(t, db, func(ctx context.Context, s storetest.Store) {
		var err error
		if out, err = dbcopy.Sums(ctx, s); err != nil {
			t.Fatal(err)
		}
	})
	return out
}

// TestDBCopy: SQLite to PostgreSQL and back gives the same rows, checked
// by the command and again here; a non-empty target is refused and left
// as it was; bad flags are usage errors.
func TestDBCopy(t *testing.T) {
	dir := t.TempDir()
	from, back := filepath.Join(dir, "from.db"), filepath.Join(dir, "back.db")
	fill(t, from)
	pg := pgtest.DB(t)
	for _, c := range [][2]string{{from, pg}, {pg, back}} {
		out, errOut, code := run(t, "", "db", "copy", "--from", c[0], "--to", c[1])
		if code != exitOK || !strings.Contains(out, "checked, the same on both sides") || !strings.Contains(out, "live_table_chat") {
			t.Fatalf("copy %s to %s: exit %d: %s%s", c[0], c[1], code, out, errOut)
		}
	}
	want := sums(t, from)
	// players: the 4 Spider players and the 2 rated people (a rated
	// game's end records its people as seen).
	if want[0].Rows != 4 || want[len(want)-1].Table != "players" || want[len(want)-1].Rows != 6 {
		t.Fatalf("the source's sums: %+v", want)
	}
	if got := sums(t, pg); !reflect.DeepEqual(got, want) {
		t.Fatalf("PostgreSQL copy %+v, source %+v", got, want)
	}
	if got := sums(t, back); !reflect.DeepEqual(got, want) {
		t.Fatalf("copied back %+v, source %+v", got, want)
	}
	// The certificate cache is carried both ways, byte for byte.
	for _, db := range []string{pg, back} {
		acmeCarried(t, db)
	}
	// Onto a database with rows: refused, nothing written.
	_, errOut, code := run(t, "", "db", "copy", "--from", back, "--to", pg)
	if code != exitUsage || errOut != "cardtable: db copy: the target: "+pgstore.Redact(pg)+": the target database is not empty (table games has rows): copy only into a new database; nothing changed\n" {
		t.Fatalf("copy onto a full database: exit %d: %s", code, errOut)
	}
	if got := sums(t, pg); !reflect.DeepEqual(got, want) {
		t.Fatalf("the refused copy wrote: %+v", got)
	}
	for _, db := range []string{pg, back} {
		revCarried(t, db)
	}
	for _, args := range [][]string{{"--from", from}, {"--from", from, "--to", from}, {"--to", pg, "x"}} {
		if _, errOut, code := run(t, "", append([]string{"db", "copy"}, args...)...); code != exitUsage {
			t.Fatalf("db copy %v: exit %d: %s", args, code, errOut)
		}
	}
	if _, errOut, code := run(t, "", "db", "copy", "--from", "postgres://nobody@127.0.0.1:1/none?connect_timeout=2", "--to", back); code == exitOK || !strings.Contains(errOut, "the source") {
		t.Fatalf("an unreachable source: exit %d: %s", code, errOut)
	}
}

// TestDBCopyMissingSource: a --from SQLite file that does not exist is
// bad input, and neither it nor the target is created (it was opened as a
// new, empty database and "copied").
func TestDBCopyMissingSource(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "typo.db"), filepath.Join(dir, "new.db")
	_, errOut, code := run(t, "", "db", "copy", "--from", from, "--to", to)
	if code != exitUsage || !strings.Contains(errOut, "no database at "+from) {
		t.Fatalf("exit %d, %q; want exit 2 and no database at %s", code, errOut, from)
	}
	for _, f := range []string{from, to} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was created", f)
		}
	}
}

// TestBackupRefusesPostgres: backup and restore work on the SQLite file;
// given a PostgreSQL URL they say what to use instead.
func TestBackupRefusesPostgres(t *testing.T) {
	url := "postgres://u@127.0.0.1:1/db"
	for _, args := range [][]string{{"backup", "--db", url, "--to", "x.db"}, {"restore", "--db", url, "--from", "x.db"}} {
		_, errOut, code := run(t, "", args...)
		want := "cardtable: " + args[0] + ": --db names a PostgreSQL database, and cardtable " + args[0] + " works on a SQLite file: "
		if code != exitUsage || !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, "with pg_") {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
}
