package arlweb

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardtable/internal/table"
	"cardtable/internal/web"
)

// mover is, of the clients, the one whose seat is to move in m's view.
func mover(m srvMsg, seats map[int]*wsClient) (*wsClient, int) {
	s := m.View.ToMove
	return seats[s], s
}

func TestWSIdentity(t *testing.T) {
	e := newEnv(t, Limits{})
	a, b, c := e.client(), e.client(), e.client()
	id := a.create("", "")
	sa, sb := a.join(id, "Ann"), b.join(id, "Bob")
	wa, wb, wc := a.dial(id, -1), b.dial(id, -1), c.dial(id, -1)
	va, vb, vc := wa.started(), wb.started(), wc.started()
	if va.Seat != sa || vb.Seat != sb || vc.Seat != -1 {
		t.Fatalf("seats %d %d %d", va.Seat, vb.Seat, vc.Seat)
	}
	if len(vc.View.Hand) != 0 || len(va.View.Hand) == 0 {
		t.Errorf("hands: spectator %v, Ann %v", vc.View.Hand, va.View.Hand)
	}
	seats := map[int]*wsClient{sa: wa, sb: wb}
	views := map[int]srvMsg{sa: va, sb: vb}
	m, ms := mover(va, seats)
	other, os := wb, sb
	if ms == sb {
		other, os = wa, sa
	}
	if len(views[ms].Legal) == 0 || len(views[os].Legal) != 0 {
		t.Fatalf("legal: mover %v, other %v", views[ms].Legal, views[os].Legal)
	}
	legal := views[ms].Legal[0]
	refuse := func(w *wsClient, msg map[string]any, class string) {
		t.Helper()
		w.send(msg)
		got := w.waitFor(isError)
		if got.Class != class {
			t.Errorf("%v: %+v, want class %s", msg, got, class)
		}
	}
	refuse(other, map[string]any{"type": "action", "action": legal}, "conflict")
	refuse(other, map[string]any{"type": "action", "action": legal, "seat": ms}, "forbidden")
	refuse(wc, map[string]any{"type": "action", "action": legal}, "forbidden")
	refuse(wc, map[string]any{"type": "action", "action": legal, "seat": ms}, "forbidden")
	// A card the mover does not hold: refused by the rules, with the rule.
	notHeld := ""
	for _, cd := range []string{"AS", "AH", "AD", "AC"} {
		held := false
		for _, h := range views[ms].View.Hand {
			held = held || h.String() == cd
		}
		if !held {
			notHeld = cd
			break
		}
	}
	m.send(map[string]any{"type": "action", "action": "lead " + notHeld})
	if got := m.waitFor(isError); got.Class != "illegal" || got.Rule == "" {
		t.Errorf("lead %s: %+v", notHeld, got)
	}
	// The legal action goes through and everyone sees it.
	m.send(map[string]any{"type": "action", "action": legal})
	n := views[ms].View.EventCount
	for _, w := range []*wsClient{wa, wb, wc} {
		got := w.waitFor(func(x srvMsg) bool { return isView(x) && x.View.EventCount > n })
		if len(got.View.Events) == 0 || got.View.EventsFrom != n {
			t.Errorf("update after the action: events from %d, %d events", got.View.EventsFrom, len(got.View.Events))
		}
	}
	_ = os
}

// play has each client take its first legal action whenever a new view
// makes it their turn, until stop says so; it returns the last view.
func play(t testing.TB, clients []*wsClient, stop func(srvMsg) bool) {
	var wg sync.WaitGroup
	for _, w := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acted, last := -1, ""
			var retry <-chan time.Time
			for {
				var m srvMsg
				select {
				case x, ok := <-w.ch:
					if !ok {
						t.Error("connection ended during play")
						return
					}
					m = x
				case <-retry:
					// A client told to slow down tries again later.
					retry = nil
					w.send(map[string]any{"type": "action", "action": last})
					continue
				}
				if m.Type == "error" {
					if m.Class != "too_many" {
						t.Errorf("error during play: %+v", m)
						return
					}
					retry = time.After(100 * time.Millisecond)
				}
				if m.Type != "view" || m.View == nil {
					continue
				}
				if stop(m) {
					return
				}
				if len(m.Legal) > 0 && m.View.EventCount > acted {
					acted, last = m.View.EventCount, m.Legal[0]
					w.send(map[string]any{"type": "action", "action": last})
				}
			}
		}()
	}
	wg.Wait()
}

