package arlweb

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/card"
	"cardtable/internal/table"
	"cardtable/internal/web"
)

func TestLobbyAPI(t *testing.T) {
	e := newEnv(t, Limits{})
	a := e.client()
	var l lobby
	if code := a.do("GET", "/api/arlington/tables", nil, &l); code != http.StatusOK || len(l.Tables) != 0 {
		t.Fatalf("empty lobby: %d %+v", code, l)
	}
	if l.DefaultLevel != "medium" || len(l.Levels) != len(bot.Names) || l.Target != 32 {
		t.Errorf("lobby defaults: %+v", l)
	}
	for _, c := range []struct {
		name, body string
		want       int
	}{
		{"one seat", `{"players":1}`, http.StatusBadRequest},
		{"seven seats", `{"players":7}`, http.StatusBadRequest},
		{"unknown level", `{"players":2,"bots":["","genius"]}`, http.StatusBadRequest},
		{"unknown field", `{"players":2,"colour":"red"}`, http.StatusBadRequest},
		{"not JSON", `{`, http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			if code := a.do("POST", "/api/arlington/tables", c.body, nil); code != c.want {
				t.Errorf("create %s: %d, want %d", c.body, code, c.want)
			}
		})
	}
	id := a.create("", "random", "", "greedy")
	var got created
	if code := a.do("GET", "/api/arlington/tables/"+id, nil, &got); code != http.StatusOK ||
		got.Link != "/arlington/t/"+id || got.Players != 4 || got.OpenSeats != 2 || got.Target != 32 {
		t.Errorf("get: %d %+v", code, got)
	}
	if code := a.do("GET", "/api/arlington/tables/nosuch", nil, nil); code != http.StatusNotFound {
		t.Errorf("unknown table: %d", code)
	}
	if a.do("GET", "/api/arlington/tables", nil, &l); len(l.Tables) != 1 || l.Tables[0].ID != id {
		t.Errorf("lobby lists %+v", l.Tables)
	}
	// The record before the end hides the seed: the engine refuses it.
	resp, err := a.hc.Get(e.srv.URL + "/api/arlington/tables/" + id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("record: %d %v", resp.StatusCode, resp.Header)
	}
	if _, _, err := arlington.Load(strings.NewReader(string(body))); err == nil {
		t.Errorf("record of a game in play loads: its seed is out\n%s", body)
	}
	for _, p := range []string{"/arlington/", "/arlington/t/" + id} {
		resp, err := a.hc.Get(e.srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "<html") {
			t.Errorf("page %s: %d", p, resp.StatusCode)
		}
	}
}

func TestPreview(t *testing.T) {
	e := newEnv(t, Limits{})
	a := e.client()
	for _, c := range []struct {
		name, body string
		code       int
		legal      bool
		spectra    int
	}{
		{"pair", `{"cards":["7H","7D"]}`, 200, true, 1},
		{"not a set", `{"cards":["7H","KD"]}`, 200, false, 0},
		{"with a joker", `{"cards":["7H","JK"]}`, 200, true, -1},
		{"twice", `{"cards":["7H","7H"]}`, 400, false, 0},
		{"not a card", `{"cards":["ZZ"]}`, 400, false, 0},
		{"a field it does not take", `{"cards":["7H"],"table":"nope"}`, 400, false, 0},
		{"not a list", `{"cards":"7H"}`, 400, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got arlington.SetInfo
			var out any
			if c.code == 200 {
				out = &got
			}
			code := a.do("POST", "/api/arlington/preview", c.body, out)
			if code != c.code {
				t.Fatalf("%s: %d, want %d", c.body, code, c.code)
			}
			if code != 200 {
				return
			}
			if got.Legal != c.legal || (c.spectra >= 0 && len(got.Spectra) != c.spectra) || (c.legal && got.Points < 0) {
				t.Errorf("%s: %+v", c.body, got)
			}
			if c.spectra < 0 && len(got.Spectra) == 0 {
				t.Errorf("%s: no spectra", c.body)
			}
		})
	}
}

