package arlweb

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"cardtable/internal/table"
	"cardtable/internal/web"
)

// restartable is a server over a fresh database whose hub and server the
// test replaces (restart), as an operator's restart does: the new hub
// reads the same database, and only its open tables come back.
func restartable(t *testing.T) (e *env, restart func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	db := testDB(t, ctx)
	newHub := func() *table.Hub {
		h, err := table.NewHub(ctx, table.Options{Store: db, Bots: newBot, BotTime: time.Second, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(h.Close)
		return h
	}
	hub := newHub()
	first := web.New(web.Options{Games: []web.Routes{New(hub, wired(Limits{Burst: 10000}))}})
	srv, swap := switchable(t, first)
	e = &env{tb: t, srv: srv, hub: hub, db: db, site: first}
	return e, func() {
		t.Helper()
		e.hub.Close()
		e.hub = newHub()
		next := web.New(web.Options{Games: []web.Routes{New(e.hub, wired(Limits{Burst: 10000}))}})
		swap(next)
		e.site.Drain()
		e.site = next
	}
}

// finishedBy is a table whose game, to 1 point, ann played to its end
// against a bot (her first legal action each turn), seated at seat 0.
func finishedBy(t *testing.T, ann *client) string {
	t.Helper()
	var tb created
	if code := ann.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1}, &tb); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if seat := ann.join(tb.ID, "Ann"); seat != 0 {
		t.Fatalf("Ann sits at %d", seat)
	}
	w := ann.dial(tb.ID, -1)
	for m := w.started(); m.View.ToMove >= 0; {
		if m.View.ToMove == m.Seat && len(m.Legal) > 0 {
			w.send(map[string]any{"type": "action", "action": m.Legal[0]})
		}
		n := m.View.EventCount
		m = w.waitFor(func(x srvMsg) bool { return isView(x) && x.View.EventCount > n })
	}
	return tb.ID
}

// endedAnswer is GET .../ended's answer, decoded.
type endedAnswer struct {
	table.Ended
	Link string `json:"link"`
	Code string `json:"code"`
}

// TestEndedAfterRestart: after a restart a finished table is no longer
// live, yet its result is still there for its page (scores, winners,
// each hand's sheet; the asker's seat; no seed), a table that never was
// is still 404, and "Play again" still works: the rematch, made from the
// stored game, has the old settings with the seats turned by one (the bot
// keeping its level), seats its asker, and from then on the result names
// it. Someone who did not play there is refused.
func TestEndedAfterRestart(t *testing.T) {
	e, restart := restartable(t)
	ann, other := e.client(), e.client()
	id := finishedBy(t, ann)
	restart()
	if _, err := e.hub.Table(id); err == nil {
		t.Fatal("the finished table is live after the restart: this test needs it gone")
	}
	var got endedAnswer
	if code := ann.do("GET", "/api/arlington/tables/"+id+"/ended", nil, &got); code != http.StatusOK {
		t.Fatalf("ended: %d", code)
	}
	if got.ID != id || got.Seat != 0 || got.Name != "Ann" || got.Players != 2 || got.Target != 1 ||
		len(got.Totals) != 2 || len(got.Winners) == 0 || len(got.Results) == 0 || got.Names[0] != "Ann" || got.Rematch != "" {
		t.Errorf("Ann's result: %+v", got)
	}
	if best := got.Totals[got.Winners[0]]; best < 1 {
		t.Errorf("the winner has %d points in a game to 1", best)
	}
	body := getText(t, ann, "/api/arlington/tables/"+id+"/ended")
	if strings.Contains(strings.ToLower(body), "seed") {
		t.Errorf("the result carries the seed: %s", body)
	}
	var theirs endedAnswer
	if code := other.do("GET", "/api/arlington/tables/"+id+"/ended", nil, &theirs); code != http.StatusOK || theirs.Seat != -1 || theirs.Name != "" {
		t.Errorf("a watcher's result: %d %+v, want seat -1, no name", code, theirs)
	}
	if code := ann.do("GET", "/api/arlington/tables/NOSUCHTABLE234567ABCDEFGHJ/ended", nil, nil); code != http.StatusNotFound {
		t.Errorf("the result of no such table: %d, want 404", code)
	}
	if code := other.do("POST", "/api/arlington/tables/"+id+"/rematch", nil, nil); code != http.StatusForbidden {
		t.Errorf("a rematch asked by someone who did not play: %d, want 403", code)
	}
	var re rematched
	if code := ann.do("POST", "/api/arlington/tables/"+id+"/rematch", nil, &re); code != http.StatusCreated {
		t.Fatalf("rematch after the restart: %d", code)
	}
	if re.Seat != 1 || re.Target != 1 || len(re.Seats) != 2 || re.Seats[0].Bot != "random" || re.Seats[1].Name != "Ann" || !re.Started {
		t.Errorf("the rematch: %+v, want Ann at seat 1, the bot at seat 0, target 1, started", re)
	}
	if code := ann.do("GET", "/api/arlington/tables/"+id+"/ended", nil, &got); code != http.StatusOK || got.Rematch != re.ID {
		t.Errorf("after the rematch the result names %q (%d), want %q", got.Rematch, code, re.ID)
	}
	var again rematched
	if code := ann.do("POST", "/api/arlington/tables/"+id+"/rematch", nil, &again); code != http.StatusCreated || again.ID != re.ID {
		t.Errorf("asking again: %d, table %q, want the same %q", code, again.ID, re.ID)
	}
}

