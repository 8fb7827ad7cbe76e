package arlweb

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardtable/arlington"
	"cardtable/internal/table"
)

// pageMsg is a view message with the words the page shows.
type pageMsg struct {
	srvMsg
	LegalWords  []string `json:"legalWords"`
	LegalPoints [][]int  `json:"legalPoints"`
	Log         []string `json:"log"`
	Names       []string `json:"names"`
}

// pageConn is a WebSocket client that keeps the words of view messages.
type pageConn struct {
	tb testing.TB
	c  *websocket.Conn
}

func (c *client) pageDial(id string, since int) *pageConn {
	c.e.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(c.e.srv.URL, "http") + "/api/arlington/tables/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: c.hc})
	if err != nil {
		c.e.tb.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(1 << 20)
	c.e.tb.Cleanup(func() { conn.CloseNow() })
	p := &pageConn{tb: c.e.tb, c: conn}
	p.send(map[string]any{"type": "hello", "since": since})
	return p
}

func (p *pageConn) send(v any) {
	p.tb.Helper()
	b, _ := json.Marshal(v)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.c.Write(ctx, websocket.MessageText, b); err != nil {
		p.tb.Fatalf("write: %v", err)
	}
}

// view reads messages until a view with the game in it comes.
func (p *pageConn) view() pageMsg {
	p.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for {
		_, b, err := p.c.Read(ctx)
		if err != nil {
			p.tb.Fatalf("read: %v", err)
		}
		var m pageMsg
		if err := json.Unmarshal(b, &m); err != nil {
			p.tb.Fatalf("bad message %s: %v", b, err)
		}
		if m.Type == "view" && m.View != nil {
			return m
		}
	}
}

// TestWSLogInWords: every view message carries each of its events in
// words and each legal action as its button names it, with its points
// (checkLegalPoints); a client back with
// since gets the words of the events it missed exactly as a client that
// saw them all got them (the server's narrator follows the whole log
// whatever the client had).
func TestWSLogInWords(t *testing.T) {
	e := newEnv(t, Limits{})
	a, b := e.client(), e.client()
	id := a.create("", "")
	a.join(id, "Ann")
	b.join(id, "Bob")
	wa, wb := a.pageDial(id, -1), b.pageDial(id, -1)
	words := map[int]string{} // event number -> words, as Bob's connection told them
	keep := func(m pageMsg) {
		t.Helper()
		if len(m.Log) != len(m.View.Events) || len(m.LegalWords) != len(m.Legal) {
			t.Fatalf("%d events with %d words, %d legal actions with %d words", len(m.View.Events), len(m.Log), len(m.Legal), len(m.LegalWords))
		}
		for i, ev := range m.View.Events {
			words[ev.N] = m.Log[i]
		}
	}
	va, vb := wa.view(), wb.view()
	keep(vb)
	if !slices.Equal(vb.Names, []string{"Ann", "Bob"}) || !strings.HasPrefix(vb.Log[0], "Hand 1: ") {
		t.Fatalf("names %q, log %q", vb.Names, vb.Log)
	}
	// Play eight actions, each by whoever is to move.
	for range 8 {
		cur := va
		w := wa
		if vb.View.ToMove == vb.Seat {
			cur, w = vb, wb
		}
		if cur.View.ToMove < 0 {
			break
		}
		for i, l := range cur.LegalWords {
			if strings.ContainsAny(l, "/") || l == cur.Legal[i] {
				t.Errorf("legal %q is named %q: notation, not words", cur.Legal[i], l)
			}
		}
		checkLegalPoints(t, cur)
		n := cur.View.EventCount
		w.send(map[string]any{"type": "action", "action": cur.Legal[0]})
		for va.View.EventCount <= n {
			va = wa.view()
		}
		for vb.View.EventCount <= n {
			vb = wb.view()
			keep(vb)
		}
	}
	for n := range vb.View.EventCount {
		if words[n] == "" {
			t.Fatalf("event %d was never told to Bob", n)
		}
	}
	// Ann comes back having 3 events: she gets the rest, told as Bob was.
	wa.c.CloseNow()
	back := a.pageDial(id, 3)
	m := back.view()
	if m.View.EventsFrom != 3 || len(m.Log) != len(m.View.Events) || len(m.Log) == 0 {
		t.Fatalf("back with since 3: events from %d, %d events, %d words", m.View.EventsFrom, len(m.View.Events), len(m.Log))
	}
	for i, ev := range m.View.Events {
		if words[ev.N] != "" && m.Log[i] != words[ev.N] {
			t.Errorf("event %d: back %q, Bob saw %q", ev.N, m.Log[i], words[ev.N])
		}
	}
}

// TestPreviewWhyAndSpectra: the preview says why a group is not a set,
// naming the rule, and for a set every spectrum it fits with its points
// there, so the player can choose.
func TestPreviewWhyAndSpectra(t *testing.T) {
	e := newEnv(t, Limits{})
	a := e.client()
	var got previewAnswer
	if code := a.do("POST", "/api/arlington/preview", `{"cards":["5C","8C"]}`, &got); code != http.StatusOK {
		t.Fatalf("preview: %d", code)
	}
	if got.Legal || !strings.Contains(got.Why, `rule "Runs"`) {
		t.Errorf("5C 8C: %+v, want not legal with the Runs rule named", got)
	}
	got = previewAnswer{}
	a.do("POST", "/api/arlington/preview", `{"cards":["KH","QH"]}`, &got)
	var sp []string
	for _, x := range got.As {
		sp = append(sp, x.Words)
	}
	if !got.Legal || got.Why != "" || !slices.Equal(sp, []string{"a couple", "a run"}) || got.As[0].Points != 8 || got.As[1].Points != 2 {
		t.Errorf("KH QH: %+v, want a couple (8 points) or a run (2 points)", got)
	}
}

// TestReplay: before the game is over the replay is refused; after, its
// pages hold every step from the deal, all hands shown, the words of
// every public event once, and the final totals and winners.
func TestReplay(t *testing.T) {
	e := newEnv(t, Limits{Burst: 10000}) // the test plays faster than a person
	a := e.client()
	var tb created
	if code := a.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1}, &tb); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	a.join(tb.ID, "Ann")
	if code := a.do("GET", "/api/arlington/tables/"+tb.ID+"/replay", nil, nil); code != http.StatusConflict {
		t.Errorf("replay before the end: %d, want 409", code)
	}
	w := a.dial(tb.ID, -1)
	m := w.started()
	for m.View.ToMove >= 0 {
		if m.View.ToMove == m.Seat && len(m.Legal) > 0 {
			w.send(map[string]any{"type": "action", "action": m.Legal[0]})
		}
		n := m.View.EventCount
		m = w.waitFor(func(x srvMsg) bool { return isView(x) && x.View.EventCount > n })
	}
	var steps []replayStep
	var last replayAnswer
	for from := 0; ; {
		var ans replayAnswer
		if code := a.do("GET", "/api/arlington/tables/"+tb.ID+"/replay?from="+strconv.Itoa(from), nil, &ans); code != http.StatusOK {
			t.Fatalf("replay from %d: %d", from, code)
		}
		if ans.From != from || len(ans.Page) > ReplayPage {
			t.Fatalf("page from %d: from %d, %d steps", from, ans.From, len(ans.Page))
		}
		steps = append(steps, ans.Page...)
		last = ans
		from += len(ans.Page)
		if from >= ans.Steps || len(ans.Page) == 0 {
			break
		}
	}
	if len(steps) != last.Steps {
		t.Fatalf("%d steps fetched, the game has %d", len(steps), last.Steps)
	}
	first := steps[0]
	if first.Seat != -1 || len(first.Hands) != 2 || len(first.Hands[0]) != arlington.HandSize || len(first.Hands[1]) != arlington.HandSize ||
		len(first.Words) != 1 || !strings.HasPrefix(first.Words[0], "Hand 1: ") {
		t.Errorf("first step: %+v", first)
	}
	told := 0
	for i, s := range steps {
		if s.N != i {
			t.Fatalf("step %d numbered %d", i, s.N)
		}
		told += len(s.Words)
		if i > 0 && (len(s.Words) == 0 || !strings.HasPrefix(s.Words[0], last.Names[s.Seat]+" ")) {
			t.Errorf("step %d by %s: %q", i, last.Names[s.Seat], s.Words)
		}
	}
	if told != m.View.EventCount {
		t.Errorf("the steps tell %d events, the game had %d", told, m.View.EventCount)
	}
	end := steps[len(steps)-1]
	if !slices.Equal(end.Totals, m.View.Totals) || !slices.Equal(last.Totals, m.View.Totals) || !slices.Equal(last.Winners, m.View.Winners) || len(end.Sheet) == 0 {
		t.Errorf("end: step totals %v, answer %v winners %v sheet %d; the game: %v winners %v", end.Totals, last.Totals, last.Winners, len(end.Sheet), m.View.Totals, m.View.Winners)
	}
	if last.Names[0] != "Ann" || last.Names[1] != "Bot 2 (random)" {
		t.Errorf("names %q", last.Names)
	}
	if code := a.do("GET", "/api/arlington/tables/"+tb.ID+"/replay?from=x", nil, nil); code != http.StatusBadRequest {
		t.Errorf("from=x: %d", code)
	}
}