// TestPreviewAtTable: asked at a table, the preview's words come from
// the requester's own seat (and from nothing it does not see: its answer
// for any card, held or not, is the engine's words for its view without
// its hand); a stranger is refused, and so are junk and an unknown table
// in the path.
func TestPreviewAtTable(t *testing.T) {
	e := newEnv(t, Limits{})
	a, b, stranger := e.client(), e.client(), e.client()
	id := a.create("", "")
	a.join(id, "Ann")
	path := "/api/arlington/tables/" + id + "/preview"
	at := func(cards ...string) string {
		b, _ := json.Marshal(map[string]any{"cards": cards})
		return string(b)
	}
	if code := a.do("POST", path, at("7H"), nil); code != http.StatusConflict {
		t.Errorf("before the game starts: %d, want 409", code)
	}
	b.join(id, "Bob")
	for _, x := range []struct {
		name, path string
		c          *client
		body       string
		code       int
	}{
		{"a stranger", path, stranger, at("7H"), http.StatusForbidden},
		{"cards that are a number", path, a, `{"cards":5}`, http.StatusBadRequest},
		{"no such card", path, a, `{"cards":["ZZ"]}`, http.StatusBadRequest},
		{"a junk table", "/api/arlington/tables/x%00y/preview", a, at("7H"), http.StatusNotFound},
		{"no such table", "/api/arlington/tables/NOSUCH/preview", a, at("7H"), http.StatusNotFound},
		{"an overlong body", path, a, `{"cards":["` + strings.Repeat("x", 2000) + `"]}`, http.StatusRequestEntityTooLarge},
	} {
		if code := x.c.do("POST", x.path, x.body, nil); code != x.code {
			t.Errorf("%s: %d, want %d", x.name, code, x.code)
		}
	}
	tb, err := e.hub.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	// The seat to move leads a card below the king: the other is to play
	// to the trick. Then a higher card below the ace, taking the trick for
	// the seat that plays last but not surely for the one before, is told
	// differently to each. (A joker led, or a king, leaves every card told
	// alike to both.)
	leader, follower := a, b
	if v := ownView(t, tb, a, e); v.ToMove != v.Seat {
		leader, follower = b, a
	}
	lv := ownView(t, tb, leader, e)
	led := false
	for _, l := range lv.Legal() {
		if r := l.Card.Rank(); l.Kind == arlington.LeadCard && l.Card != card.Joker && r != card.Ace && r != card.King {
			if err := tb.Act(context.Background(), playerOf(t, leader, e), lv.Seat, l); err != nil {
				t.Fatal(err)
			}
			led = true
			break
		}
	}
	if !led {
		t.Fatalf("seat %d holds no card below the king to lead: %v", lv.Seat, lv.Hand)
	}
	differ := false
	for _, c := range arlington.FullDeck.Cards() {
		set, err := arlington.SetOf([]card.Card{c})
		if err != nil {
			t.Fatal(err)
		}
		var said [2]string
		for i, p := range []*client{leader, follower} {
			v := ownView(t, tb, p, e)
			if v.Phase != arlington.PhaseTrick {
				t.Fatalf("seat %d: phase %v after a card was led", v.Seat, v.Phase)
			}
			v.Hand = nil
			var got previewAnswer
			if code := p.do("POST", path, at(c.String()), &got); code != http.StatusOK {
				t.Fatalf("seat %d, the %s: %d", v.Seat, c, code)
			}
			if want := arlington.SelectionWords(v, set, table.SeatNames(tb.Summary().Seats)); got.Say != want || want == "" {
				t.Errorf("seat %d, the %s: say %q, want %q", v.Seat, c, got.Say, want)
			}
			said[i] = got.Say
		}
		differ = differ || said[0] != said[1]
	}
	if !differ {
		t.Error("the leader and the player to follow are told the same of every card: the words are not from the requester's seat")
	}
}

