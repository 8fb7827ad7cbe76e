package arlclient

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestFollowerOpenBounded: a server that takes the WebSocket's
// connection and never answers it is given up after OpenTimeout (10 s
// unless set, as the table page's), told in words, and tried again. The
// opening waited as long as an HTTP call, 30 s, saying nothing
// meanwhile. Never having connected, the client says it could not
// connect, not that a connection was lost.
func TestFollowerOpenBounded(t *testing.T) {
	if got := (FollowOptions{}).withDefaults().OpenTimeout; got != 10*time.Second {
		t.Errorf("the default bound on an opening is %v, want 10s", got)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// The silent server: it accepts, holds each connection open and
	// never writes. Its goroutine exits when the listener closes.
	accepted := make(chan struct{}, 64)
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
			select {
			case accepted <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	c, err := New("http://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	notes := make(chan string, 64)
	const bound = 300 * time.Millisecond
	s := c.Open(context.Background(), "T1", FollowOptions{OpenTimeout: bound, Backoff: time.Millisecond,
		Notef: func(format string, args ...any) {
			select {
			case notes <- fmt.Sprintf(format, args...):
			default:
			}
		}})
	defer s.Close()
	// Each step's own bound, well past OpenTimeout and well short of an
	// HTTP call's 30 s.
	within := func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s within 10 s", what)
		}
	}
	within("first connection", accepted)
	select {
	case n := <-notes:
		if want := "could not connect to the table (no answer from the server within " + bound.String() + ")"; !strings.Contains(n, want) {
			t.Errorf("the note of a silent server at the first opening is %q, want it to say %q: no connection was lost", n, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("an opening the server never answered was not given up within 10 s")
	}
	within("second connection after the silent one was given up", accepted)
}
