package arlweb

import (
	"fmt"
	"testing"

	"cardtable/internal/table"
)

// TestWSPerAddress: connections without a cookie, each a fresh identity,
// all from one address: they take at most table.MaxAddrWatch spectator
// places at a table, and share the address's chat allowance (counted
// with the table's clock standing, so none refills between the lines).
func TestWSPerAddress(t *testing.T) {
	e := newStillEnv(t)
	a := e.client()
	id := a.create("", "random")
	a.join(id, "Ann")
	var ws []*wsClient
	for range table.MaxAddrWatch {
		w := e.client().dial(id, -1)
		w.waitFor(isView)
		ws = append(ws, w)
	}
	extra := e.client().dial(id, -1)
	// Every seat is taken (Ann's, the bot's): the refusal offers none.
	if m := extra.waitFor(func(m srvMsg) bool { return isView(m) || isError(m) }); m.Class != "too_many" || m.SeatOpen {
		t.Fatalf("spectator %d from one address: %+v, want too_many without seatOpen", table.MaxAddrWatch+1, m)
	}
	acks, refused := 0, 0
	for i, w := range ws {
		for j := range 2 {
			ref := fmt.Sprintf("r%d-%d", i, j)
			w.send(map[string]any{"type": "chat", "text": "hi", "ref": ref})
			m := w.waitFor(func(m srvMsg) bool { return m.Ref == ref })
			if m.Type == "ack" {
				acks++
			} else if m.Class == "too_many" {
				refused++
			} else {
				t.Fatalf("chat: %+v", m)
			}
		}
	}
	if acks != table.AddrChatBurst || refused != 2*table.MaxAddrWatch-table.AddrChatBurst {
		t.Fatalf("%d lines taken, %d refused; want %d taken", acks, refused, table.AddrChatBurst)
	}
}
