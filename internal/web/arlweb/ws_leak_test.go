package arlweb

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/table"
	"cardtable/internal/table/leakscan"
)

// The WebSocket leak scan: whole games with bots, some seats held by
// scripted clients over real WebSockets and two spectators; every message
// each of them received is scanned (package leakscan) for cards it must
// not know at that moment, worked out from the game's record alone.

// heard is every message one receiver got, as sent.
type heard struct {
	seat int // -1: a spectator
	raw  [][]byte
}

// wsMsg is what a scripted client reads of a message to play and to know
// where it is.
type wsMsg struct {
	table.Update
	Type  string   `json:"type"`
	Class string   `json:"class"`
	Legal []string `json:"legal"`
}

// listen connects c to table id and reads until the game is over, acting
// (a random legal action) whenever it is seat's turn if seat >= 0. A
// connection the server ends early (a slow reader) is opened again with
// the event count it has, as the page does.
func (c *client) listen(tb testing.TB, id string, seat int, rng *arlington.Rand, h *heard) {
	u := "ws" + strings.TrimPrefix(c.e.srv.URL, "http") + "/api/arlington/tables/" + id + "/ws"
	have, acted := -1, -1
	for range 5 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: c.hc})
		if err != nil {
			cancel()
			tb.Errorf("seat %d: dial: %v", seat, err)
			return
		}
		conn.SetReadLimit(1 << 20)
		send := func(v any) error {
			b, _ := json.Marshal(v)
			return conn.Write(ctx, websocket.MessageText, b)
		}
		done := func() bool {
			defer cancel()
			defer conn.CloseNow()
			if send(map[string]any{"type": "hello", "since": have}) != nil {
				return false
			}
			for {
				_, b, err := conn.Read(ctx)
				if err != nil {
					return false
				}
				h.raw = append(h.raw, b)
				var m wsMsg
				if err := json.Unmarshal(b, &m); err != nil {
					tb.Errorf("seat %d: message %s: %v", seat, b, err)
					return true
				}
				if m.Type == "error" {
					tb.Errorf("seat %d: error during play: %s", seat, b)
					return true
				}
				if m.View == nil {
					continue
				}
				have = m.View.EventCount
				if m.View.Phase == arlington.PhaseOver {
					return true
				}
				if seat >= 0 && m.View.ToMove == seat && len(m.Legal) > 0 && have != acted {
					acted = have
					if send(map[string]any{"type": "action", "action": m.Legal[rng.Intn(len(m.Legal))]}) != nil {
						return false
					}
				}
			}
		}()
		if done {
			return
		}
	}
	tb.Errorf("seat %d: the connection kept ending before the game did", seat)
}

// wsLeakGame plays one game: people (scripted clients) in the even seats,
// random bots in the odd ones, and two spectators. It returns what each
// receiver heard and the game's record, downloaded once it is over.
func wsLeakGame(tb testing.TB, e *env, players, target int, seed uint64) ([]*heard, string) {
	tb.Helper()
	bots := make([]string, players)
	for i := 1; i < players; i += 2 {
		bots[i] = "random"
	}
	var got created
	if code := e.client().do("POST", "/api/arlington/tables", table.Config{Players: players, Target: target, Bots: bots}, &got); code != http.StatusCreated {
		tb.Fatalf("create: %d", code)
	}
	type receiver struct {
		c    *client
		seat int
	}
	var rs []receiver
	for seat := 0; seat < players; seat += 2 {
		c := e.client()
		if s := c.join(got.ID, fmt.Sprint("P", seat)); s != seat {
			tb.Fatalf("joined seat %d, want %d", s, seat)
		}
		rs = append(rs, receiver{c, seat})
	}
	rs = append(rs, receiver{e.client(), -1}, receiver{e.client(), -1})
	out := make([]*heard, len(rs))
	var wg sync.WaitGroup
	for i, r := range rs {
		out[i] = &heard{seat: r.seat}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.c.listen(tb, got.ID, r.seat, arlington.NewRand(seed*131+uint64(i)), out[i])
		}()
	}
	wg.Wait()
	resp, err := e.client().hc.Get(e.srv.URL + "/api/arlington/tables/" + got.ID + "/record")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	rec, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("record: %d %s", resp.StatusCode, rec)
	}
	return out, string(rec)
}

// scanHeard checks every message h holds; a message without a view (an
// error) is checked, whole, against the receiver's last view's moment.
func scanHeard(know *leakscan.Knowledge, h *heard) (scanned int, err error) {
	var last table.Update
	have := 0
	for i, b := range h.raw {
		var m wsMsg
		if err := json.Unmarshal(b, &m); err != nil {
			return scanned, err
		}
		if m.View != nil {
			if m.View.EventsFrom > have {
				return scanned, fmt.Errorf("message %d: events %d to %d never arrived", i, have, m.View.EventsFrom)
			}
			have = max(have, m.View.EventCount)
			last = m.Update
		}
		if last.View == nil {
			continue // before the start: no card is anyone's yet
		}
		if err := know.Check(h.seat, last, b); err != nil {
			return scanned, fmt.Errorf("message %d (%.200s…): %w", i, b, err)
		}
		scanned++
	}
	if last.View == nil || last.View.Phase != arlington.PhaseOver {
		return scanned, fmt.Errorf("the messages end before the game does")
	}
	return scanned, nil
}

