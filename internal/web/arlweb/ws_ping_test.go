package arlweb

import (
	"testing"
)

// TestWSPingKeepsPresence: a ping (the page's check that its connection
// lives, on waking) is answered by a pong and changes nothing at the
// table: the other players never see the person leave and come back (a
// hello there ended and reopened the subscription: two updates to
// everyone, and the turn timer armed again at its full time), and the
// pinging client is sent no new view. The table is never asked anything,
// so its turn timer is left as it was.
func TestWSPingKeepsPresence(t *testing.T) {
	e := newEnv(t, Limits{})
	ann, bob := e.client(), e.client()
	id := ann.create("", "", "random")
	ann.join(id, "Ann")
	bobSeat := bob.join(id, "Bob")
	wa := ann.dial(id, -1)
	wb := bob.dial(id, -1)
	wb.started()
	wa.waitFor(func(m srvMsg) bool { return isView(m) && len(m.Seats) == 3 && m.Seats[bobSeat].Present })
	for range 3 {
		wb.send(map[string]any{"type": "ping"})
		if m := wb.waitFor(func(m srvMsg) bool { return !isView(m) || m.Limits != nil }); m.Type != "pong" {
			t.Fatalf("a ping was answered by %+v, want a pong (and no new subscription's view)", m)
		}
	}
	// A chat line after the pings: every view Ann is sent before it
	// shows Bob present.
	wb.send(map[string]any{"type": "chat", "text": "still here"})
	for {
		m := wa.next()
		if !isView(m) {
			continue
		}
		if len(m.Seats) > bobSeat && !m.Seats[bobSeat].Present {
			t.Errorf("Ann saw Bob absent after his pings: %+v", m.Seats[bobSeat])
		}
		if len(m.Chat) > 0 {
			break
		}
	}
	// Bob's own connection was not resubscribed: its next view carries
	// no limits (only a subscription's first view does).
	if m := wb.waitFor(isView); m.Limits != nil {
		t.Errorf("Bob's connection was subscribed anew (a view with limits) after his pings")
	}
}

// TestDecodePing: a ping takes no fields.
func TestDecodePing(t *testing.T) {
	if m, err := Decode([]byte(`{"type":"ping"}`)); err != nil || m.Type != msgPing {
		t.Errorf("ping: %+v, %v", m, err)
	}
	if _, err := Decode([]byte(`{"type":"ping","since":3}`)); err == nil {
		t.Error("a ping with since was taken")
	}
}
