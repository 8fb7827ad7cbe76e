package arlweb

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

// Server messages.
type viewMsg struct {
	Type string `json:"type"` // "view"
	table.Update
	// Legal is every action the receiver may take now, in the engine's
	// notation (empty when it is not their turn); LegalWords the same
	// actions as the page's buttons name them. The events' words (log)
	// and the seats' names (names) are the table's (table.Update).
	Legal      []string `json:"legal"`
	LegalWords []string `json:"legalWords"`
	// LegalPoints is, for each legal action, what it does to each seat's
	// points on the tables (arlington.PointsChange): the page shows it
	// on the action's button and never scores anything itself.
	LegalPoints [][]int `json:"legalPoints"`
	// Limits is what this connection may send (Limits' Burst and Every),
	// on the first view after each hello: a program that acts for a
	// player keeps to it instead of meeting the refusals (docs/api.md).
	Limits *sendLimits `json:"limits,omitempty"`
	// NoHello marks the views of a connection the server subscribed by
	// itself, its hello not come within HelloWait: they answer no hello,
	// and a seat away in them may be so only until the client's hello
	// (docs/api.md).
	NoHello bool `json:"noHello,omitempty"`
}

// sendLimits is a connection's allowance as a client is told it.
type sendLimits struct {
	Burst   int `json:"burst"`
	EveryMs int `json:"everyMs"`
}

// message is update u as the client receives it: the table's update with
// the legal actions in notation, in words and with their points.
func message(u table.Update) viewMsg {
	m := viewMsg{Type: "view", Update: u, Legal: []string{}, LegalWords: []string{}, LegalPoints: [][]int{}}
	if u.View != nil && u.Seat >= 0 && u.View.ToMove == u.Seat {
		for _, a := range u.View.Legal() {
			m.Legal = append(m.Legal, a.String())
			m.LegalWords = append(m.LegalWords, arlington.ActionWords(*u.View, a, u.Names))
			m.LegalPoints = append(m.LegalPoints, arlington.PointsChange(*u.View, a))
		}
	}
	return m
}

type errorMsg struct {
	Type  string `json:"type"` // "error"
	Class string `json:"class"`
	Error string `json:"error"`
	Rule  string `json:"rule,omitempty"` // the rules section an illegal action breaks
	Ref   string `json:"ref,omitempty"`  // the refused chat message's ref
	// SeatOpen: a spectator refused a place (too_many) may still take a
	// seat, one being open (table.ErrSeatOpen); the page offers its join
	// form on it, whatever the words say.
	SeatOpen bool `json:"seatOpen,omitempty"`
}

// ackMsg says the chat message with this ref was taken (kept by the
// table, its line on its way to everyone at it): the sender's answer,
// as an errorMsg with the same ref is its refusal.
type ackMsg struct {
	Type string `json:"type"` // "ack"
	Ref  string `json:"ref"`
}

// newErrorMsg is err as this client reads it: its class, and the words
// web.Message gives it (a server fault's own words, a store's error
// say, only in the log: see refusal); and whether err is a server fault.
func newErrorMsg(err error) (errorMsg, bool) {
	err = web.Classify(err, classes)
	msg, fault := web.Message(err)
	m := errorMsg{Type: "error", Class: web.ClassName(err), Error: msg, SeatOpen: errors.Is(err, table.ErrSeatOpen)}
	var re *arlington.RuleError
	if errors.As(err, &re) {
		m.Rule = re.Rule
	}
	return m, fault
}

// refusal is newErrorMsg of err, refusing this client's message (ref:
// a chat message's, or ""); a server fault is logged with its own words,
// as WriteError logs a request's.
func (cn *conn) refusal(ctx context.Context, err error, ref string) errorMsg {
	m, fault := newErrorMsg(err)
	if fault {
		// Classified, as a request's error is before WriteError logs it,
		// so that the log's reason sees its class (a disk full).
		web.LogFault(ctx, cn.h.log, "arlington: a WebSocket message refused", cn.addr, web.Classify(err, classes), "table", cn.t.ID())
	}
	m.Ref = ref
	return m
}

