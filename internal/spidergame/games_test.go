package spidergame_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"cardtable/internal/pgtest"
	"cardtable/internal/spidergame"
	"cardtable/internal/store"
	"cardtable/internal/storetest"
	"cardtable/internal/web/webtest"
	"cardtable/spider"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// player is the one player of these tests.
const player = "p"

// harness is the service over a fresh store (SQLite in a temporary
// directory unless a test names another backend), as the server wires it.
type harness struct {
	tb   testing.TB
	path string // the --db value
	db   storetest.Store
	gs   *spidergame.Service
	opts spidergame.Options
}

func newHarness(tb testing.TB, o spidergame.Options) *harness {
	tb.Helper()
	return newHarnessOn(tb, storetest.Backends()[0], o)
}

func newHarnessOn(tb testing.TB, b storetest.Backend, o spidergame.Options) *harness {
	tb.Helper()
	h := &harness{tb: tb, path: b.New(tb), opts: o}
	h.open()
	return h
}

func (h *harness) open() {
	h.tb.Helper()
	db := storetest.OpenTB(h.tb, h.path)
	h.db, h.gs = db, spidergame.New(db, h.opts)
}

// restart drops the service and its memory and opens the store again:
// what a restarted process sees.
func (h *harness) restart() {
	h.tb.Helper()
	h.db.Close()
	h.open()
}

// start stores a new game of deal n, one suit, and returns its id.
func (h *harness) start(n uint64, o spider.Options) string {
	h.tb.Helper()
	g, err := spider.NewGame(n, o)
	if err != nil {
		h.tb.Fatal(err)
	}
	return h.startGame(g)
}

func (h *harness) startGame(g *spider.Game) string {
	h.tb.Helper()
	s, err := h.gs.Start(context.Background(), player, g, "", 0, false, "")
	if err != nil {
		h.tb.Fatal(err)
	}
	return s.ID
}

// upload starts a game from a save's text.
func (h *harness) upload(text string) string {
	h.tb.Helper()
	g, err := spider.Load(text)
	if err != nil {
		h.tb.Fatal(err)
	}
	return h.startGame(g)
}

// play applies cmd to game id.
func (h *harness) play(id, cmd string) (spidergame.Snapshot, error) {
	h.tb.Helper()
	c, err := spider.ParseCommand(cmd)
	if err != nil {
		h.tb.Fatal(err)
	}
	s, _, err := h.gs.Play(context.Background(), player, id, c, 0)
	return s, err
}

// mustPlay is play that must be accepted.
func (h *harness) mustPlay(id, cmd string) spidergame.Snapshot {
	h.tb.Helper()
	s, err := h.play(id, cmd)
	if err != nil {
		h.tb.Fatalf("%s: %v", cmd, err)
	}
	return s
}

// get is game id as it stands.
func (h *harness) get(id string) spidergame.Snapshot {
	h.tb.Helper()
	s, err := h.gs.Get(context.Background(), player, id)
	if err != nil {
		h.tb.Fatal(err)
	}
	return s
}

// stored is the save text of the game as stored (its snapshot and log
// replayed).
func (h *harness) stored(id string) string {
	h.tb.Helper()
	rec, err := h.db.Game(context.Background(), player, id)
	if err != nil {
		h.tb.Fatal(err)
	}
	g, err := spidergame.Replay(rec)
	if err != nil {
		h.tb.Fatal(err)
	}
	return g.Save()
}

// deals counts the "deal" move lines of a save.
func deals(save string) int {
	n := 0
	for _, l := range strings.Split(save, "\n") {
		if l == "deal" {
			n++
		}
	}
	return n
}

var oneSuit = spider.Options{Suits: 1}