// getText is path's answer as text, which must be 200.
func getText(t *testing.T, c *client, path string) string {
	t.Helper()
	resp, err := c.hc.Get(c.e.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, resp.Body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
	}
	return b.String()
}

// TestJoinNoSuchSeat: a seat the table does not have is bad input (400),
// whose words say how many seats it has, numbered as the API counts
// them and as the page shows them; nothing is lost, and a real seat is
// still taken.
func TestJoinNoSuchSeat(t *testing.T) {
	e := newEnv(t, Limits{})
	ann := e.client()
	id := ann.create("", "")
	var got struct{ Error string }
	if code := ann.do("POST", "/api/arlington/tables/"+id+"/join", `{"name":"Ann","seat":5}`, &got); code != http.StatusBadRequest {
		t.Fatalf("seat 5 of 2: %d %q, want 400", code, got.Error)
	}
	for _, w := range []string{"seat 5", "2 seats", "0 to 1", "Seat 1 to Seat 2"} {
		if !strings.Contains(got.Error, w) {
			t.Errorf("the refusal %q does not say %q", got.Error, w)
		}
	}
	var j joined
	if code := ann.do("POST", "/api/arlington/tables/"+id+"/join", `{"name":"Ann","seat":1}`, &j); code != http.StatusOK || j.Seat != 1 {
		t.Errorf("seat 1 after the refusal: %d, seat %d", code, j.Seat)
	}
}

// TestLeaveSays: before the start, leave opens the seat and says so; in
// a game in play the seat stays the person's, marked away with a
// stand-in playing it, and the answer says that rather than an empty
// success a client would take for the seat given up.
func TestLeaveSays(t *testing.T) {
	e := newEnv(t, Limits{})
	ann := e.client()
	waiting := ann.create("", "")
	ann.join(waiting, "Ann")
	var left table.Left
	if code := ann.do("POST", "/api/arlington/tables/"+waiting+"/leave", nil, &left); code != http.StatusOK || left != (table.Left{Opened: true, Seat: -1}) {
		t.Errorf("leaving before the start: %d %+v, want the seat opened", code, left)
	}
	playing := ann.create("", "random")
	ann.join(playing, "Ann")
	left = table.Left{}
	if code := ann.do("POST", "/api/arlington/tables/"+playing+"/leave", nil, &left); code != http.StatusOK || left != (table.Left{Away: true, Seat: 0}) {
		t.Errorf("leaving a game in play: %d %+v, want seat 0 kept, away", code, left)
	}
	var sum created
	if code := ann.do("GET", "/api/arlington/tables/"+playing, nil, &sum); code != http.StatusOK || !sum.Seats[0].Away || sum.Seats[0].Name != "Ann" {
		t.Errorf("after leaving a game in play, seat 0 is %+v (%d), want Ann's, away", sum.Seats[0], code)
	}
}
