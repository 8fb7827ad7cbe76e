package loadgen

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"cardtable/internal/web"
)

// connRun is a run's state against a server that trusts this client's
// X-Forwarded-For and takes perAddr WebSockets from each address (0: its
// default): tables of one person and one bot, the person's address
// 10.0.0.i for table i.
func connRun(t *testing.T, perAddr int) (*arlRun, context.Context) {
	t.Helper()
	url := arlServerWith(t, 10, web.Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}, perAddr)
	hc := &http.Client{Timeout: time.Minute}
	cfg := ArlConfig{URLs: []string{url}, Tables: 2, People: 1, Bots: 1, BotLevel: "random", ForwardedFor: true, Reconnect: true}
	r := &arlRun{cfg: cfg, hc: hc, start: make(chan struct{}), enough: make(chan struct{}), tables: make([]*arlTable, 2)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return r, ctx
}

// A connection opened again that the server keeps refusing gives up
// with the last refusal in its error: an address's bound is then an
// AddressLimitError, not only "no server took the connection".
func TestReconnectGivesUpWithRefusal(t *testing.T) {
	r, ctx := connRun(t, 1)
	a, err := r.setUpTable(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.setUpTable(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer r.closeConn(b.people[0])
	// a's person now comes from b's address, whose one connection b holds.
	p := a.people[0]
	p.t.xff = b.xff
	// Ended all but 300 ms of the minute ago: it tries for 300 ms.
	if r.reconnect(ctx, p, time.Now().Add(-time.Minute+300*time.Millisecond)) {
		t.Fatal("opened again past the address's bound")
	}
	var limit *AddressLimitError
	if !errors.As(r.first, &limit) || limit.Tables {
		t.Fatalf("first error %v: want the WebSocket refusal", r.first)
	}
	t.Log(r.first)
	if r.open.Load() != 1 {
		t.Fatalf("%d connections counted open, want b's one", r.open.Load())
	}
}

// failingHello makes every WebSocket's first write fail, as a
// connection lost between the handshake and the hello.
type failingHello struct{ closed atomic.Int64 }

func (f *failingHello) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
		resp.Body = &noWrite{ReadWriteCloser: resp.Body.(io.ReadWriteCloser), f: f}
	}
	return resp, err
}

type noWrite struct {
	io.ReadWriteCloser
	f *failingHello
}

func (n *noWrite) Write([]byte) (int, error) { return 0, errors.New("connection lost") }

func (n *noWrite) Close() error {
	n.f.closed.Add(1)
	return n.ReadWriteCloser.Close()
}

// A connection whose hello cannot be sent is closed and counted out of
// those open, not left open behind the error (or a retry).
func TestHelloFailsClosesConnection(t *testing.T) {
	r, ctx := connRun(t, 0)
	tb, err := r.setUpTable(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := tb.people[0]
	r.closeConn(p)
	f := &failingHello{}
	r.hc = &http.Client{Transport: f, Timeout: time.Minute}
	if err := r.connect(ctx, p); err == nil {
		t.Fatal("connected with no hello sent")
	}
	if n := r.open.Load(); n != 0 {
		t.Fatalf("%d connections counted open after the hello failed", n)
	}
	if f.closed.Load() != 1 {
		t.Fatalf("connection closed %d times, want once", f.closed.Load())
	}
}
