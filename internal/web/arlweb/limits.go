package arlweb

import (
	"sync"
	"time"
)

// Limits bound one WebSocket connection.
type Limits struct {
	// Messages a client may send at once (Burst), then one per Every;
	// beyond, each message is refused with an error, and a client that
	// keeps sending past MaxRefused refusals in a row is disconnected.
	Burst      int
	Every      time.Duration
	MaxRefused int
	// WriteTimeout bounds one write: a client that does not read is
	// dropped, it never holds the table up.
	WriteTimeout time.Duration
	// Ping is how often the server pings; HelloWait how long it waits for
	// the client's hello before sending a full view anyway.
	Ping      time.Duration
	HelloWait time.Duration
	// Outbox is how many answers (errors) may wait for the writer; while
	// it is full the reader waits.
	Outbox int
	// PerAddress bounds the WebSocket connections open from one client
	// address (web.AddrKey), all tables together; past it a new one is
	// refused with 429 before the upgrade. The table's own shares (seats,
	// spectators, an identity's) hold whatever identities a client makes
	// up; this holds the total. Zero: 128; negative: no bound (a load
	// test whose simulated people all come from one address).
	PerAddress int
	// CloseWait is how long a closing connection waits for the page to
	// answer its close before it is cut: long enough for a loaded machine
	// to have written the close, short next to the library's own 5 s, so
	// a page gone silent (a phone off the network) does not hold up a
	// stopping server.
	CloseWait time.Duration
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defd := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.Burst, 20)
	defd(&l.Every, 200*time.Millisecond)
	def(&l.MaxRefused, 100)
	defd(&l.WriteTimeout, 10*time.Second)
	defd(&l.Ping, 25*time.Second)
	defd(&l.HelloWait, 5*time.Second)
	def(&l.Outbox, 16)
	if l.PerAddress == 0 {
		l.PerAddress = 128
	}
	defd(&l.CloseWait, time.Second)
	return l
}

// addrConns counts the WebSocket connections open from each client address.
type addrConns struct {
	mu sync.Mutex
	n  map[string]int
}

// add counts one more connection from addr, unless it has max open
// (negative max: no bound).
func (a *addrConns) add(addr string, max int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n = map[string]int{}
	}
	if max >= 0 && a.n[addr] >= max {
		return false
	}
	a.n[addr]++
	return true
}

func (a *addrConns) done(addr string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n[addr]--; a.n[addr] <= 0 {
		delete(a.n, addr)
	}
}