func handOver(m srvMsg) bool { return len(m.View.Results) > 0 }

func TestLongWSFullHand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, Limits{})
	a, b, c := e.client(), e.client(), e.client()
	id := a.create("", "random", "", "random")
	a.join(id, "Ann")
	b.join(id, "Bob")
	wa, wb, wc := a.dial(id, -1), b.dial(id, -1), c.dial(id, -1)
	play(t, []*wsClient{wa, wb}, handOver)
	got := wc.waitFor(func(m srvMsg) bool { return isView(m) && m.View != nil && handOver(m) })
	if len(got.View.Results[0].Scores) != 4 {
		t.Errorf("scores %v", got.View.Results[0].Scores)
	}
}

// TestWSJunkAndFlood: junk, a flood and a huge frame from one client get
// errors or end that client's connection only; the players go on (one
// move here, the whole hand in TestLongWSJunkAndFlood).
func TestWSJunkAndFlood(t *testing.T) { junkAndFlood(t, false) }

func TestLongWSJunkAndFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	junkAndFlood(t, true)
}

func junkAndFlood(t *testing.T, wholeHand bool) {
	e := newEnv(t, Limits{Burst: 15, MaxRefused: 50})
	a, b, j := e.client(), e.client(), e.client()
	id := a.create("", "")
	a.join(id, "Ann")
	b.join(id, "Bob")
	wa, wb := a.dial(id, -1), b.dial(id, -1)
	wa.started()
	wb.started()
	junk := j.dial(id, -1)
	junk.started()
	for _, raw := range []string{`{`, `[]`, `{"type":"dance"}`, `{"type":"action","action":"fly 7H"}`,
		`{"type":"action","action":"pass","extra":1}`, `{"type":"chat","text":""}`, `"hello"`,
		`{"type":"hello","since":-7}`, `{"type":"action","action":"pass","seat":44}`, "\xff\xfe"} {
		junk.sendRaw([]byte(raw))
		if got := junk.waitFor(isError); got.Class != "bad_request" {
			t.Errorf("%q: %+v", raw, got)
		}
	}
	// A flood: refused with errors past the burst, then disconnected.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 200 {
			if junk.c.Write(t.Context(), 1, []byte(`{"type":"action","action":"pass"}`)) != nil {
				return
			}
		}
	}()
	if !junk.ended() {
		t.Error("a flooding client stays connected")
	}
	wg.Wait()
	// A huge frame ends that connection only.
	big := j.dial(id, -1)
	big.started()
	big.c.Write(t.Context(), 1, []byte(`{"type":"chat","text":"`+strings.Repeat("x", 10000)+`"}`))
	if !big.ended() {
		t.Error("a huge frame did not end the connection")
	}
	// Meanwhile the players play on: the first hand ends, or (short) the
	// player to move moves and both players see it.
	if wholeHand {
		play(t, []*wsClient{wa, wb}, handOver)
		return
	}
	for _, w := range []*wsClient{wa, wb} {
		cur := w.last
		if cur.View == nil || cur.View.ToMove != cur.Seat || len(cur.Legal) == 0 {
			continue
		}
		n := cur.View.EventCount
		w.send(map[string]any{"type": "action", "action": cur.Legal[0]})
		for _, o := range []*wsClient{wa, wb} {
			o.waitFor(func(m srvMsg) bool { return isView(m) && m.View.EventCount > n })
		}
		return
	}
	t.Fatal("neither player was to move")
}

