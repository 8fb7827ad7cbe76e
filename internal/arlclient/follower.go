package arlclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Message is one message the server sent, or the follower's own notice of
// a new connection (Type "connected", Raw nil).
type Message struct {
	Type   string       // "view", "error", or "connected"
	Raw    []byte       // the message as received (one JSON object); nil for "connected"
	Update *Update      // for "view"
	Err    *ServerError // for "error"
}

// Message types.
const (
	TypeView      = "view"
	TypeError     = "error"
	TypeConnected = "connected"
)

// ErrOffline is Send's error while the follower has no connection: the
// follower is reconnecting, and the next view will say where the table is.
var ErrOffline = errors.New("not connected")

// ErrReplaced ends a follower whose seat a newer connection of the same
// identity took over (the server keeps a few connections a seat and
// closes the oldest past them). The follower does not reconnect: it would
// in turn push out the newer one, and the two would take turns forever.
var ErrReplaced = errors.New("the seat was taken over by a newer connection of this identity")

// replacedPrefix starts the close reason the server gives a connection it
// replaced (status 1001, docs/api.md "How a connection ends"): matched as
// a prefix, as the table page does, so the rest of the sentence may be
// reworded.
const replacedPrefix = "replaced"

// closeErr is err, a connection's read error, as the follower acts on
// it: the server's close of a replaced connection becomes ErrReplaced;
// every other end is reconnected from (too slow, table moved, restarting,
// table closed, a lost network).
func closeErr(err error) error {
	var ce websocket.CloseError
	if errors.As(err, &ce) && ce.Code == websocket.StatusGoingAway && strings.HasPrefix(ce.Reason, replacedPrefix) {
		return ErrReplaced
	}
	return err
}

// FollowOptions tune a follower; the zero value is the defaults.
type FollowOptions struct {
	// Backoff is the first wait before reconnecting; it doubles up to
	// MaxBackoff (defaults 0.5 s and 8 s, as the table page's).
	Backoff, MaxBackoff time.Duration
	// GiveUp is how long the follower keeps trying to reach a server it
	// lost before it ends with ErrUnreachable (default 10 minutes).
	GiveUp time.Duration
	// OpenTimeout bounds the opening of each WebSocket, until the server
	// answers the upgrade (default 10 s, as the table page's): a server or
	// a proxy that takes the connection and never answers it counts as a
	// failed attempt, told and tried again, instead of a wait as long as
	// an HTTP call's.
	OpenTimeout time.Duration
	// Notef, if set, hears of lost and regained connections.
	Notef func(format string, args ...any)
}

func (o FollowOptions) withDefaults() FollowOptions {
	if o.Backoff <= 0 {
		o.Backoff = 500 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 8 * time.Second
	}
	if o.GiveUp <= 0 {
		o.GiveUp = 10 * time.Minute
	}
	if o.OpenTimeout <= 0 {
		o.OpenTimeout = 10 * time.Second
	}
	if o.Notef == nil {
		o.Notef = func(string, ...any) {}
	}
	return o
}

// Limits of one connection.
const (
	// maxMessage bounds a message read from the server: a view holds the
	// whole current game and, on a first update, its public event log (a
	// few hundred KB for the longest games).
	maxMessage = 16 << 20
	// writeTimeout bounds one message sent; pingEvery is how often the
	// follower checks the server still answers, within pingTimeout.
	writeTimeout = 10 * time.Second
	pingEvery    = 20 * time.Second
	pingTimeout  = 15 * time.Second
)

// Follower follows one table over a WebSocket. It says hello with the
// number of public events it has delivered and of the last chat line, so
// after a reconnect the server sends only what was missed, and it reconnects by itself (waits
// doubling from Backoff to MaxBackoff) when the connection drops or the
// server restarts, until Close, ctx's end, a table that is gone, a newer
// connection of the same identity taking the seat over (ErrReplaced), or
// GiveUp of failing to reach the server.
type Follower struct {
	c    *Client
	id   string
	o    FollowOptions
	msgs chan Message
	stop context.CancelFunc
	done chan struct{}
	// chat is the number of the last chat line delivered (-1 none);
	// owned by the follower's goroutine.
	chat int
	// pace keeps the connection's messages within the server's limits.
	pace pacer
	// lostNoted: a lost connection was told (Notef) and its return not
	// yet; owned by the follower's goroutine.
	lostNoted bool

	mu   sync.Mutex
	conn *websocket.Conn // nil while offline
	err  error           // why the follower ended; set before msgs closes
}