// viewJSON encodes a view the way the web adapter does, for comparisons.
func viewJSON(tb testing.TB, v spider.View) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// TestStaleReadNotCached: a game read from the store just before another
// request stores a move on it and it is evicted must not be cached (and
// then built on) in its older state. The test puts the other request in
// that window with a hook, no timing involved.
func TestStaleReadNotCached(t *testing.T) {
	for _, first := range []string{"command", "read"} {
		t.Run(first, func(t *testing.T) {
			h := newHarness(t, spidergame.Options{MaxGames: 2})
			id := h.start(1, oneSuit)
			evict := func() {
				h.start(2, oneSuit)
				h.start(3, oneSuit)
				if h.gs.Cached(id) {
					t.Fatal("the game was not evicted")
				}
			}
			evict()
			raced := false
			h.gs.SetAfterRead(func(got string) {
				if got != id || raced {
					return
				}
				raced = true
				h.mustPlay(id, "deal") // another tab's move, acknowledged
				evict()
			})
			switch first {
			case "command":
				h.mustPlay(id, "deal")
			case "read":
				// The read must show the other tab's move, and so must
				// the game from then on.
				if s := h.get(id); s.View.Stock != 40 {
					t.Fatalf("read the game with %d cards in the stock, want 40", s.View.Stock)
				}
				h.mustPlay(id, "deal")
			}
			if !raced {
				t.Fatal("the race was not staged")
			}
			// Both deals are stored: none lost, none applied to a stale
			// game.
			if n := deals(h.stored(id)); n != 2 {
				t.Fatalf("%d deals stored, want 2:\n%s", n, h.stored(id))
			}
			h.restart()
			if s := h.get(id); s.View.Stock != 30 {
				t.Fatalf("after a restart the stock holds %d cards, want 30", s.View.Stock)
			}
		})
	}
}

// TestSnapshots: with snapshots every few commands, a game played with
// moves, undo, redo and restart reads back after a restart exactly as it
// was, and its log never holds more than the snapshot rule allows.
func TestSnapshots(t *testing.T) {
	h := newHarness(t, spidergame.Options{})
	const every = 4
	h.gs.SetSnapshotMin(every)
	id := h.start(3, spider.Options{Suits: 1, Cheat: spider.CheatNewCards})
	cmds := []string{"auto 1", "auto 2", "deal", "undo", "redo", "auto 3", "auto 4", "undo", "undo",
		"redo", "deal", "auto 5", "restart", "auto 6", "deal", "undo", "auto 7", "deal", "auto 8", "auto 9"}
	ctx := context.Background()
	for _, c := range cmds {
		before := h.get(id)
		_, err := h.play(id, c)
		if err != nil && !errors.Is(err, spider.ErrIllegal) && !errors.Is(err, spider.ErrNothing) && !errors.Is(err, spider.ErrLimit) {
			t.Fatalf("%s: %v", c, err)
		}
		rec, err2 := h.db.Game(ctx, player, id)
		if err2 != nil {
			t.Fatal(err2)
		}
		g, err2 := spider.Load(rec.Save)
		if err2 != nil {
			t.Fatal(err2)
		}
		if limit := max(every, g.Steps()); len(rec.Log) >= limit {
			t.Fatalf("after %s: %d commands logged since a snapshot of %d steps", c, len(rec.Log), g.Steps())
		}
		after := h.get(id)
		if err != nil && viewJSON(t, after.View) != viewJSON(t, before.View) {
			t.Fatalf("a refused %s changed the game", c)
		}
		mem := viewJSON(t, after.View)
		h.restart()
		if got := viewJSON(t, h.get(id).View); got != mem {
			t.Fatalf("after %s the game read back differs:\n%s\nwas\n%s", c, got, mem)
		}
		h.gs.SetSnapshotMin(every)
	}
}

// TestStaleWriteRetried: a command applied to a game in memory whose
// stored version has moved on is not written over it: the write is
// refused and the command tried again on the stored game. On PostgreSQL
// the other writer is a store of its own, as another server would be.
func TestStaleWriteRetried(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			h := newHarnessOn(t, b, spidergame.Options{})
			other := h.db
			if b.Shared {
				other = storetest.OpenTB(t, h.path)
			}
			staleWriteRetried(t, h, other)
		})
	}
}

