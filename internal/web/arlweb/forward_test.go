package arlweb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"cardtable/internal/arlwire"
	"cardtable/internal/store"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// TestTablePath: which requests name a table (forwarded to its server)
// and which makes one (sent to the least loaded server); the rest stay.
func TestTablePath(t *testing.T) {
	for _, c := range []struct {
		method, path string
		id           string
		isNew        bool
	}{
		{"POST", "/api/arlington/tables", "", true},
		{"POST", "/api/arlington/tables/", "", true},
		{"GET", "/api/arlington/tables", "", false},
		{"GET", "/api/arlington/tables/ABC", "ABC", false},
		{"GET", "/api/arlington/tables/ABC/ws", "ABC", false},
		{"POST", "/api/arlington/tables/ABC/join", "ABC", false},
		{"POST", "/api/arlington/tables/ABC/preview", "ABC", false},
		{"POST", "/api/arlington/preview", "", false},
		{"GET", "/api/arlington/tablesX/ABC", "", false},
		{"GET", "/api/arlington/games", "", false},
		{"GET", "/arlington/t/ABC", "", false},
		{"GET", "/api/arlington/tables/a%20b/ws", "", false},
		{"GET", "/api/arlington/tables/" + strings.Repeat("A", 65), "", false},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			id, isNew := tablePath(httptest.NewRequest(c.method, c.path, nil))
			if id != c.id || isNew != c.isNew {
				t.Fatalf("tablePath = %q, %v; want %q, %v", id, isNew, c.id, c.isNew)
			}
		})
	}
}

// forwardHub is a hub on a SQLite store of its own, seen through wrap
// (nil: as it is), closed when the test ends.
func forwardHub(t testing.TB, wrap func(*store.DB) table.Store) *table.Hub {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var st table.Store = db
	if wrap != nil {
		st = wrap(db)
	}
	hub, err := table.NewHub(context.Background(), table.Options{Store: st, Bots: newBot})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	return hub
}

// fakeCluster answers Where and ForNew as set; it lists no other tables.
type fakeCluster struct {
	place  Place
	err    error
	forNew string
	others error // Others' error
	asked  int   // Where calls
	newAsk int   // ForNew calls
}

func (f *fakeCluster) Where(context.Context, string) (Place, error) {
	f.asked++
	return f.place, f.err
}
func (f *fakeCluster) ForNew(context.Context) (string, error) {
	f.newAsk++
	return f.forNew, nil
}
func (f *fakeCluster) Others(context.Context, string) ([]table.Summary, map[string]bool, error) {
	return nil, nil, f.others
}

