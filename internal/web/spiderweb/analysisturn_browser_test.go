package spiderweb

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/store"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

// TestBrowserAnalysisWaitingItsTurn: an analysis refused because another
// address is first in line for the server's analysis is said as news, as
// the refusal while another runs is: an information box, no error, and
// the game left as it was.
func TestBrowserAnalysisWaitingItsTurn(t *testing.T) {
	t.Parallel()
	bctx := startBrowser(t)
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "cardtable.db"))
	if err != nil {
		t.Fatal(err)
	}
	// The server's clock stands still: the other address keeps its place
	// in line however long the page takes to ask on a loaded machine
	// (the place lapses some seconds after its refusal).
	clock := &webtest.Clock{T: time.Now()}
	sp := New(db, Options{Hint: firstMoveHint, Analyze: solverAnalyze, Now: clock.Now})
	srv := httptest.NewServer(web.New(web.Options{Games: []web.Routes{sp}, Adopt: sp.AdoptLegacy}))
	t.Cleanup(func() {
		srv.Close()
		db.Close()
	})
	// Another address, refused while an analysis ran, is first in line;
	// the page's (127.0.0.1) is not in line.
	now := clock.Now()
	sp.analyses.take("198.51.100.7", now)
	sp.analyses.take("203.0.113.9", now)
	sp.analyses.release(now)

	p := openPage(t, bctx, srv, 1280, 800)
	before := p.gameID()
	p.menu("#btn-game-menu", `#menu-game [data-act="analyse"]`)
	p.waitJS(`document.querySelector("#dlg-confirm").open`, "the confirmation")
	p.clickSel("#confirm-yes")
	p.waitJS(`document.body.dataset.analysing === "0" && /waiting its turn/.test(document.querySelector("#toast .msg").textContent)`,
		"the refusal said")
	var said struct {
		Kind, Msg, LastError string
	}
	p.eval(`({kind: document.querySelector("#toast").className, msg: document.querySelector("#toast .msg").textContent,
		lastError: document.body.dataset.lastError || ""})`, &said)
	if said.Kind != "info" || said.LastError != "" || !strings.HasPrefix(said.Msg, "Another analysis is waiting its turn on the server: try again in ") {
		t.Errorf("the refusal shown as %q %q, last error %q: want news, not an error", said.Kind, said.Msg, said.LastError)
	}
	if id := p.gameID(); id != before {
		t.Errorf("the page left game %s for %s", before, id)
	}
}