func TestJoin(t *testing.T) {
	e := newEnv(t, Limits{})
	a, b, c := e.client(), e.client(), e.client()
	id := a.create("", "")
	if s := a.join(id, "Ann"); s != 0 {
		t.Errorf("Ann sits at %d", s)
	}
	if s := a.join(id, "Ann again"); s != 0 {
		t.Errorf("a reload moved Ann to %d", s)
	}
	var got created
	if code := a.do("POST", "/api/arlington/tables/"+id+"/join", `{"name":"Ann","seat":9}`, nil); code != http.StatusBadRequest {
		t.Errorf("seat 9: %d", code)
	}
	if code := b.do("POST", "/api/arlington/tables/"+id+"/join", `{"name":"Bob","seat":0}`, nil); code != http.StatusConflict {
		t.Errorf("Bob at Ann's seat: %d", code)
	}
	if code := b.do("POST", "/api/arlington/tables/"+id+"/join", `{"name":""}`, nil); code != http.StatusBadRequest {
		t.Errorf("no name: %d", code)
	}
	if s := b.join(id, "Bob"); s != 1 {
		t.Errorf("Bob sits at %d", s)
	}
	if code := c.do("POST", "/api/arlington/tables/"+id+"/join", `{"name":"Cy"}`, nil); code != http.StatusConflict {
		t.Errorf("third at a full table: %d", code)
	}
	a.do("GET", "/api/arlington/tables/"+id, nil, &got)
	if !got.Started || got.OpenSeats != 0 || got.Seats[0].Name != "Ann again" || got.Seats[1].Name != "Bob" {
		t.Errorf("table after joins: %+v", got.Summary)
	}
	if code := c.do("POST", "/api/arlington/tables/nosuch/join", `{"name":"Cy"}`, nil); code != http.StatusNotFound {
		t.Errorf("join unknown: %d", code)
	}
}

// TestHint: a seated player on their turn gets the hard bot's choice from
// their own view, one of their legal actions; nobody else gets one, and
// not out of turn.
func TestHint(t *testing.T) {
	e := newEnv(t, Limits{})
	a, b, stranger := e.client(), e.client(), e.client()
	id := a.create("", "")
	a.join(id, "Ann")
	path := "/api/arlington/tables/" + id + "/hint"
	if code := a.do("GET", path, nil, nil); code != http.StatusConflict {
		t.Errorf("before the game starts: %d, want 409", code)
	}
	b.join(id, "Bob")
	tb, err := e.hub.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	if code := stranger.do("GET", path, nil, nil); code != http.StatusForbidden {
		t.Errorf("a stranger: %d, want 403", code)
	}
	// Whoever is to move gets a hint; the other is refused.
	views := map[*client]arlington.View{}
	for _, c := range []*client{a, b} {
		v := ownView(t, tb, c, e)
		views[c] = v
	}
	hinted := 0
	for c, v := range views {
		var h struct {
			hintAnswer
			Error string
		}
		code := c.do("GET", path, nil, &h)
		if v.ToMove != v.Seat {
			// The page shows the words as they come, so they are compared
			// whole: the seat counts from 1, and nothing stands ahead of
			// them (no class's name: web.WriteError leaves it out of every
			// refusal, web.TestClassify).
			if want := fmt.Sprintf("a hint is for your turn; it is seat %d's turn", v.ToMove+1); code != http.StatusConflict || h.Error != want {
				t.Errorf("seat %d out of turn: %d %q, want 409 %q", v.Seat, code, h.Error, want)
			}
			continue
		}
		if code != http.StatusOK || h.Bot != HintBot {
			t.Fatalf("seat %d on its turn: %d %+v", v.Seat, code, h)
		}
		hinted++
		legal := false
		for _, l := range v.Legal() {
			legal = legal || l.String() == h.Action
		}
		if !legal {
			t.Errorf("hint %q is not among seat %d's legal actions %v", h.Action, v.Seat, v.Legal())
		}
	}
	if hinted != 1 {
		t.Errorf("%d seats got a hint, want the one to move", hinted)
	}
	if code := a.do("GET", "/api/arlington/tables/nosuch/hint", nil, nil); code != http.StatusNotFound {
		t.Errorf("unknown table: %d, want 404", code)
	}
}