// conn is one WebSocket connection to one table.
type conn struct {
	h      *Handlers
	t      *table.Table
	c      *websocket.Conn
	player string
	addr   string // the client's address, for the log
	// addrKey is the address as the limits by address key it: the
	// table bounds its spectator places and chat by it.
	addrKey string
	name    string         // from hello, for a spectator's chat; owned by the reader
	hello   chan clientMsg // reader -> writer: (re)subscribe
	out     chan any       // reader -> writer: answers for this client
}

// ws upgrades the request and serves the connection until either side
// ends it. Two goroutines: this one writes (updates, answers, pings); a
// reader goroutine reads and handles client messages. The reader exits
// when the connection's read fails (the client closed it, or the writer
// closed it on its way out); the writer exits when the table or the
// request ends, a write fails or times out, or the reader has exited.
func (h *Handlers) ws(w http.ResponseWriter, r *http.Request) {
	t, err := h.hub.Table(r.PathValue("id"))
	if err != nil {
		web.WriteError(w, r, h.log, web.Classify(err, classes))
		return
	}
	addr := web.AddrKey(r)
	if !h.conns.add(addr, h.limits.PerAddress) {
		web.WriteError(w, r, h.log, fmt.Errorf("%w: %d connections open from your address", web.ErrTooMany, h.limits.PerAddress))
		return
	}
	defer h.conns.done(addr)
	kept := &keptConn{ResponseWriter: w}
	c, err := websocket.Accept(kept, r, nil)
	if err != nil {
		return // Accept has answered the request
	}
	c.SetReadLimit(maxFrame)
	cn := &conn{h: h, t: t, c: c, player: web.Player(r), addr: web.ClientAddr(r), addrKey: addr,
		hello: make(chan clientMsg, 1), out: make(chan any, h.limits.Outbox)}
	ctx, cancel := context.WithCancel(r.Context())
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		defer cancel()
		cn.read(ctx)
	}()
	status, reason := cn.write(ctx)
	web.SetCloseReason(r.Context(), reason)
	// Close before cancelling the reader's context: a Read whose context
	// ends drops the connection at once, and the page would get no close
	// frame (no status, no reason) instead of, say, "restarting". Close
	// then waits for the page's answer, up to the library's 5 s; a page
	// that has gone silent is cut after CloseWait instead, by closing the
	// connection under the library (whatever the reader is doing: in a
	// Read, waiting on a full outbox or gone), so a stopping server hands
	// its tables on sooner.
	closed := make(chan struct{})
	// Exits when Close returns: at the page's answer, once the cut below
	// has ended the connection, or at the latest at the library's own
	// timeouts.
	go func() {
		defer close(closed)
		c.Close(status, reason)
	}()
	wait := time.NewTimer(h.limits.CloseWait)
	select {
	case <-closed:
	case <-wait.C:
		kept.cut()
	}
	wait.Stop()
	cancel()
	<-readerDone
	<-closed
}

// keptConn is the ResponseWriter handed to websocket.Accept: it keeps the
// connection Accept takes over, which the library does not expose, so
// that a page that never answers a close can be cut (ws, CloseWait).
type keptConn struct {
	http.ResponseWriter
	conn net.Conn // set by Hijack, in the handler's goroutine
}

func (k *keptConn) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(k.ResponseWriter).Hijack()
	k.conn = conn
	return conn, brw, err
}

func (k *keptConn) Unwrap() http.ResponseWriter { return k.ResponseWriter }

// cut closes the connection under the library: its reads and its wait
// for the page's close fail at once.
func (k *keptConn) cut() {
	if k.conn != nil {
		k.conn.Close()
	}
}