// TestForward: a table another server runs is forwarded there, marked,
// with the client's address and the Host kept; a forwarded request is
// never forwarded again (503, Retry-After), nor is one for a table between
// servers; a table this server runs is served here without asking; a new
// table goes where ForNew says, and one forwarded is made here without
// asking again.
func TestForward(t *testing.T) {
	var got []*http.Request
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r)
		w.WriteHeader(http.StatusTeapot)
	}))
	defer other.Close()
	otherAddr := strings.TrimPrefix(other.URL, "http://")
	ctx := context.Background()
	hub := forwardHub(t, nil)
	fc := &fakeCluster{}
	o := wired(Limits{})
	o.Cluster = fc
	h := New(hub, o)
	srv := h.Forward(web.New(web.Options{Games: []web.Routes{h}}))
	local, err := hub.CreateFrom(ctx, "p", "", table.Config{Players: 2, Bots: []string{"", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	serve := func(method, path string, hdr http.Header) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(`{"players":2}`))
		r.Host = "cards.example"
		r.RemoteAddr = "192.0.2.7:5555"
		maps.Copy(r.Header, hdr)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	fc.place = Place{Addr: otherAddr}
	if w := serve("GET", "/api/arlington/tables/ELSEWHERE", nil); w.Code != http.StatusTeapot || len(got) != 1 {
		t.Fatalf("forwarded: %d, %d requests there", w.Code, len(got))
	}
	if r := got[0]; r.Header.Get(ForwardedHeader) == "" || r.Host != "cards.example" ||
		r.Header.Get("X-Forwarded-For") != "192.0.2.7" || r.URL.Path != "/api/arlington/tables/ELSEWHERE" {
		t.Fatalf("forwarded as %s %s, headers %v", r.Host, r.URL, r.Header)
	}
	// The preview at a table names it in its path, so it goes there too:
	// another server has no view of the table to say what the cards do.
	if w := serve("POST", "/api/arlington/tables/ELSEWHERE/preview", nil); w.Code != http.StatusTeapot || len(got) != 2 ||
		got[1].URL.Path != "/api/arlington/tables/ELSEWHERE/preview" {
		t.Fatalf("a preview at a table elsewhere: %d, %d requests there", w.Code, len(got))
	}
	got = got[:1]
	if w := serve("GET", "/api/arlington/tables/ELSEWHERE", http.Header{ForwardedHeader: {"1"}}); w.Code != http.StatusServiceUnavailable ||
		w.Header().Get("Retry-After") == "" || w.Header().Get(arlwire.MovingHeader) != "1" || len(got) != 1 {
		t.Fatalf("a forwarded request for a table not here: %d, Retry-After %q, moving %q, %d forwarded", w.Code, w.Header().Get("Retry-After"), w.Header().Get(arlwire.MovingHeader), len(got)-1)
	}
	asked := fc.asked
	if w := serve("GET", "/api/arlington/tables/"+local.ID(), nil); w.Code != http.StatusOK || fc.asked != asked {
		t.Fatalf("a table here: %d, asked where %d times", w.Code, fc.asked-asked)
	}
	fc.place = Place{Wait: true}
	if w := serve("GET", "/api/arlington/tables/MOVING/ws", nil); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || w.Header().Get(arlwire.MovingHeader) != "1" {
		t.Fatalf("a table between servers: %d, moving %q", w.Code, w.Header().Get(arlwire.MovingHeader))
	}
	fc.place, fc.err = Place{}, errors.New("no database")
	if w := serve("GET", "/api/arlington/tables/X", nil); w.Code != http.StatusServiceUnavailable {
		t.Fatalf("where unknown: %d", w.Code)
	}
	fc.place, fc.err = Place{Here: true}, nil
	if w := serve("GET", "/api/arlington/tables/GONE", nil); w.Code != http.StatusNotFound {
		t.Fatalf("a table no server runs: %d", w.Code)
	}
	fc.forNew = otherAddr
	if w := serve("POST", "/api/arlington/tables", nil); w.Code != http.StatusTeapot || len(got) != 2 || got[1].Method != "POST" {
		t.Fatalf("a new table for the other server: %d", w.Code)
	}
	newAsk := fc.newAsk
	if w := serve("POST", "/api/arlington/tables", http.Header{ForwardedHeader: {"1"}}); w.Code != http.StatusCreated || fc.newAsk != newAsk {
		t.Fatalf("a new table forwarded here: %d %s, asked where %d times", w.Code, w.Body, fc.newAsk-newAsk)
	}
	fc.forNew = ""
	if w := serve("POST", "/api/arlington/tables", nil); w.Code != http.StatusCreated {
		t.Fatalf("a new table here: %d %s", w.Code, w.Body)
	}
}

// TestForwardNewToDeadServer: a new table meant for a server that does
// not answer (it died and its lease has not run out yet, so it still
// looks the least loaded) is made here, not refused: nothing reached that
// server, so nothing is made twice.
func TestForwardNewToDeadServer(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	deadAddr := strings.TrimPrefix(gone.URL, "http://")
	gone.Close() // nothing listens there any more
	hub := forwardHub(t, nil)
	o := wired(Limits{})
	o.Cluster = &fakeCluster{forNew: deadAddr, place: Place{Addr: deadAddr}}
	h := New(hub, o)
	srv := h.Forward(web.New(web.Options{Games: []web.Routes{h}}))
	const cfg = `{"players":2,"bots":["","random"]}`
	r := httptest.NewRequest("POST", "/api/arlington/tables", strings.NewReader(cfg))
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	if w.Code != http.StatusCreated || len(hub.List()) != 1 || hub.List()[0].Players != 2 {
		t.Fatalf("a new table for a server that does not answer: %d %s; %d tables here", w.Code, w.Body, len(hub.List()))
	}
	// A table there is not made here: it is between servers (503).
	w = httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("GET", "/api/arlington/tables/THERE", nil))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Fatalf("a table on a server that does not answer: %d", w.Code)
	}
}