// Open starts following table id. Every message arrives on Messages, in
// order; the follower waits for the reader (a reader that falls far behind
// is dropped by the server, and the follower catches up on reconnecting).
func (c *Client) Open(ctx context.Context, id string, o FollowOptions) *Follower {
	ctx, stop := context.WithCancel(ctx)
	s := &Follower{c: c, id: id, o: o.withDefaults(), msgs: make(chan Message), stop: stop, done: make(chan struct{}), chat: -1}
	// The follower's goroutine exits when ctx ends (Close), the table is
	// gone, or the server stays out of reach for GiveUp; it closes msgs.
	go s.run(ctx)
	return s
}

// Messages is the follower's messages, closed when the follower ends (Err
// says why).
func (s *Follower) Messages() <-chan Message { return s.msgs }

// Err is why the follower ended; call it once Messages is closed.
func (s *Follower) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close ends the follower and waits for its goroutine.
func (s *Follower) Close() {
	s.stop()
	<-s.done
}

// Act sends an action in the engine's notation for this identity's seat.
// A refusal comes back as an "error" message, an effect as a "view".
func (s *Follower) Act(ctx context.Context, action string) error {
	return s.send(ctx, struct {
		Type   string `json:"type"`
		Action string `json:"action"`
	}{"action", action})
}

// Chat sends a line to the table's chat.
func (s *Follower) Chat(ctx context.Context, text string) error {
	return s.send(ctx, struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"chat", text})
}

// send writes m once the server's allowance lets it (pacer): it may wait
// up to the time the server takes to allow one more message.
func (s *Follower) send(ctx context.Context, m any) error {
	online := func() *websocket.Conn {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.conn
	}
	if online() == nil {
		return ErrOffline
	}
	if err := s.pace.wait(ctx); err != nil {
		return err
	}
	conn := online() // the connection may have changed while waiting
	if conn == nil {
		return ErrOffline
	}
	return write(ctx, conn, m)
}

func write(ctx context.Context, conn *websocket.Conn, m any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	return conn.Write(ctx, websocket.MessageText, b)
}

func (s *Follower) end(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
	close(s.msgs)
	close(s.done)
}

// run connects, reads, and reconnects until the follower ends.
func (s *Follower) run(ctx context.Context) {
	have := -1 // events delivered so far; -1: none yet, ask for all
	wait := s.o.Backoff
	var lostAt time.Time // when the server was last lost; zero while connected
	opened := false      // whether a connection was ever opened: else none was lost
	for {
		conn, err := s.dial(ctx)
		if err == nil {
			opened = true
			var got bool
			have, got, err = s.serve(ctx, conn, have)
			if got {
				wait, lostAt = s.o.Backoff, time.Time{}
			}
		}
		if ctx.Err() != nil {
			s.end(ctx.Err())
			return
		}
		if errors.Is(err, ErrNotFound) || errors.Is(err, errFatal) || errors.Is(err, ErrReplaced) {
			s.end(err)
			return
		}
		if lostAt.IsZero() {
			lostAt = time.Now()
		} else if time.Since(lostAt) > s.o.GiveUp {
			s.end(fmt.Errorf("%w %s for %v: %w", ErrUnreachable, s.c.base, s.o.GiveUp, lost{err}))
			return
		}
		if opened {
			s.o.Notef("connection to the table lost (%v); reconnecting in %v", lost{err}, wait)
		} else {
			s.o.Notef("could not connect to the table (%v); trying again in %v", lost{err}, wait)
		}
		s.lostNoted = true
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			s.end(ctx.Err())
			return
		case <-t.C:
		}
		wait = min(2*wait, s.o.MaxBackoff)
	}
}

// errFatal marks an answer to the WebSocket request that trying again
// will not change (the request is refused as such).
var errFatal = errors.New("the server refuses this client")

// dial opens the table's WebSocket with this client's identity cookie.
func (s *Follower) dial(ctx context.Context) (*websocket.Conn, error) {
	u := *s.c.base
	switch u.Scheme {
	case "https":
		u.Scheme = "wss"
	default:
		u.Scheme = "ws"
	}
	u.Path += "/api/arlington/tables/" + s.id + "/ws"
	dctx, cancel := context.WithTimeout(ctx, s.o.OpenTimeout)
	defer cancel()
	conn, resp, err := websocket.Dial(dctx, u.String(), &websocket.DialOptions{HTTPClient: s.c.hc})
	if err != nil && ctx.Err() == nil && errors.Is(dctx.Err(), context.DeadlineExceeded) {
		return nil, noAnswer{within: s.o.OpenTimeout, err: err}
	}
	if err != nil {
		if resp != nil {
			switch resp.StatusCode {
			case http.StatusNotFound:
				return nil, fmt.Errorf("%w: %s", ErrNotFound, s.id)
			case http.StatusBadRequest, http.StatusForbidden:
				return nil, fmt.Errorf("%w: %d %s", errFatal, resp.StatusCode, http.StatusText(resp.StatusCode))
			}
			return nil, answerError{code: resp.StatusCode, reason: answerReason(resp.Body), err: err}
		}
		return nil, err
	}
	conn.SetReadLimit(maxMessage)
	return conn, nil
}