// ownView is c's own view of table tb, read through the table the
// handlers use (the player's identity is the cookie c holds).
func ownView(tb testing.TB, t *table.Table, c *client, e *env) arlington.View {
	tb.Helper()
	v, err := t.View(context.Background(), playerOf(tb, c, e))
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// playerOf is the player the identity cookie c holds stands for.
func playerOf(tb testing.TB, c *client, e *env) string {
	tb.Helper()
	u, _ := url.Parse(e.srv.URL)
	for _, ck := range c.hc.Jar.Cookies(u) {
		if p := web.PlayerFromCookie(ck.Value); p != "" {
			return p
		}
	}
	tb.Fatal("no identity cookie")
	panic("unreachable")
}

// TestBotsAsOptions: the lobby offers the levels the handlers are given and
// hints need the hint bot they are given: without them, no levels and 501.
func TestBotsAsOptions(t *testing.T) {
	e := newEnv(t, Limits{})
	bare := httptest.NewServer(web.New(web.Options{Games: []web.Routes{New(e.hub, Options{})}}))
	defer bare.Close()
	resp, err := http.Get(bare.URL + "/api/arlington/tables")
	if err != nil {
		t.Fatal(err)
	}
	var l lobby
	err = json.NewDecoder(resp.Body).Decode(&l)
	resp.Body.Close()
	if err != nil || l.Levels == nil || len(l.Levels) != 0 {
		t.Fatalf("lobby without levels: %v %+v", err, l)
	}
	resp, err = http.Get(bare.URL + "/api/arlington/tables/" + e.client().create("", "random") + "/hint")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotImplemented {
		t.Fatalf("a hint without a hint bot: %d, want 501", resp.StatusCode)
	}
}

// untilTimeUp is a hint bot whose search finds nothing before its
// context ends.
type untilTimeUp struct{}

func (untilTimeUp) Name() string { return HintBot }

func (untilTimeUp) Act(ctx context.Context, _ arlington.View) (arlington.Action, error) {
	<-ctx.Done()
	return arlington.Action{}, ctx.Err()
}

// TestHintRefusalWords: a hint refused for want of time says so in its
// own words, with no class name ahead of them (the 503 tells the class).
func TestHintRefusalWords(t *testing.T) {
	e := newEnv(t, Limits{})
	mover, path := hintAsker(t, e)
	ask := func() (int, string) {
		var h struct{ Error string }
		code := mover.do("GET", path, nil, &h)
		return code, h.Error
	}

	// Every slot taken: the wait ends and the hint is refused as busy.
	e.arl.hintTime = 50 * time.Millisecond
	for range cap(hintSlots) {
		hintSlots <- struct{}{}
	}
	code, msg := ask()
	for range cap(hintSlots) {
		<-hintSlots
	}
	if want := "hints are busy; try again in a moment"; code != http.StatusServiceUnavailable || msg != want {
		t.Errorf("slots full: %d %q, want 503 %q", code, msg, want)
	}

	// No hint found in time: a bot that searches until its time is up
	// is refused in the player's words (the bot's own go to the log). The slot is free when the
	// hint asks for it, its time far from over then, so the wait cannot
	// be what ends it.
	e.arl.hintTime = 100 * time.Millisecond
	e.arl.newHint = func(uint64) (table.Bot, error) { return untilTimeUp{}, nil }
	code, msg = ask()
	if want := "no hint could be found; try again"; code != http.StatusServiceUnavailable || msg != want {
		t.Errorf("no time: %d %q, want 503 %q", code, msg, want)
	}
	if strings.HasPrefix(msg, "unavailable") || strings.HasPrefix(msg, "server busy") {
		t.Errorf("no time: %q names the class, not the refusal", msg)
	}
}
