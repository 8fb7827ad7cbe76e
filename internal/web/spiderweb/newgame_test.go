package spiderweb

// New games: the deal asked for, winnable deals with and without a solver,
// and the requests refused.

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"cardtable/spider"
)

func TestNewGame(t *testing.T) {
	tests := []struct {
		name string
		body string
		deal uint64 // 0: random
		opts spider.Options
	}{
		{"empty body is a random 4-suit arachnid deal", ``, 0, spider.Options{Suits: 4}},
		{"deal number", `{"deal":"617"}`, 617, spider.Options{Suits: 4}},
		{"deal as a number", `{"deal":617,"suits":1}`, 617, spider.Options{Suits: 1}},
		{"hash deal", `{"deal":"#618","variant":"spider","suits":2}`, 618, spider.Options{Variant: spider.Spider, Suits: 2}},
		{"every option", `{"deal":"99","variant":"spider","suits":4,"open":true,"relaxed":true,"autoRemove":true,"cheat":"full"}`,
			99, spider.Options{Variant: spider.Spider, Suits: 4, Open: true, Relaxed: true, AutoRemove: true, Cheat: spider.CheatFull}},
		{"random 1-suit", `{"deal":"","suits":1,"cheat":"newcards"}`, 0, spider.Options{Suits: 1, Cheat: spider.CheatNewCards}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			r := h.newGame(tc.body)
			deal := tc.deal
			if deal == 0 {
				deal = r.View.Deal
				if deal == 0 {
					t.Fatal("random deal numbered 0")
				}
			}
			g, err := spider.NewGame(deal, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := viewJSON(t, r.View), viewJSON(t, g.View(false)); got != want {
				t.Fatalf("view\n got %s\nwant %s", got, want)
			}
			var again gameResponse
			h.call("GET", "/api/games/"+r.ID, "", http.StatusOK, &again)
			if again.ID != r.ID || viewJSON(t, again.View) != viewJSON(t, r.View) {
				t.Fatalf("GET differs from POST: %+v", again)
			}
		})
	}
}

func TestWinnableWithoutSolver(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"winnable":true}`)
	if r.Message == "" || r.View.Deal == 0 {
		t.Fatalf("winnable without a solver: message %q, deal %d", r.Message, r.View.Deal)
	}
}

func TestWinnableWithSolver(t *testing.T) {
	tests := []struct {
		name    string
		deal    uint64
		ok      bool
		message bool
	}{
		{"found", 4242, true, false},
		{"none found", 0, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var asked spider.Options
			h := newHarness(t, Options{WinnableDeal: func(_ context.Context, o spider.Options) (uint64, bool, error) {
				asked = o
				return tc.deal, tc.ok, nil
			}})
			r := h.newGame(`{"winnable":true,"variant":"spider","suits":2}`)
			if (r.Message != "") != tc.message || (tc.ok && r.View.Deal != tc.deal) || r.View.Deal == 0 {
				t.Fatalf("message %q, deal %d", r.Message, r.View.Deal)
			}
			if asked.Variant != spider.Spider || asked.Suits != 2 {
				t.Fatalf("asked for %+v", asked)
			}
			// With a deal number the solver is not asked.
			asked = spider.Options{}
			r = h.newGame(`{"winnable":true,"deal":"5"}`)
			if r.View.Deal != 5 || r.Message == "" || asked.Suits != 0 {
				t.Fatalf("numbered deal: %+v %q", r.View.Deal, r.Message)
			}
		})
	}
}

// countGames is the number of stored games.
func (h *harness) countGames() int {
	h.tb.Helper()
	n, err := h.db.CountGames(context.Background())
	if err != nil {
		h.tb.Fatal(err)
	}
	return n
}

func TestNewGameBadRequests(t *testing.T) {
	tests := []struct {
		name, body string
		code       int
	}{
		{"junk", `{not json`, 400},
		{"not an object", `[1,2]`, 400},
		{"unknown field", `{"suit":2}`, 400},
		{"two values", `{} {}`, 400},
		{"trailing junk", `{"suits":2}x`, 400},
		{"suits 3", `{"suits":3}`, 400},
		{"variant", `{"variant":"klondike"}`, 400},
		{"cheat", `{"cheat":"some"}`, 400},
		{"deal 0", `{"deal":"0"}`, 400},
		{"deal words", `{"deal":"six"}`, 400},
		{"deal too big", `{"deal":"18446744073709551616"}`, 400},
		{"deal negative", `{"deal":-5}`, 400},
		{"wrong type", `{"open":"yes"}`, 400},
		{"oversized", `{"deal":"1","x":"` + strings.Repeat("a", maxJSONBody) + `"}`, 413},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			var e errorBody
			h.call("POST", "/api/games", tc.body, tc.code, &e)
			if e.Error == "" {
				t.Fatal("no error message")
			}
			if n := h.countGames(); n != 0 {
				t.Fatalf("%d games stored after a refused request", n)
			}
		})
	}
}