// movedSeats is a store whose seat writes say the table moved to another
// server.
type movedSeats struct{ *store.DB }

func (movedSeats) SaveSeats(context.Context, string, []table.StoredSeat) error {
	return fmt.Errorf("taken: %w", table.ErrMoved)
}

// TestMovedRetryAfter: a request refused because the table moved to
// another server meanwhile (nothing done) says Retry-After and is marked
// as a table moving (arlwire.MovingHeader), so the page asks again, reaching the
// table's new server.
func TestMovedRetryAfter(t *testing.T) {
	ctx := context.Background()
	hub := forwardHub(t, func(db *store.DB) table.Store { return movedSeats{db} })
	h := New(hub, wired(Limits{}))
	srv := web.New(web.Options{Games: []web.Routes{h}})
	tb, err := hub.CreateFrom(ctx, "p", "", table.Config{Players: 2, Bots: []string{"", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("POST", "/api/arlington/tables/"+tb.ID()+"/join", strings.NewReader(`{"name":"Ann"}`)))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || w.Header().Get(arlwire.MovingHeader) != "1" {
		t.Fatalf("a join refused as moved: %d, Retry-After %q, moving %q, %s", w.Code, w.Header().Get("Retry-After"), w.Header().Get(arlwire.MovingHeader), w.Body)
	}
}

// TestForwardNewTooLong: a new table's request too long to be kept for
// forwarding is refused here as any server refuses it: too large.
func TestForwardNewTooLong(t *testing.T) {
	hub := forwardHub(t, nil)
	o := wired(Limits{})
	o.Cluster = &fakeCluster{forNew: "127.0.0.1:1"}
	h := New(hub, o)
	srv := h.Forward(web.New(web.Options{Games: []web.Routes{h}}))
	body := `{"players":2,"name":"` + strings.Repeat("x", 5<<10) + `"}`
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("POST", "/api/arlington/tables", strings.NewReader(body)))
	if w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("a long new table's request: %d %s", w.Code, w.Body)
	}
}

// elsewhereHub is a hub whose rematch tables run on another server.
type elsewhereHub struct{ *table.Hub }

func (elsewhereHub) RematchFrom(context.Context, string, string, string) (*table.Table, int, error) {
	return nil, -1, &table.ElsewhereError{ID: "REMATCH"}
}

// TestRematchElsewhere: a rematch table running on another server is
// answered with its link (and seat -1), where the page goes and the
// person takes the seat held for them, not with an error.
func TestRematchElsewhere(t *testing.T) {
	h := New(elsewhereHub{forwardHub(t, nil)}, wired(Limits{}))
	srv := web.New(web.Options{Games: []web.Routes{h}})
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("POST", "/api/arlington/tables/OLD/rematch", nil))
	var got struct {
		ID   string `json:"id"`
		Link string `json:"link"`
		Seat int    `json:"seat"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || w.Code != http.StatusCreated ||
		got.ID != "REMATCH" || got.Link != "/arlington/t/REMATCH" || got.Seat != -1 {
		t.Fatalf("a rematch elsewhere: %d %s", w.Code, w.Body)
	}
}

// serveAt sends srv a request for path as if addressed to host, with a
// new table's settings as its body, and returns the answer.
func serveAt(srv http.Handler) func(method, path, host string) *httptest.ResponseRecorder {
	return func(method, path, host string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(`{"players":2}`))
		r.Host = host
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
}
