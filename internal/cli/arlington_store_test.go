package cli

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/arlweb"
)

// failSeatMoves is a store whose writes of seat's moves fail for its
// first tries, noting when each was tried, and then work: the other
// seats' moves (the server's bot) are stored, so only the client's are
// refused. failed is closed at the last refusal.
type failSeatMoves struct {
	*store.DB
	seat   int
	tries  int
	failed chan struct{}
	mu     sync.Mutex
	at     []time.Time // the refused tries
}

func newFailSeatMoves(seat, tries int) *failSeatMoves {
	return &failSeatMoves{seat: seat, tries: tries, failed: make(chan struct{})}
}

func (s *failSeatMoves) AppendAction(ctx context.Context, id string, seq int, m table.StoredMove) error {
	s.mu.Lock()
	if len(s.at) < s.tries && m.Seat == s.seat {
		s.at = append(s.at, time.Now())
		if len(s.at) == s.tries {
			close(s.failed)
		}
		s.mu.Unlock()
		return errors.New("sqlite: disk I/O error")
	}
	s.mu.Unlock()
	return s.DB.AppendAction(ctx, id, seq, m)
}

func (s *failSeatMoves) refusals() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.at...)
}

// serveFailing serves Arlington in this process over st, made from the
// database; it returns the server's URL.
func serveFailing(t *testing.T, wrap func(*store.DB) table.Store) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	hub, err := table.NewHub(ctx, table.Options{Store: wrap(db), Bots: tableBot, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	s := web.New(web.Options{Games: []web.Routes{arlweb.New(hub, arlOptions(slog.New(slog.NewTextHandler(io.Discard, nil))))}})
	srv := httptest.NewServer(s)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		hub.Close()
		cancel()
		db.Close()
	})
	return srv.URL
}

// TestArlingtonConnectBotStoreBackoff: a bot whose actions the server
// refuses because its storage fails ("unavailable") tries again after
// waits doubling from arlStoreWait to arlStoreWaitMax, says the failure
// once, and plays on to the end once the storage works. It tried again
// at once, as fast as the pacing let it, for as long as the database
// was out of reach.
func TestArlingtonConnectBotStoreBackoff(t *testing.T) {
	first, most := arlStoreWait, arlStoreWaitMax
	arlStoreWait, arlStoreWaitMax = 30*time.Millisecond, 120*time.Millisecond
	t.Cleanup(func() { arlStoreWait, arlStoreWaitMax = first, most })
	const tries = 5
	st := newFailSeatMoves(0, tries)
	url := serveFailing(t, func(db *store.DB) table.Store { st.DB = db; return st })
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", "4", "--turn-timer", "off")
	_, wait := arlConnect(t, link, "", "--bot", "greedy", "--identity", "")
	select {
	case <-st.failed: // and the storage works from here on
	case <-time.After(time.Minute):
		t.Fatalf("%d tries refused in a minute, want %d", len(st.refusals()), tries)
	}
	at := st.refusals()
	for i := 1; i < tries; i++ {
		want := min(arlStoreWait<<(i-1), arlStoreWaitMax)
		if gap := at[i].Sub(at[i-1]); gap < want {
			t.Errorf("try %d came %v after the refused one before it, want at least %v", i+1, gap, want)
		}
	}
	c := wait()
	arlCheckFinished(t, c)
	if n := strings.Count(c.out, "storage is failing"); n != 1 {
		t.Errorf("the storage failure is said %d times, want once:\n%s", n, c.out)
	}
	if n := strings.Count(c.out, "refused: "); n != 1 {
		t.Errorf("%d refusals shown for one failure, want one:\n%s", n, c.out)
	}
}
