package arlclient

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// waitNoted reads lost-connection (or never-connected) notes until one
// says the wait before the next try, and returns that wait as written
// ("8ms").
func waitNoted(t *testing.T, notes chan string) string {
	t.Helper()
	for {
		n := recv(t, notes)
		for _, sep := range []string{"; reconnecting in ", "; trying again in "} {
			if _, w, ok := strings.Cut(n, sep); ok {
				return w
			}
		}
	}
}

// seated opens the fake table's next connection and has the server speak
// on it, so that it counts as a good one: the follower delivered a view.
func seated(t *testing.T, f *fakeTable, s *Follower) *websocket.Conn {
	t.Helper()
	conn := recv(t, f.conns)
	if err := conn.Write(context.Background(), websocket.MessageText, []byte(view(0, 1))); err != nil {
		t.Fatal(err)
	}
	for m := next(t, s); m.Update == nil; m = next(t, s) {
	}
	return conn
}

// drain empties notes: what the follower said before it was seated, so
// that a later read sees only what came after. The follower notes
// nothing while connected, and its notes before the view came are
// in the channel by the time seated returns (the same goroutine noted,
// then dialled).
func drain(notes chan string) {
	for {
		select {
		case <-notes:
		default:
			return
		}
	}
}

// TestFollowerWaitStartsOverAfterGoodConnection: the wait between tries
// doubles while the server stays out of reach, and a connection on which
// the server spoke starts it over: a later loss is tried again after the
// first wait, not the longest one (a client, a --bot one above all, that
// lost its server once would otherwise wait 8 s at every later blip).
func TestFollowerWaitStartsOverAfterGoodConnection(t *testing.T) {
	notes := make(chan string, 1000)
	notef := func(format string, args ...any) { notes <- fmt.Sprintf(format, args...) }
	f := newFakeTable(t)
	c, err := New(f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	f.answer.Store(http.StatusServiceUnavailable)
	s := c.Open(context.Background(), "T1", FollowOptions{Backoff: time.Millisecond, MaxBackoff: 8 * time.Millisecond, Notef: notef})
	defer s.Close()
	for _, want := range []string{"1ms", "2ms", "4ms", "8ms", "8ms"} {
		if got := waitNoted(t, notes); got != want {
			t.Fatalf("while refused: wait %s, want %s", got, want)
		}
	}
	f.answer.Store(0)
	conn := seated(t, f, s)
	// A refused try after the last note read and before the server
	// answered again left its note ("8ms"): it is not the one after the
	// good connection.
	drain(notes)
	// The loss again: the first wait, then doubling again.
	f.answer.Store(http.StatusServiceUnavailable)
	conn.CloseNow()
	for _, want := range []string{"1ms", "2ms", "4ms"} {
		if got := waitNoted(t, notes); got != want {
			t.Fatalf("after a good connection: wait %s, want %s", got, want)
		}
	}
}

// TestFollowerGiveUpStartsOverAfterGoodConnection: the time without the
// server that makes the follower give up counts from the last loss, not
// from an earlier one it came back from: a connection that lasted longer
// than GiveUp, then dropped, is tried again rather than given up at once.
func TestFollowerGiveUpStartsOverAfterGoodConnection(t *testing.T) {
	notes := make(chan string, 1000)
	notef := func(format string, args ...any) { notes <- fmt.Sprintf(format, args...) }
	f := newFakeTable(t)
	c, err := New(f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	const giveUp = 100 * time.Millisecond
	s := c.Open(context.Background(), "T1", FollowOptions{Backoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond, GiveUp: giveUp, Notef: notef})
	defer s.Close()
	// The first loss: a connection dropped before the server spoke, so
	// not a good one. The next try is answered whenever it comes, so the
	// follower cannot give up before it, however slow the machine.
	first := recv(t, f.conns)
	if m := next(t, s); m.Type != TypeConnected {
		t.Fatalf("first message %+v, want the connected one", m)
	}
	first.CloseNow()
	waitNoted(t, notes)
	conn := seated(t, f, s)
	// The first loss is before now: the connection lasts until GiveUp
	// has passed since then.
	<-time.After(giveUp + 10*time.Millisecond)
	conn.CloseNow()
	// Lost again: tried again, and back.
	waitNoted(t, notes)
	seated(t, f, s)
}