// read handles client messages until the connection fails.
func (cn *conn) read(ctx context.Context) {
	lim := cn.h.limits
	tokens, at, refused := float64(lim.Burst), timeNow(), 0
	for {
		typ, b, err := cn.c.Read(ctx)
		if err != nil {
			return
		}
		now := timeNow()
		tokens = min(float64(lim.Burst), tokens+float64(now.Sub(at))/float64(lim.Every))
		at = now
		if tokens < 1 {
			refused++
			if refused > lim.MaxRefused {
				cn.c.Close(websocket.StatusPolicyViolation, "too many messages")
				return
			}
			e, _ := newErrorMsg(table.ErrRateLimited)
			e.Ref = refOf(b)
			cn.answer(ctx, e)
			continue
		}
		tokens--
		refused = 0
		if typ != websocket.MessageText {
			cn.answer(ctx, cn.refusal(ctx, fmt.Errorf("%w: binary message", web.ErrBadRequest), refOf(b)))
			continue
		}
		m, err := Decode(b)
		if err != nil {
			cn.answer(ctx, cn.refusal(ctx, err, refOf(b)))
			continue
		}
		if err := cn.handle(ctx, m); err != nil {
			cn.answer(ctx, cn.refusal(ctx, err, m.Ref))
		}
	}
}

// handle carries out one message; its error goes to this client only.
func (cn *conn) handle(ctx context.Context, m clientMsg) error {
	switch m.Type {
	case msgHello:
		if m.Name != "" {
			cn.name = m.Name
		}
		select { // a newer hello replaces one the writer has not taken
		case <-cn.hello:
		default:
		}
		cn.hello <- m
		return nil
	case msgAction:
		return cn.t.Act(ctx, cn.player, m.Seat, m.Action)
	case msgChat:
		if err := cn.t.Chat(ctx, table.Player{ID: cn.player, Name: cn.name, Addr: cn.addrKey}, m.Text); err != nil {
			return err
		}
		if m.Ref != "" {
			cn.answer(ctx, ackMsg{Type: "ack", Ref: m.Ref})
		}
	case msgPing:
		// Answered in the order of this client's messages, through the
		// same bounded queue as its errors, and counted by the same rate
		// limit as every message: the subscription is left alone.
		cn.answer(ctx, pongMsg{Type: "pong"})
	}
	return nil
}

// pongMsg answers a ping.
type pongMsg struct {
	Type string `json:"type"`
}

// answer queues m for this client. While the outbox is full the reader
// waits (the connection's context ends the wait): a flooding client is
// read no faster than its answers are written, so it is never dropped for
// its own answers piling up, and one that does not read at all is dropped
// by the write timeout.
func (cn *conn) answer(ctx context.Context, m any) {
	select {
	case cn.out <- m:
	case <-ctx.Done():
	}
}

// write is the writer's loop: it sends the table's updates, the answers
// the reader queues and pings, until the connection is to end, and
// returns the close status and reason. Updates start once the client's
// hello says from which event, or with every event if no hello comes
// within HelloWait (then marked NoHello until one comes).
func (cn *conn) write(ctx context.Context) (websocket.StatusCode, string) {
	lim := cn.h.limits
	var w watch
	defer w.close()
	asked := false // a hello came: the views answer it
	helloWait := time.NewTimer(lim.HelloWait)
	defer helloWait.Stop()
	ping := time.NewTicker(lim.Ping)
	defer ping.Stop()
	tell := false // the next view carries the limits
	for {
		var msg any
		select {
		case <-ctx.Done():
			return websocket.StatusGoingAway, "bye"
		case <-web.Restarting(ctx):
			// The page shows the reason and reconnects.
			return websocket.StatusServiceRestart, web.RestartReason
		case <-cn.t.Done():
			if cn.t.Moved() {
				return websocket.StatusServiceRestart, movedReason
			}
			return websocket.StatusGoingAway, "table closed"
		case m := <-cn.hello:
			helloWait.Stop()
			asked = true
			tell = true
			if err := w.subscribe(ctx, cn, m.Since, m.Chat, m.Keep); err != nil {
				msg = cn.refusal(ctx, err, "")
				if errors.Is(err, table.ErrCrowded) || errors.Is(err, table.ErrClosed) {
					cn.send(ctx, msg)
					return websocket.StatusTryAgainLater, "cannot watch this table"
				}
			}
		case <-helloWait.C:
			if w.sub == nil {
				// keepAway: after a Leave, a connection that said nothing
				// has not asked to bring its person back, and its hello
				// may only be late, asking to keep them away; one marked
				// away without a Leave is brought back by this as by any
				// hello (docs/api.md). Its views
				// say so (NoHello), so a client does not take the seat
				// away in them for a Leave of the person's.
				if err := w.subscribe(ctx, cn, -1, -1, true); err != nil {
					cn.send(ctx, cn.refusal(ctx, err, ""))
					return websocket.StatusTryAgainLater, "cannot watch this table"
				}
				tell = true
			}
			continue
		case u, ok := <-w.updates:
			if !ok {
				return w.ended()
			}
			vm := message(u)
			vm.NoHello = !asked
			if tell {
				vm.Limits = &sendLimits{Burst: lim.Burst, EveryMs: int((lim.Every + time.Millisecond - 1) / time.Millisecond)} // rounded up: never more than allowed
				tell = false
			}
			msg = vm
		case m := <-cn.out:
			msg = m
		case <-ping.C:
			if !cn.ping(ctx) {
				return websocket.StatusGoingAway, "no answer to ping"
			}
			continue
		}
		if msg != nil && !cn.send(ctx, msg) {
			return websocket.StatusGoingAway, "write failed"
		}
	}
}

