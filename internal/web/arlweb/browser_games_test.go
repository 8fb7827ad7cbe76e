package arlweb

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
	"cardtable/internal/web"
)

// TestBrowserArlingtonGames: Ann finishes a game against a bot; the
// server restarts, so the finished table is only in the database; her
// games page, on a desktop and on a phone screen, lists the game with the
// players' names and its replay names them too (Ann and "Bot 2
// (random)", not "Seat 1" and "Seat 2"). On the phone nothing scrolls
// sideways and every control is big enough to touch; on both the page
// breaks no part of the Content-Security-Policy.
func TestBrowserArlingtonGames(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := testDB(t, ctx)
	newHub := func() *table.Hub {
		h, err := table.NewHub(ctx, table.Options{Store: db, Bots: newBot, BotTime: time.Second, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	server := func(h *table.Hub) *web.Server {
		return web.New(web.Options{Games: []web.Routes{New(h, wired(Limits{Burst: 10000}))}})
	}
	before := newHub()
	srv, restart := switchable(t, server(before))
	e := &env{tb: t, srv: srv, hub: before}

	ann := e.client()
	var tb created
	if code := ann.do("POST", "/api/arlington/tables", table.Config{Players: 2, Bots: []string{"", "random"}, Target: 1}, &tb); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	ann.join(tb.ID, "Ann")
	w := ann.dial(tb.ID, -1)
	for m := w.started(); m.View.ToMove >= 0; {
		if m.View.ToMove == m.Seat && len(m.Legal) > 0 {
			w.send(map[string]any{"type": "action", "action": m.Legal[0]})
		}
		n := m.View.EventCount
		m = w.waitFor(func(x srvMsg) bool { return isView(x) && x.View.EventCount > n })
	}
	before.Close()
	after := newHub()
	defer after.Close()
	restart(server(after))
	if _, err := after.Table(tb.ID); err == nil {
		t.Fatal("the finished table came back to the hub: the test would not see a stored game's names")
	}

	u, _ := url.Parse(srv.URL)
	cookies := ann.hc.Jar.Cookies(u)
	want := []string{"Ann", "Bot 2 (random)"}
	bctx := startBrowser(t)
	for _, size := range screens {
		t.Run(size.name, func(t *testing.T) {
			p := newTab(t, bctx, size.w, size.h)
			csp := watchCSP(p)
			// Ann's browser: her identity cookie.
			p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				for _, c := range cookies {
					if _, err := cdp.Call(ctx, tg, network.SetCookie, network.SetCookieParams{Name: c.Name, Value: c.Value, URL: srv.URL, HTTPOnly: new(true)}); err != nil {
						return err
					}
				}
				return nil
			}))
			p.do(chromedp.Navigate(srv.URL + "/arlington/games"))
			p.wait(`document.querySelector("#games li.game button")`, "Ann's games")
			var text string
			p.eval(`document.querySelector("#games li.game").textContent`, &text)
			if !strings.Contains(text, "Ann (you)") || !strings.Contains(text, "Bot 2 (random)") {
				t.Errorf("the game reads %q, want Ann (you) and Bot 2 (random)", text)
			}
			if size.name == "phone" {
				p.phoneCheck("the games page")
			}
			p.do(chromedp.Click(chromedp.CSS("#games li.game button")))
			p.wait(`document.getElementById("rp-pos").textContent.startsWith("Step 1 of ") && document.querySelectorAll("#rp-seats .p-name").length === 2`, "the replay's first step")
			var names []string
			p.eval(`[...document.querySelectorAll("#rp-seats .p-name")].map((e) => e.textContent)`, &names)
			if !slices.Equal(names, want) {
				t.Errorf("the replay names the seats %q, want %q", names, want)
			}
			// The seats' names are bold, as at the table.
			var weights []string
			p.eval(`[...document.querySelectorAll("#rp-seats .p-name")].map((e) => getComputedStyle(e).fontWeight)`, &weights)
			for i, w := range weights {
				if w != "700" {
					t.Errorf("the replay's name %q has font weight %s, not bold (700) as at the table", names[i], w)
				}
			}
			p.do(chromedp.Click(chromedp.CSS("#rp-next")))
			p.wait(`document.getElementById("rp-pos").textContent.startsWith("Step 2 of ") && document.querySelector("#rp-words li")`, "step 2")
			var step2 string
			p.eval(`document.getElementById("rp-words").textContent`, &step2)
			if !strings.HasPrefix(step2, "Ann ") && !strings.HasPrefix(step2, "Bot 2 (random) ") {
				t.Errorf("step 2 says %q, want it to name the player", step2)
			}
			if size.name == "phone" {
				p.phoneCheck("the replay")
			}
			p.shot("games-replay")
			csp.check(p, "the games page")
		})
	}
}
