package cli

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"

	"cardtable/internal/dbcopy"
	"cardtable/internal/store"
)

// TestServeRecordsReturningPlayers: cardtable serve records a player who
// owns something as seen when they come back (web.Options.Seen wired to
// the Spider service), so that pruning can tell them from an identity
// nobody holds any more: after starting a game and one more request, the
// players table has their row, and only theirs.
func TestServeRecordsReturningPlayers(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	url, stop := serveStoppable(t, "127.0.0.1:0", db)
	if _, err := post(t, url+"api/games", `{"deal":"1"}`, http.StatusCreated); err != nil {
		t.Fatal(err)
	}
	resp, err := browser.Get(url + "api/stats")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("stats: %s", resp.Status)
	}
	stop()
	ctx := context.Background()
	s, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var games, players []string
	if err := s.Export(ctx, "games", func(row any) error {
		games = append(games, row.(dbcopy.Game).Player)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Export(ctx, "players", func(row any) error {
		players = append(players, row.(dbcopy.Player).Player)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || len(players) != 1 || players[0] != games[0] {
		t.Fatalf("players recorded %q, want the one who started the game (games of %q)", players, games)
	}
}