// TestWSTellsLimits: the first view after a hello tells what the
// connection may send; the views after it do not, and a new hello is told
// again.
func TestWSTellsLimits(t *testing.T) {
	e := newEnv(t, Limits{Burst: 7, Every: 150 * time.Millisecond})
	a, b := e.client(), e.client()
	id := a.create("", "")
	sa := a.join(id, "Ann")
	b.join(id, "Bob")
	wa, wb := a.dial(id, -1), b.dial(id, -1)
	want := sendLimits{Burst: 7, EveryMs: 150}
	first := wa.started()
	if first.Limits == nil || *first.Limits != want {
		t.Fatalf("first view's limits %+v, want %+v", first.Limits, want)
	}
	mover, cur := wa, first
	if vb := wb.started(); vb.View.ToMove != sa {
		mover, cur = wb, vb
	}
	n := cur.View.EventCount
	mover.send(map[string]any{"type": "action", "action": cur.Legal[0]})
	next := wa.waitFor(func(m srvMsg) bool { return isView(m) && m.View.EventCount > n })
	if next.Limits != nil {
		t.Fatalf("a later view tells the limits again: %+v", next.Limits)
	}
	wa.send(map[string]any{"type": "hello", "since": -1})
	if again := wa.waitFor(isView); again.Limits == nil || *again.Limits != want {
		t.Fatalf("after a new hello: limits %+v, want %+v", again.Limits, want)
	}
}

func TestWSReconnectSince(t *testing.T) {
	e := newEnv(t, Limits{})
	a, b := e.client(), e.client()
	id := a.create("", "")
	sa, sb := a.join(id, "Ann"), b.join(id, "Bob")
	wa, wb := a.dial(id, -1), b.dial(id, -1)
	va := wa.started()
	vb := wb.started()
	// Play until it is Bob's turn (at most a few moves).
	views := map[int]srvMsg{sa: va, sb: vb}
	for views[sb].View.ToMove != sb {
		cur := views[sa]
		n := cur.View.EventCount
		wa.send(map[string]any{"type": "action", "action": cur.Legal[0]})
		views[sa] = wa.waitFor(func(m srvMsg) bool { return isView(m) && m.View.EventCount > n })
		views[sb] = wb.waitFor(func(m srvMsg) bool { return isView(m) && m.View.EventCount > n })
	}
	// Ann drops; Bob moves; Ann comes back with what she has.
	had := views[sa].View.EventCount
	wa.c.CloseNow()
	wb.send(map[string]any{"type": "action", "action": views[sb].Legal[0]})
	after := wb.waitFor(func(m srvMsg) bool { return isView(m) && m.View.EventCount > had })
	wa2 := a.dial(id, had)
	got := wa2.started()
	if got.Seat != sa || got.View.EventsFrom != had || got.View.EventCount < after.View.EventCount ||
		len(got.View.Events) != got.View.EventCount-had {
		t.Errorf("back with since %d: seat %d, events from %d, %d of %d", had, got.Seat,
			got.View.EventsFrom, len(got.View.Events), got.View.EventCount)
	}
	if got.View.Events[0].Seat != sb {
		t.Errorf("the missed event is %+v, want Bob's move", got.View.Events[0])
	}
	// A full view for a client that has nothing.
	wa3 := a.dial(id, -1)
	if full := wa3.started(); full.View.EventsFrom != 0 || len(full.View.Events) != full.View.EventCount {
		t.Errorf("full view: from %d, %d of %d", full.View.EventsFrom, len(full.View.Events), full.View.EventCount)
	}
}