func staleWriteRetried(t *testing.T, h *harness, other storetest.Store) {
	id := h.start(1, oneSuit)
	ctx := context.Background()
	// Another writer deals a row; the service's memory does not know.
	rec, err := other.Game(ctx, player, id)
	if err != nil {
		t.Fatal(err)
	}
	err = other.UpdateGame(ctx, spidergame.Change{ID: id, Player: player, Version: rec.Version, Cmd: "deal",
		Summary: spidergame.Summary{Moves: 1}, Updated: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if !h.gs.Cached(id) {
		t.Fatal("the game should be in memory, at its older version")
	}
	s := h.mustPlay(id, "deal")
	if s.View.Stock != 30 || s.View.Moves != 2 {
		t.Fatalf("stock %d, moves %d: want 30 and 2 (both deals)", s.View.Stock, s.View.Moves)
	}
	if n := deals(h.stored(id)); n != 2 {
		t.Fatalf("%d deals stored, want 2", n)
	}
}

// TestCacheBoundedByMemory: games in memory stay within the byte budget
// however long they are, and the games pushed out read back intact.
func TestCacheBoundedByMemory(t *testing.T) {
	const moves = 5000
	budget := 3 * (spidergame.EntryOverhead + moves*80)
	h := newHarness(t, spidergame.Options{CacheBytes: budget})
	var ids []string
	for range 8 {
		ids = append(ids, h.upload(webtest.ShuttleSave(moves)))
		n, bytes := h.gs.Use()
		if bytes > budget || n > 3 {
			t.Fatalf("%d games, %d bytes in memory: budget %d", n, bytes, budget)
		}
	}
	for _, id := range ids {
		if s := h.get(id); s.View.Moves != moves {
			t.Fatalf("game read back with %d moves", s.View.Moves)
		}
	}
}

// TestLongCacheMemory fills the cache with games at the step limit and
// measures the heap: it stays near the budget however many long games are
// played (the estimate counts the collector's headroom too, so the live
// heap is about half of it: TestCacheEstimate).
func TestLongCacheMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	const budget = 32 << 20
	h := newHarness(t, spidergame.Options{CacheBytes: budget})
	save := webtest.ShuttleSave(spider.MaxSteps)
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	base := heap()
	const games = 12
	for range games {
		h.upload(save)
	}
	grown := heap() - base
	n, est := h.gs.Use()
	t.Logf("%d games of %d steps played, %d in memory: estimate %.1f MiB, heap grown by %.1f MiB, budget %d MiB",
		games, spider.MaxSteps, n, float64(est)/(1<<20), float64(grown)/(1<<20), budget>>20)
	if est > budget || n == 0 || n == games {
		t.Fatalf("%d games, %d bytes estimated in memory: budget %d", n, est, budget)
	}
	if grown > budget*3/2 {
		t.Fatalf("heap grew by %d bytes for a cache budget of %d", grown, budget)
	}
}

// deadlineStore is the store, noting the deadline GiveUp is called with.
type deadlineStore struct {
	*store.DB
	deadline time.Time
	ok       bool
}

func (d *deadlineStore) GiveUp(ctx context.Context, player, id string, version int64, at time.Time, r spidergame.Result) error {
	d.deadline, d.ok = ctx.Deadline()
	return d.DB.GiveUp(ctx, player, id, version, at, r)
}

// TestGiveUpWriteBounded: the give-up's write outlives the request (the
// player may close the tab) but is bounded as a move's is, since it holds
// the game's lock and the analysis slot.
func TestGiveUpWriteBounded(t *testing.T) {
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ds := &deadlineStore{DB: db}
	gs := spidergame.New(ds, spidergame.Options{MaxGames: 10})
	g, err := spider.NewGame(1, oneSuit)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gs.Start(context.Background(), player, g, "", 0, false, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, _, err := gs.GiveUp(ctx, player, s.ID, true); err != nil {
		t.Fatal(err)
	}
	// The deadline was set during GiveUp, so at the latest WriteTimeout
	// after its end, however slowly a busy machine ran it.
	end := time.Now()
	if !ds.ok || ds.deadline.After(end.Add(spidergame.WriteTimeout)) {
		t.Fatalf("the give-up's write had deadline %v (set %v), want within %v", ds.deadline, ds.ok, spidergame.WriteTimeout)
	}
}

// TestIDLength: every id a game is given is MaxIDLen long, so refusing a
// longer one refuses no game.
func TestIDLength(t *testing.T) {
	for range 100 {
		if id := spidergame.NewID(); len(id) != spidergame.MaxIDLen {
			t.Fatalf("id %q is %d long, want %d", id, len(id), spidergame.MaxIDLen)
		}
	}
}
