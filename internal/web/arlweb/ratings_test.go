package arlweb

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"cardtable/internal/table"
)

// playAway creates a table to 1 point with a person's seat and a random
// bot, as c, joins it as name and leaves it at once, so that the
// stand-in (random too, so quick) plays the game out; it returns when the
// game is over, with the table's id.
func (c *client) playAway(name string, rated bool) string {
	c.e.tb.Helper()
	return c.playAwayBy(rated, func(id string) {
		c.join(id, name)
		if code := c.do("POST", "/api/arlington/tables/"+id+"/leave", nil, nil); code != http.StatusOK {
			c.e.tb.Fatalf("leave: %d", code)
		}
	})
}

// playAwayBy is playAway with the joining and leaving done by sit (a
// browser's page, say), c creating the table.
func (c *client) playAwayBy(rated bool, sit func(id string)) string {
	c.e.tb.Helper()
	var got created
	cfg := table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}, StandIn: "random", Rated: rated}
	if code := c.do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated || got.Rated != rated {
		c.e.tb.Fatalf("create: %d %+v", code, got)
	}
	t, err := c.e.hub.Table(got.ID)
	if err != nil {
		c.e.tb.Fatal(err)
	}
	sub, err := t.Subscribe(context.Background(), "", -1)
	if err != nil {
		c.e.tb.Fatal(err)
	}
	defer sub.Close()
	sit(got.ID)
	timeout := time.After(20 * time.Second)
	for {
		select {
		case u, ok := <-sub.Updates():
			if !ok {
				c.e.tb.Fatalf("subscription ended: %v", sub.Err())
			}
			if u.Status == table.StatusOver {
				return got.ID
			}
		case <-timeout:
			c.e.tb.Fatal("the game did not end")
		}
	}
}

// TestRatingsAPI: GET /api/arlington/ratings lists the people and bot
// levels with at least five rated games (a casual game does not count),
// the best first, with exactly the keys name, rating, games and bot.
func TestRatingsAPI(t *testing.T) {
	e := newEnv(t, Limits{})
	c := e.client()
	var board []map[string]any
	if code := c.do("GET", "/api/arlington/ratings", nil, &board); code != http.StatusOK || board == nil || len(board) != 0 {
		t.Fatalf("before any game: %d %v", code, board)
	}
	c.playAway("Pat", false)
	for range table.MinRankedGames - 1 {
		c.playAway("Pat", true)
	}
	if code := c.do("GET", "/api/arlington/ratings", nil, &board); code != http.StatusOK || len(board) != 0 {
		t.Fatalf("after four rated games: %d %v", code, board)
	}
	c.playAway("Pat", true)
	var raw []json.RawMessage
	if code := c.do("GET", "/api/arlington/ratings", nil, &raw); code != http.StatusOK || len(raw) != 2 {
		t.Fatalf("after five rated games: %d %s", code, raw)
	}
	var got []table.Ranked
	for _, r := range raw {
		var keys map[string]any
		if err := json.Unmarshal(r, &keys); err != nil {
			t.Fatal(err)
		}
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		if !slices.Equal(ks, []string{"bot", "games", "name", "rating"}) {
			t.Fatalf("keys %v in %s", ks, r)
		}
		var x table.Ranked
		_ = json.Unmarshal(r, &x)
		got = append(got, x)
	}
	if got[0].Rating < got[1].Rating {
		t.Errorf("not the best first: %+v", got)
	}
	if got[0].Bot { // the person first
		got[0], got[1] = got[1], got[0]
	}
	if got[0].Name != "Pat" || got[0].Bot || got[0].Games != 5 || got[1].Name != "random" || !got[1].Bot || got[1].Games != 5 {
		t.Fatalf("leaderboard %+v", got)
	}
	if got[0].Rating <= 0 || got[1].Rating <= 0 {
		t.Fatalf("ratings not shown: %+v", got)
	}
}

// TestJoinNameTaken: sitting down under a rated person's name, or a bot
// level's, whatever the case, is answered 409 with what to do; the rated
// person keeps theirs.
func TestJoinNameTaken(t *testing.T) {
	e := newEnv(t, Limits{})
	pat, other := e.client(), e.client()
	pat.playAway("Pat", true)
	id := other.create("", "", "random")
	for _, name := range []string{"pAT", "Random"} {
		var body struct {
			Error string `json:"error"`
		}
		code := other.do("POST", "/api/arlington/tables/"+id+"/join", joinRequest{Name: name}, &body)
		if code != http.StatusConflict || !strings.Contains(body.Error, "choose another") || !strings.Contains(body.Error, name) {
			t.Errorf("joining as %q: %d %q, want 409 naming it and what to do", name, code, body.Error)
		}
	}
	pat.join(id, "PAT")
}