func TestWSChat(t *testing.T) {
	e := newEnv(t, Limits{})
	a, c := e.client(), e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	wa, wc := a.dial(id, -1), c.dial(id, -1)
	wc.send(map[string]any{"type": "hello", "since": -1, "name": "Watcher"})
	wa.send(map[string]any{"type": "chat", "text": "hello all"})
	wc.send(map[string]any{"type": "chat", "text": "hi"})
	for _, w := range []*wsClient{wa, wc} {
		seen := map[string]string{}
		for len(seen) < 2 {
			m := w.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Chat) > 0 })
			for _, l := range m.Chat {
				seen[l.Text] = l.Name
			}
		}
		if seen["hello all"] != "Ann" || seen["hi"] != "Watcher" {
			t.Errorf("chat seen %v", seen)
		}
	}
}

// TestWSChatNamelessSpectators: two spectators who gave no name chat;
// everyone sees their lines as "Spectator 1" and "Spectator 2", watching
// (seat -1). Both read "Spectator", and the players could not tell one
// from the other.
func TestWSChatNamelessSpectators(t *testing.T) {
	e := newEnv(t, Limits{})
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	wa := a.dial(id, -1)
	w1, w2 := e.client().dial(id, -1), e.client().dial(id, -1)
	// The order they first chat in is their numbers' order: a third
	// spectator waits for each line before the next is sent.
	order := e.client().dial(id, -1)
	w1.send(map[string]any{"type": "chat", "text": "first"})
	order.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Chat) > 0 && m.Chat[len(m.Chat)-1].Text == "first" })
	w2.send(map[string]any{"type": "chat", "text": "second"})
	order.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Chat) > 0 && m.Chat[len(m.Chat)-1].Text == "second" })
	w1.send(map[string]any{"type": "chat", "text": "third"})
	want := map[string]string{"first": "Spectator 1", "second": "Spectator 2", "third": "Spectator 1"}
	for who, w := range map[string]*wsClient{"Ann": wa, "the first spectator": w1, "the second spectator": w2} {
		seen := map[string]string{}
		for len(seen) < len(want) {
			m := w.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Chat) > 0 })
			for _, l := range m.Chat {
				if l.Seat != -1 {
					t.Errorf("%s sees a spectator's line at seat %d: %+v", who, l.Seat, l)
				}
				seen[l.Text] = l.Name
			}
		}
		if !maps.Equal(seen, want) {
			t.Errorf("%s sees the chat as %v, want %v", who, seen, want)
		}
	}
}

// TestWSStopRestarting: when the server stops, every watching page gets
// a close frame saying "restarting" (1012, which the page shows before it
// reconnects), never a dropped connection with no reason.
func TestWSStopRestarting(t *testing.T) {
	// These pages answer the close, so the handlers end at the answer;
	// a long CloseWait keeps a machine too loaded to write sixteen close
	// frames within the default second from cutting one first (the cut
	// is TestWSStopSilentPage's).
	e := newEnv(t, Limits{CloseWait: 10 * time.Second})
	var watching []*wsClient
	for range 4 {
		a := e.client()
		id := a.create("", "medium")
		a.join(id, "Ann")
		for range 4 {
			w := e.client().dial(id, -1)
			w.started()
			watching = append(watching, w)
		}
	}
	e.site.Drain()
	for i, w := range watching {
		if !w.ended() {
			t.Fatalf("connection %d still open after the stop", i)
		}
		var ce websocket.CloseError
		if !errors.As(w.err, &ce) || ce.Code != websocket.StatusServiceRestart || ce.Reason != web.RestartReason {
			t.Errorf("connection %d ended with %v, want %d %q", i, w.err, websocket.StatusServiceRestart, web.RestartReason)
		}
	}
}

