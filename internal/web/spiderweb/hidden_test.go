package spiderweb

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"cardtable/card"
	"cardtable/spider"
)

// cardToken finds card names in any response: "KS", "10H", "TH", and the
// hint text's "K♠". Game ids are base32 runs of letters and digits, so a
// token must stand alone.
var cardToken = regexp.MustCompile(`(?:^|[^0-9A-Za-z])(10|[2-9TAJQK])([CDHS]|♣|♦|♥|♠)(?:$|[^0-9A-Za-z])`)

var symbolSuit = map[string]string{"♣": "C", "♦": "D", "♥": "H", "♠": "S"}

// leaks reports the cards body names more often than they stand visible in g
// (face up, or anywhere in the tableau in the open variant), plus extra (a
// card the request itself named). Two decks hold two of each card (more
// with fewer suits), so counting catches a hidden copy of a visible card.
func leaks(tb testing.TB, body []byte, g *spider.Game, extra string) []string {
	tb.Helper()
	seen := map[string]int{}
	text := string(body)
	// Overlapping matches share a separator: scan from each match's end-1.
	for i := 0; i < len(text); {
		loc := cardToken.FindStringSubmatchIndex(text[i:])
		if loc == nil {
			break
		}
		rank, suit := text[i+loc[2]:i+loc[3]], text[i+loc[4]:i+loc[5]]
		if s, ok := symbolSuit[suit]; ok {
			suit = s
		}
		c, err := card.Parse(rank + suit)
		if err != nil {
			tb.Fatalf("token %s%s: %v", rank, suit, err)
		}
		seen[c.String()]++
		i += loc[5]
	}
	visible := map[string]int{}
	v := g.View(false)
	for _, p := range v.Piles {
		for _, c := range p.Up {
			visible[c]++
		}
		if g.Options().Open {
			for _, c := range p.Hidden {
				visible[c]++
			}
		}
	}
	if extra != "" {
		visible[extra]++
	}
	var out []string
	for c, n := range seen {
		if n > visible[c] {
			out = append(out, fmt.Sprintf("%s named %d times, %d visible", c, n, visible[c]))
		}
	}
	if !g.Options().Open && (strings.Contains(text, `"hidden"`) || strings.Contains(text, `"stockRows"`)) {
		out = append(out, "hidden or stockRows field sent")
	}
	return out
}

func TestScannerFindsLeaks(t *testing.T) {
	for _, suits := range []int{1, 2, 4} {
		g, _ := spider.NewGame(617, spider.Options{Suits: suits})
		full, _ := json.Marshal(g.View(true))
		if len(leaks(t, full, g, "")) == 0 {
			t.Fatalf("%d suits: the scanner misses the revealed view", suits)
		}
		start := g.Start()
		if len(leaks(t, []byte(start.FormatLayout()), g, "")) == 0 {
			t.Fatalf("%d suits: the scanner misses the layout", suits)
		}
		if lk := leaks(t, []byte(g.Save()), g, ""); len(lk) != 0 {
			t.Fatalf("%d suits: save by deal number flagged: %v", suits, lk)
		}
	}
}