// leakLimits lets the scripted people act as fast as the bots: the
// message rate limit is not what these tests are about.
var leakLimits = Limits{Burst: 1000, Every: time.Millisecond}

// scanGame scans what every receiver of one game heard.
func scanGame(t *testing.T, hs []*heard, know *leakscan.Knowledge, what string) {
	t.Helper()
	for _, h := range hs {
		n, err := scanHeard(know, h)
		if err != nil {
			t.Fatalf("%s, receiver seat %d: %v", what, h.seat, err)
		}
		if n == 0 {
			t.Fatalf("%s: receiver seat %d: nothing scanned", what, h.seat)
		}
	}
}

// TestLongWSLeakScan: twenty whole games to 32, four at each of 2 to 6
// seats. It runs beside the browser tests (t.Parallel): it spends CPU
// where they wait on their pages, and sets nothing they share.
func TestLongWSLeakScan(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	e := newEnv(t, leakLimits)
	for g := range 20 {
		players := 2 + g%5
		hs, rec := wsLeakGame(t, e, players, 0, uint64(g+1))
		know, err := leakscan.Replay(rec)
		if err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		scanGame(t, hs, know, fmt.Sprintf("game %d (%d players)", g, players))
	}
}

// TestWSLeakScan: one short game (target 8, three seats: two people, a
// bot, and two spectators) is scanned; then the scan's control: real
// messages of that game, each with one leak planted as a sender wrapped
// around the server's would add it, must each be caught (and each is
// clean before the plant). The long test scans whole games at every size.
// Like it, it runs beside the browser tests (t.Parallel).
func TestWSLeakScan(t *testing.T) {
	t.Parallel()
	e := newEnv(t, leakLimits)
	hs, rec := wsLeakGame(t, e, 3, 8, 77)
	know, err := leakscan.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	scanGame(t, hs, know, "the game")
	seat0, spectator := hs[0], hs[len(hs)-1]
	if seat0.seat != 0 || spectator.seat != -1 {
		t.Fatal("receivers out of order")
	}
	// pick is a mid-game view message of h and a card hidden from h then
	// (in another seat's hand, never face up in this hand, not dealt to
	// h); with never, one h knew in no hand at all.
	pick := func(h *heard, never bool) (map[string]any, wsMsg, card.Card) {
		t.Helper()
		for _, b := range h.raw {
			var m wsMsg
			if json.Unmarshal(b, &m) != nil || m.View == nil || m.View.EventCount < 10 || m.View.Phase == arlington.PhaseOver {
				continue
			}
			mo := know.At[m.View.EventCount]
			for s, hand := range mo.Hands {
				if s == h.seat {
					continue
				}
				for _, c := range hand.Cards() {
					if c != card.Joker && !mo.Allowed(h.seat, mo.Hand).Has(c) && (!never || !mo.Ever(h.seat).Has(c)) {
						var fields map[string]any
						if err := json.Unmarshal(b, &fields); err != nil {
							t.Fatal(err)
						}
						return fields, m, c
					}
				}
			}
		}
		t.Fatal("no hidden card to plant")
		return nil, wsMsg{}, 0
	}
	view := func(f map[string]any) map[string]any { return f["view"].(map[string]any) }
	cases := []struct {
		name  string
		h     *heard
		never bool
		plant func(f map[string]any, c card.Card)
	}{
		{"a field of its own naming a hidden card", spectator, true, func(f map[string]any, c card.Card) {
			f["debug"] = "next: " + c.String()
		}},
		{"the deck order", seat0, true, func(f map[string]any, c card.Card) {
			f["deck"] = []string{c.String()}
		}},
		{"another seat's card in the hand", seat0, false, func(f map[string]any, c card.Card) {
			v := view(f)
			v["hand"] = append(v["hand"].([]any), c.String())
		}},
		{"the graveyard's contents", spectator, false, func(f map[string]any, c card.Card) {
			v := view(f)
			g, _ := v["graveKnown"].([]any)
			v["graveKnown"] = append(g, c.String())
		}},
		{"the seed while the game is live", spectator, false, func(f map[string]any, _ card.Card) {
			f["seed"] = strconv.FormatUint(know.Seed, 10)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, m, hidden := pick(c.h, c.never)
			clean, _ := json.Marshal(f)
			if err := know.Check(c.h.seat, m.Update, clean); err != nil {
				t.Fatalf("flagged before the plant: %v", err)
			}
			c.plant(f, hidden)
			planted, _ := json.Marshal(f)
			var pm wsMsg
			if err := json.Unmarshal(planted, &pm); err != nil {
				t.Fatal(err)
			}
			if err := know.Check(c.h.seat, pm.Update, planted); err == nil {
				t.Fatalf("planted %v: not caught in %s", hidden, planted)
			}
		})
	}
}
