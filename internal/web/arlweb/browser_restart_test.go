package arlweb

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

// TestBrowserArlingtonServerRestart: when the server stops, a watching
// page says the server is restarting and, once a server answers again,
// reconnects by itself.
func TestBrowserArlingtonServerRestart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := testDB(t, ctx)
	hub, err := table.NewHub(ctx, table.Options{Store: db, Bots: newBot, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	// Two servers over the same tables, as before and after a restart.
	newServer := func() *web.Server { return web.New(web.Options{Games: []web.Routes{New(hub, Options{})}}) }
	old := newServer()
	srv, restart := switchable(t, old)
	e := &env{tb: t, srv: srv, hub: hub}
	id := e.client().create("", "random")

	bctx, bcancel := context.WithTimeout(startBrowser(t), 30*time.Second)
	defer bcancel()
	err = chromedp.Do(bctx,
		chromedp.Navigate(srv.URL+"/arlington/t/"+id),
		untilJS(`document.getElementById("conn").textContent === "connected"`),
		// Every text the connection line shows from now on.
		chromedp.Evaluate[chromedp.Void](`window.connSeen = []; new MutationObserver(() => connSeen.push(document.getElementById("conn").textContent)).observe(document.getElementById("conn"), {childList: true, characterData: true, subtree: true})`),
	)
	if err != nil {
		t.Fatal(err)
	}
	restart(newServer())
	old.Drain()
	err = chromedp.Do(bctx, untilJS(`connSeen.includes("server restarting: reconnecting…") && connSeen.at(-1) === "connected"`))
	seen, serr := chromedp.Run(bctx, chromedp.Evaluate[[]string](`connSeen`))
	if err != nil || serr != nil {
		t.Fatalf("%v; the connection line showed %q", err, seen)
	}
	if seen[0] != "server restarting: reconnecting…" {
		t.Errorf("the connection line showed %q", seen)
	}
	webtest.Screenshot(t, bctx, "reconnected")
}