// TestNoResponseCarriesHiddenCards plays games through every endpoint and
// scans everything the server sends against what the player may see.
func TestNoResponseCarriesHiddenCards(t *testing.T) {
	tests := []struct {
		name string
		deal uint64
		body string
		opts spider.Options
	}{
		{"arachnid 4 suits", 617, `{"deal":"617","suits":4,"cheat":"newcards"}`, spider.Options{Suits: 4, Cheat: spider.CheatNewCards}},
		{"spider 2 suits autoremove", 4242, `{"deal":"4242","variant":"spider","suits":2,"autoRemove":true}`,
			spider.Options{Variant: spider.Spider, Suits: 2, AutoRemove: true}},
		{"arachnid 1 suit relaxed", 77, `{"deal":"77","suits":1,"relaxed":true}`, spider.Options{Suits: 1, Relaxed: true}},
		{"open variant", 617, `{"deal":"617","suits":4,"open":true}`, spider.Options{Suits: 4, Open: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{Hint: firstMoveOntoACard})
			var r gameResponse
			g, err := spider.NewGame(tc.deal, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			responses, sawHidden := 0, false
			var id string
			check := func(method, path string, body []byte, extra string) {
				t.Helper()
				responses++
				if lk := leaks(t, body, g, extra); len(lk) != 0 {
					t.Fatalf("%s %s leaks %v:\n%s", method, path, lk, body)
				}
				sawHidden = sawHidden || strings.Contains(string(body), `"hidden"`)
			}
			get := func(path, extra string) {
				t.Helper()
				_, b, _ := h.do("GET", path, "")
				check("GET", path, b, extra)
			}
			// The hint lists many moves, naming a visible card once for each
			// it takes part in: each suggestion is scanned on its own, and
			// the answer must hold nothing but them.
			getHint := func() {
				t.Helper()
				_, b, _ := h.do("GET", id+"/hint", "")
				var hr hintResponse
				if err := json.Unmarshal(b, &hr); err != nil {
					t.Fatalf("hint: %v: %s", err, b)
				}
				if again, _ := json.Marshal(hr); string(again) != strings.TrimSpace(string(b)) {
					t.Fatalf("the hint sends more than its moves:\n%s", b)
				}
				check("GET", id+"/hint", []byte(hr.Move+" "+hr.Text), "")
				for _, m := range hr.Moves {
					check("GET", id+"/hint "+m.Move, []byte(m.Text), "")
				}
			}
			code, b, _ := h.do("POST", "/api/games", tc.body)
			if code != http.StatusCreated {
				t.Fatalf("new game: %d %s", code, b)
			}
			check("POST", "/api/games", b, "")
			json.Unmarshal(b, &r)
			id = "/api/games/" + r.ID
			rng := rand.New(rand.NewPCG(5, uint64(len(tc.name))))
			var buf [256]spider.Move
			for step := range 250 {
				var cmd string
				legal := g.Pos().Legal(buf[:0])
				switch x := rng.IntN(10); {
				case x < 6 && len(legal) > 0:
					cmd = legal[rng.IntN(len(legal))].String()
				case x < 7:
					cmd = fmt.Sprintf("move %d %d %d", 1+rng.IntN(10), 1+rng.IntN(10), 1+rng.IntN(4))
				case x < 8:
					cmd = fmt.Sprintf("auto %d", 1+rng.IntN(10))
				default:
					cmd = []string{"undo", "redo", "deal", "restart", "move 1 2"}[rng.IntN(5)]
				}
				if step == 200 {
					cmd = "restart"
				}
				mirrorApply(t, g, cmd) // the mirror takes the command, or refuses it as the server will
				body, _ := json.Marshal(commandRequest{Cmd: cmd})
				_, b, _ := h.do("POST", id+"/commands", string(body))
				check("POST", id+"/commands "+cmd, b, "")

				switch step % 5 {
				case 0:
					get(id, "")
					getHint()
				case 1:
					c := card.New(card.Rank(1+rng.IntN(13)), card.Suit(rng.IntN(4)))
					get(id+"/locate?card="+c.String(), c.String())
				case 2:
					get(fmt.Sprintf("%s/column/%d", id, 1+rng.IntN(10)), "")
				case 3:
					_, save, _ := h.do("GET", id+"/save", "")
					check("GET", id+"/save", save, "")
					// A game loaded from it shows the same cards.
					code, b, _ := h.do("POST", "/api/games/load", string(save))
					if code != http.StatusCreated {
						t.Fatalf("load: %d %s", code, b)
					}
					check("POST", "/api/games/load", b, "")
				case 4:
					_, b, _ := h.do("PUT", "/api/saves/scan", `{"game":"`+r.ID+`"}`)
					check("PUT", "/api/saves/scan", b, "")
					get("/api/saves", "")
					get("/api/stats", "")
					code, b, _ := h.do("POST", "/api/saves/scan/open", "")
					if code != http.StatusCreated {
						t.Fatalf("open: %d %s", code, b)
					}
					check("POST", "/api/saves/scan/open", b, "")
					get("/api/settings", "")
				}
			}
			var final gameResponse
			h.call("GET", id, "", 200, &final)
			if viewJSON(t, final.View) != viewJSON(t, g.View(false)) {
				t.Fatal("the mirror lost step with the server")
			}
			if sawHidden != tc.opts.Open {
				t.Fatalf("hidden cards sent: %v, open variant: %v", sawHidden, tc.opts.Open)
			}
			t.Logf("%d responses scanned", responses)
		})
	}
}