// serve says hello and delivers the connection's messages until it
// fails; it returns the events delivered and whether anything came.
func (s *Follower) serve(ctx context.Context, conn *websocket.Conn, have int) (int, bool, error) {
	defer conn.CloseNow()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.pace.reset()
	s.pace.took()
	if err := write(cctx, conn, hello(have, s.chat)); err != nil {
		return have, false, err
	}
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.conn = nil
		s.mu.Unlock()
	}()
	// The pinger finds a server that went silent without closing (a lost
	// network); it exits when this connection is done.
	pinged := make(chan struct{})
	go func() {
		defer close(pinged)
		s.ping(cctx, conn)
	}()
	defer func() { cancel(); <-pinged }()
	got := false
	if !s.deliver(ctx, Message{Type: TypeConnected}) {
		return have, got, ctx.Err()
	}
	for {
		typ, b, err := conn.Read(cctx)
		if err != nil {
			return have, got, closeErr(err)
		}
		if !got && s.lostNoted {
			// The loss was told: its end is too, once, when the server
			// speaks again (a connection it closes at once is no return).
			s.lostNoted = false
			s.o.Notef("connection to the table is back")
		}
		got = true
		if typ != websocket.MessageText {
			continue
		}
		m, err := decode(b)
		if err != nil {
			s.o.Notef("%v", err)
			continue
		}
		if u := m.Update; u != nil && u.View != nil {
			if have >= 0 && u.View.EventsFrom > have {
				// A gap (the server skipped events this client never
				// had): ask again from what it has.
				s.pace.took()
				if err := write(cctx, conn, hello(have, s.chat)); err != nil {
					return have, got, err
				}
			}
			have = u.View.EventCount
		}
		if u := m.Update; u != nil {
			s.pace.tell(u.Limits)
		}
		if u := m.Update; u != nil && len(u.Chat) > 0 {
			s.chat = u.Chat[len(u.Chat)-1].N
		}
		if !s.deliver(ctx, m) {
			return have, got, ctx.Err()
		}
	}
}

func hello(since, chat int) any {
	return struct {
		Type  string `json:"type"`
		Since int    `json:"since"`
		Chat  int    `json:"chat"`
	}{"hello", since, chat}
}

func (s *Follower) deliver(ctx context.Context, m Message) bool {
	select {
	case s.msgs <- m:
		return true
	case <-ctx.Done():
		return false
	}
}

// ping checks every pingEvery that the server answers; it closes a
// connection whose server does not, and returns when ctx ends.
func (s *Follower) ping(ctx context.Context, conn *websocket.Conn) {
	t := time.NewTicker(pingEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, pingTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil && ctx.Err() == nil {
				conn.CloseNow()
				return
			}
		}
	}
}

// decode reads one server message; a message of an unknown type is kept
// (Raw) for the log, with neither Update nor Err.
func decode(b []byte) (Message, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return Message{}, fmt.Errorf("a message from the server is not JSON: %w", err)
	}
	if t := bytes.TrimLeft(b, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return Message{}, fmt.Errorf("a message from the server is not a JSON object: %.40q", b)
	}
	m := Message{Type: head.Type, Raw: b}
	switch head.Type {
	case TypeView:
		m.Update = new(Update)
		if err := json.Unmarshal(b, m.Update); err != nil {
			return Message{}, fmt.Errorf("a view from the server does not read: %w", err)
		}
		m.Update.clean()
	case TypeError:
		m.Err = new(ServerError)
		if err := json.Unmarshal(b, m.Err); err != nil {
			return Message{}, fmt.Errorf("an error from the server does not read: %w", err)
		}
		m.Err.Message, m.Err.Rule = Clean(m.Err.Message), Clean(m.Err.Rule)
	}
	return m, nil
}

// clean makes the update's words (names, bot levels, chat, the log's
// sentences) fit for a terminal (Clean); Raw keeps them as received, for
// --log.
func (u *Update) clean() {
	cleanSeats(u.Seats)
	for i := range u.Chat {
		u.Chat[i].Name, u.Chat[i].Text = Clean(u.Chat[i].Name), Clean(u.Chat[i].Text)
	}
	for i := range u.Log {
		u.Log[i] = Clean(u.Log[i])
	}
	for i := range u.Names {
		u.Names[i] = Clean(u.Names[i])
	}
}

// cleanSeats cleans the words of each seat the terminal prints: the
// player's name and the bot's level.
func cleanSeats(seats []Seat) {
	for i := range seats {
		seats[i].Name, seats[i].Bot = Clean(seats[i].Name), Clean(seats[i].Bot)
	}
}
