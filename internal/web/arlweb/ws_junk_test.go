package arlweb

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardtable/arlington"
	"cardtable/internal/table"
)

// TestWSJunkWhileOthersPlay: a seated player sends junk between the moves
// of a game she plays with another person and a bot, watched by a
// spectator: bad JSON, an unknown type, an unknown action, a binary frame,
// an action out of turn, actions for the other person's seat and for the
// bot's, an overlong chat line, then a flood short of the disconnection
// limit. Each gets an error of its class for her alone; her connection goes
// on (she receives every update and her own moves go through); the others
// receive no error and the game holds only the moves really played.
// (A flood past the limit and a huge frame end the connection:
// TestWSJunkAndFlood.)
func TestWSJunkWhileOthersPlay(t *testing.T) {
	// 100 messages at once, then 10 a second: Ann's junk and moves (she
	// may lead many times in a row, as fast as the table answers) stay
	// within it; her flood of 140 in a burst does not, and stays short
	// of the 100 refusals in a row that end a connection.
	e := newEnv(t, Limits{Burst: 100, Every: 100 * time.Millisecond, MaxRefused: 100})
	a, b, s := e.client(), e.client(), e.client()
	var got created
	cfg := table.Config{Players: 3, Bots: []string{"", "", "random"}, TurnSeconds: -1}
	if code := a.do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	id := got.ID
	sa, sb := a.join(id, "Ann"), b.join(id, "Bob")
	bot := 3 - sa - sb
	wa, wb, ws := a.dial(id, -1), b.dial(id, -1), s.dial(id, -1)
	wa.started()
	wb.started()
	ws.started()
	// viewAt reads w's messages up to its view at event count n or later;
	// an error on the way fails the test (Ann's junk is answered where
	// it is sent, below).
	viewAt := func(w *wsClient, who string, n int) srvMsg {
		t.Helper()
		if w.last.View != nil && w.last.View.EventCount >= n {
			return w.last
		}
		for {
			m := w.next()
			if isError(m) {
				t.Errorf("%s got an error: %+v", who, m)
			}
			if isView(m) && m.View != nil && m.View.EventCount >= n {
				return m
			}
		}
	}
	// settled is the spectator's view once a person is to move (the bot
	// plays by itself; a person's turn waits, there is no turn timer).
	settled := func(n int) srvMsg {
		t.Helper()
		for {
			m := viewAt(ws, "the spectator", n)
			if m.View.ToMove != bot {
				return m
			}
			n = m.View.EventCount + 1
		}
	}
	const act = `{"type":"action","action":"pass","seat":%d}` // for the seat %d
	junk := []struct {
		name, raw string
		binary    bool
		class     string
	}{
		{"bad JSON", `{"type":`, false, "bad_request"},
		{"unknown type", `{"type":"dance"}`, false, "bad_request"},
		{"unknown action", `{"type":"action","action":"fly 7H"}`, false, "bad_request"},
		{"binary frame", `{"type":"hello"}`, true, "bad_request"},
		{"out of turn", `{"type":"action","action":"pass"}`, false, "conflict"},
		{"for the other person's seat", fmt.Sprintf(act, sb), false, "forbidden"},
		{"for the bot's seat", fmt.Sprintf(act, bot), false, "forbidden"},
		{"overlong chat", `{"type":"chat","text":"` + strings.Repeat("x", table.MaxChatRunes+1) + `"}`, false, "bad_request"},
	}
	sendJunk := func(raw string, binary bool) {
		t.Helper()
		typ := websocket.MessageText
		if binary {
			typ = websocket.MessageBinary
		}
		ctx, cancel := context.WithTimeout(context.Background(), browserWait)
		defer cancel()
		if err := wa.c.Write(ctx, typ, []byte(raw)); err != nil {
			t.Fatalf("Ann's connection: %v", err)
		}
	}
	played := map[int]int{}
	annAfter := 0 // Ann's moves after all her junk
	cur := settled(0)
	for i := 0; i < len(junk) || annAfter == 0; {
		n := cur.View.EventCount
		if cur.View.ToMove < 0 {
			t.Fatal("the game ended first")
		}
		w, who := wa, "Ann"
		if cur.View.ToMove == sb {
			w, who = wb, "Bob"
			if i < len(junk) { // Ann, not to move, sends junk
				j := junk[i]
				i++
				sendJunk(j.raw, j.binary)
				if m := wa.waitFor(isError); m.Class != j.class {
					t.Errorf("%s: %+v, want class %s", j.name, m, j.class)
				}
			}
		}
		v := viewAt(w, who, n)
		if len(v.Legal) == 0 || v.View.EventCount != n {
			t.Fatalf("%s to move at %d: view at %d, legal %v", who, n, v.View.EventCount, v.Legal)
		}
		w.send(map[string]any{"type": "action", "action": v.Legal[0]})
		played[v.Seat]++
		if who == "Ann" && i == len(junk) {
			annAfter++
		}
		cur = settled(n + 1)
	}
	// A flood short of the limit, on Bob's turn: refused, then too_many,
	// and the connection goes on: Ann sees Bob's move.
	for cur.View.ToMove != sb {
		w, who := wa, "Ann"
		v := viewAt(w, who, cur.View.EventCount)
		w.send(map[string]any{"type": "action", "action": v.Legal[0]})
		played[v.Seat]++
		cur = settled(cur.View.EventCount + 1)
	}
	const flood = 140
	for range flood {
		sendJunk(fmt.Sprintf(act, sb), false)
	}
	tooMany := 0
	for range flood {
		m := wa.waitFor(isError)
		switch m.Class {
		case "too_many":
			tooMany++
		case "forbidden":
		default:
			t.Errorf("flood: %+v", m)
		}
	}
	if tooMany == 0 {
		t.Errorf("a flood of %d messages was never told to slow down", flood)
	}
	n := cur.View.EventCount
	v := viewAt(wb, "Bob", n)
	wb.send(map[string]any{"type": "action", "action": v.Legal[0]})
	played[sb]++
	if m := wa.waitFor(func(m srvMsg) bool { return isView(m) && m.View.EventCount > n }); m.Seat != sa {
		t.Errorf("Ann after the flood: seat %d", m.Seat)
	}
	// The game holds exactly the moves played, none of the junk: a
	// newcomer's full view has their moves and no others.
	stored := map[int]int{}
	full := e.client().dial(id, -1).started()
	for _, ev := range full.View.Events {
		if ev.Kind == arlington.EventMove {
			stored[ev.Seat]++
		}
	}
	if stored[sa] != played[sa] || stored[sb] != played[sb] {
		t.Errorf("moves at the table: Ann %d, Bob %d; played: Ann %d, Bob %d", stored[sa], stored[sb], played[sa], played[sb])
	}
}