// TestWSStopSilentPage: a page that no longer reads (a phone gone off the
// network) does not hold a stopping server for the WebSocket library's
// 5 s wait for its answer to the close: it is cut after CloseWait.
func TestWSStopSilentPage(t *testing.T) {
	e := newEnv(t, Limits{CloseWait: 50 * time.Millisecond})
	a := e.client()
	id := a.create("", "medium")
	a.join(id, "Ann")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/api/arlington/tables/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	if err := conn.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","since":-1}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := conn.Read(ctx); err != nil { // the first view: it is watching
		t.Fatal(err)
	}
	// From here on the page reads nothing, so it never answers the close.
	start := time.Now()
	e.site.Drain()
	if err := e.site.Wait(ctx); err != nil {
		t.Fatalf("the handler still runs %v after the stop", time.Since(start))
	}
	// Half the library's 5 s: a silent page no longer waits it out.
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Errorf("the stop waited %v for a page that does not answer", took)
	}
}

// TestWSChatRef: the sender's answer to a chat message names it by its
// ref: an "ack" when the table took the line, an "error" with the ref
// when it was refused, whether by the message's reader (a line too long),
// the table or the rate limit; a message without a ref gets no ack.
// TestWSChatRefConnLimit: a chat line refused by the connection's own
// rate limit (before the table sees it) still carries its ref back, so
// the page says the refusal by the chat field.
func TestWSChatRefConnLimit(t *testing.T) {
	e := newEnv(t, Limits{Burst: 2, Every: time.Hour}) // two messages, the hello among them
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	w := a.dial(id, -1)
	for i := 1; ; i++ {
		ref := fmt.Sprint(i)
		w.send(map[string]any{"type": "chat", "text": "hi", "ref": ref})
		m := w.waitFor(func(m srvMsg) bool { return m.Type == "ack" || m.Type == "error" })
		if m.Type == "ack" {
			if i >= table.ChatBurst {
				t.Fatal("no connection rate limit before the table's")
			}
			continue
		}
		if m.Class != "too_many" || m.Ref != ref {
			t.Errorf("line %s refused %+v, want the rate limit with ref %s", ref, m, ref)
		}
		break
	}
}

func TestWSChatRef(t *testing.T) {
	e := newEnv(t, Limits{})
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	w := a.dial(id, -1)
	answer := func() srvMsg {
		t.Helper()
		return w.waitFor(func(m srvMsg) bool { return m.Type == "ack" || m.Type == "error" })
	}
	w.send(map[string]any{"type": "chat", "text": "hi", "ref": "1"})
	if m := answer(); m.Type != "ack" || m.Ref != "1" {
		t.Errorf("a line taken is answered %+v, want an ack with ref 1", m)
	}
	w.send(map[string]any{"type": "chat", "text": strings.Repeat("x", table.MaxChatRunes+1), "ref": "2"})
	if m := answer(); m.Type != "error" || m.Class != "bad_request" || m.Ref != "2" {
		t.Errorf("a line too long is answered %+v, want a bad request with ref 2", m)
	}
	w.send(map[string]any{"type": "chat", "text": "\u200b", "ref": "3"}) // empty once cleaned: the table refuses it
	if m := answer(); m.Type != "error" || m.Ref != "3" {
		t.Errorf("a line the table refuses is answered %+v, want an error with ref 3", m)
	}
	for i := 4; ; i++ {
		ref := fmt.Sprint(i)
		w.send(map[string]any{"type": "chat", "text": "again", "ref": ref})
		m := answer()
		if m.Ref != ref {
			t.Fatalf("line %s answered %+v, want its ref", ref, m)
		}
		if m.Type == "error" {
			if m.Class != "too_many" {
				t.Errorf("line %s refused %+v, want the rate limit", ref, m)
			}
			break
		}
		if i > 20 {
			t.Fatal("no rate limit")
		}
	}
	w.send(map[string]any{"type": "chat", "text": "no ref"})
	w.send(map[string]any{"type": "ping"})
	if m := w.waitFor(func(m srvMsg) bool { return m.Type == "ack" || m.Type == "error" || m.Type == "pong" }); m.Type == "ack" {
		t.Errorf("a line without a ref was acked: %+v", m)
	}
}
