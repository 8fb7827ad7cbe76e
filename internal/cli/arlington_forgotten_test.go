package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/arlclient"
	"cardtable/internal/spidergame"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// serveStoppable runs cardtable serve on db at addr until stop is called
// or the test ends (then it must have exited cleanly), and returns the
// URL it logs.
func serveStoppable(t *testing.T, addr, db string) (url string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errb := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"serve", "--addr", addr, "--db", db}, nil, io.Discard, errb)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if code := <-done; code != exitOK {
				t.Errorf("exit %d: %s", code, errb)
			}
		})
	}
	t.Cleanup(stop)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := urlLine.FindStringSubmatch(errb.String()); m != nil {
			return m[1], stop
		}
	}
	t.Fatalf("no URL logged: %s", errb)
	return "", nil
}

// personRating is the rating of the person token stands for in the
// database at db (no server running on it), and whether there is one.
func personRating(t *testing.T, db, token string) (table.Rating, bool) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sum := sha256.Sum256([]byte(token)) // the key the server stores (web's playerID)
	rs, err := s.Ratings(ctx, []string{"p:" + hex.EncodeToString(sum[:16])})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 {
		return table.Rating{}, false
	}
	return rs[0], true
}

// TestLongArlingtonConnectIdentityForgotten: two servers' starts and two
// rated games, past 2 s under -race; storetest.TestForgottenPersonRatedAfresh
// is the quick version of its store's part.
func TestLongArlingtonConnectIdentityForgotten(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	// A terminal player's identity file never lapses, but the server
	// forgets an identity unseen for the cookie's life (docs/api.md,
	// "Retention"), its rating with the rest. Coming back with the kept
	// token works as a new player would: the server takes the token (the
	// file is not rewritten, no word of a replaced identity), the rated
	// name is free, and the rating starts afresh at one game. The server
	// stops while the test looks into its database (one server a file)
	// and starts again at the same address, so the file's entry is still
	// this server's.
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	url, stop := serveStoppable(t, "127.0.0.1:0", db)
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	path := filepath.Join(dir, "identity.json")
	rated := func() string {
		return arlNewTable(t, url, "--seats", "human,greedy", "--target", "1", "--rated")
	}
	_, wait := arlConnect(t, rated(), "", "--bot", "greedy", "--name", "Ann", "--identity", path)
	arlCheckFinished(t, wait())
	origin, _ := arlclient.CanonicalOrigin(strings.TrimSuffix(url, "/"))
	token := arlIdentities(t, path)[origin]
	kept, _ := os.ReadFile(path)
	stop()
	if r, ok := personRating(t, db, token); !ok || r.Games != 1 {
		t.Fatalf("after the first run: rating %+v (%v), want one game", r, ok)
	}

	// The pruning a server runs once the identity has been unseen for the
	// cookie's life and the margin.
	ctx := context.Background()
	s, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(web.PlayerMaxAge + spidergame.ForgetMargin + time.Minute)
	svc := spidergame.New(s, spidergame.Options{Now: func() time.Time { return later }, Forget: web.PlayerMaxAge})
	_, err = svc.Prune(ctx)
	if err := errors.Join(err, s.Close()); err != nil {
		t.Fatal(err)
	}
	if r, ok := personRating(t, db, token); ok {
		t.Fatalf("the unseen identity's rating was kept: %+v", r)
	}

	again, stop := serveStoppable(t, addr, db)
	if again != url {
		t.Fatalf("the server came back at %s, not %s", again, url)
	}
	_, wait = arlConnect(t, rated(), "", "--bot", "greedy", "--name", "Ann", "--identity", path)
	c := wait()
	arlCheckFinished(t, c)
	if strings.Contains(c.err, "did not accept") {
		t.Fatalf("the forgotten identity was replaced:\n%s", c.err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, kept) {
		t.Fatal("the identity file changed")
	}
	stop()
	if r, ok := personRating(t, db, token); !ok || r.Games != 1 || r.Name != "Ann" {
		t.Fatalf("after coming back: rating %+v (%v), want Ann's first game", r, ok)
	}
}
