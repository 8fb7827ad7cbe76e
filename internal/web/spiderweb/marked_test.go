package spiderweb

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"cardtable/internal/web/webtest"
)

// TestSpiderSaveMarkedCheated: a Spider game or named save stored with the
// Arachnid mark "cheated: yes" (a hand-edited file uploaded before such a
// mark was read as none) still opens, without the mark: its score is not
// halved, as Spider has no cheat detection.
func TestSpiderSaveMarkedCheated(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"deal":"617","variant":"spider","suits":1}`)
	h.cmd(r.ID, "deal", 200)
	h.call("PUT", "/api/saves/marked", `{"game":"`+r.ID+`"}`, 200, nil)
	webtest.Damage(t, h.path, `UPDATE games SET save = replace(save, 'cheated: no', 'cheated: yes') WHERE id = ?`, r.ID)
	webtest.Damage(t, h.path, `UPDATE saves SET save = replace(save, 'cheated: no', 'cheated: yes') WHERE name = 'marked'`)
	h.restart() // read back from the store, not from memory
	rec, err := h.db.Game(context.Background(), h.player(), r.ID)
	if err != nil || !strings.Contains(rec.Save, "\ncheated: yes\n") {
		t.Fatalf("the stored game is not marked (%v):\n%s", err, rec.Save)
	}
	var got, opened gameResponse
	h.call("GET", "/api/games/"+r.ID, "", http.StatusOK, &got)
	h.call("POST", "/api/saves/marked/open", "", http.StatusCreated, &opened)
	for name, g := range map[string]gameResponse{"the stored game": got, "the opened save": opened} {
		b := g.View.Breakdown
		if b.Cheated || g.View.Score != b.Total || b.Total == 0 {
			t.Errorf("%s: score %d, breakdown %+v, want the whole total, not halved", name, g.View.Score, b)
		}
	}
}