// watch is the writer's subscription to the table: none until the hello
// (or its wait) comes; a new hello replaces it.
type watch struct {
	sub     *table.Sub
	updates <-chan table.Update // nil with no subscription: never ready
}

// subscribe replaces the subscription by one from the client's point;
// keep: the hello's keepAway.
func (w *watch) subscribe(ctx context.Context, cn *conn, since, chat int, keep bool) error {
	w.close()
	// The table sends the events from since on (all of them for a
	// count it never reached), each with its words, and the chat
	// lines after the client's last.
	s, err := cn.t.SubscribeKeep(ctx, cn.player, cn.addrKey, since, chat, keep)
	if err != nil {
		return err
	}
	w.sub, w.updates = s, s.Updates()
	return nil
}

func (w *watch) close() {
	if w.sub != nil {
		w.sub.Close()
	}
}

// ended is the close status and reason once the table has ended the
// subscription (its updates closed), by the reason the table gives.
func (w *watch) ended() (websocket.StatusCode, string) {
	err := w.sub.Err()
	w.sub, w.updates = nil, nil
	switch {
	case errors.Is(err, table.ErrSlow):
		return websocket.StatusTryAgainLater, "too slow: reconnect with since"
	case errors.Is(err, table.ErrReplaced):
		return websocket.StatusGoingAway, replacedReason
	case errors.Is(err, table.ErrMoved):
		return websocket.StatusServiceRestart, movedReason
	}
	return websocket.StatusGoingAway, "table closed"
}

// ping pings the client within the write timeout; false if no answer.
func (cn *conn) ping(ctx context.Context) bool {
	pctx, cancel := context.WithTimeout(ctx, cn.h.limits.WriteTimeout)
	defer cancel()
	return cn.c.Ping(pctx) == nil
}

// movedReason closes the connections of a table that moved to another
// server (1012, as a restart): the page and the client reconnect, and
// reach it there.
const movedReason = "table moved: reconnect"

// replacedReason closes (1001) the oldest connection to a seat opened in
// more windows than the server keeps. Clients recognise it by its
// "replaced" prefix (docs/api.md, "How a connection ends"): the table
// page (connection.js) and arlclient match that, not the whole sentence.
const replacedReason = "replaced by a newer connection to your seat"

// send writes one message within the write timeout.
func (cn *conn) send(ctx context.Context, m any) bool {
	b, err := json.Marshal(m)
	if err != nil {
		cn.h.log.Error("arlington: encoding a message", "err", err)
		return false
	}
	wctx, cancel := context.WithTimeout(ctx, cn.h.limits.WriteTimeout)
	defer cancel()
	return cn.c.Write(wctx, websocket.MessageText, b) == nil
}
