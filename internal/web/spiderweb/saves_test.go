package spiderweb

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web/webtest"
)

func TestNamedSaves(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"deal":"617","suits":1}`)
	h.cmd(r.ID, "auto 1", http.StatusOK)
	var s saveSummary
	name := "my game: ♠ 1"
	h.call("PUT", "/api/saves/"+url.PathEscape(name), `{"game":"`+r.ID+`"}`, 200, &s)
	if s.Name != name || s.Deal != "617" || s.Moves != 1 || s.Variant != "arachnid" || s.Suits != 1 {
		t.Fatalf("put: %+v", s)
	}
	h.cmd(r.ID, "undo", http.StatusOK)
	var list struct {
		Saves []saveSummary `json:"saves"`
	}
	h.call("GET", "/api/saves", "", 200, &list)
	if len(list.Saves) != 1 || list.Saves[0].Name != name {
		t.Fatalf("list %+v", list)
	}
	var o gameResponse
	h.call("POST", "/api/saves/"+url.PathEscape(name)+"/open", "", 201, &o)
	if o.ID == r.ID || o.View.Moves != 1 || o.View.Deal != 617 {
		t.Fatalf("opened %+v", o)
	}
	bad := []struct {
		method, path, body string
		code               int
	}{
		{"PUT", "/api/saves/x", `{"game":"NOPE"}`, 404},
		{"PUT", "/api/saves/x", `{}`, 400},
		{"PUT", "/api/saves/x", `{"game":1}`, 400},
		{"PUT", "/api/saves/%20", `{"game":"` + r.ID + `"}`, 400},
		{"PUT", "/api/saves/a%01b", `{"game":"` + r.ID + `"}`, 400},
		{"PUT", "/api/saves/" + strings.Repeat("n", maxSaveName+1), `{"game":"` + r.ID + `"}`, 400},
		{"POST", "/api/saves/nope/open", ``, 404},
		{"DELETE", "/api/saves/nope", ``, 404},
	}
	for _, tc := range bad {
		h.call(tc.method, tc.path, tc.body, tc.code, &errorBody{})
	}
	h.call("GET", "/api/saves", "", 200, &list)
	if len(list.Saves) != 1 {
		t.Fatalf("bad requests changed the saves: %+v", list)
	}
	h.call("DELETE", "/api/saves/"+url.PathEscape(name), "", 200, nil)
	h.call("GET", "/api/saves", "", 200, &list)
	if len(list.Saves) != 0 {
		t.Fatalf("after delete: %+v", list)
	}
}

func TestSettings(t *testing.T) {
	h := newHarness(t, Options{})
	if b := h.call("GET", "/api/settings", "", 200, nil); strings.TrimSpace(string(b)) != "{}" {
		t.Fatalf("default settings %s", b)
	}
	js := `{"verbose":false,"animations":true,"cheat":"newcards","nested":{"a":[1,2]}}`
	h.call("PUT", "/api/settings", js, 200, nil)
	for _, bad := range []struct {
		body string
		code int
	}{
		{`[1]`, 400}, {`null`, 400}, {`"x"`, 400}, {`{"a":`, 400}, {``, 400},
		{`{"a":"` + strings.Repeat("x", maxSettingsBody) + `"}`, 413},
	} {
		h.call("PUT", "/api/settings", bad.body, bad.code, &errorBody{})
	}
	h.restart()
	if b := h.call("GET", "/api/settings", "", 200, nil); string(b) != js {
		t.Fatalf("settings %s, want %s", b, js)
	}
}

// TestDamagedSave: a save whose stored row was damaged (here its deal, then
// another's text) does not take the list down with it: the list answers
// 200 with every save, the damaged one marked so the page offers only its
// deletion, and the operator's log names it. Opening it is refused with a
// message saying what to do; the sound save still opens; deleting the
// damaged one works.
func TestDamagedSave(t *testing.T) {
	var logged bytes.Buffer
	h := newHarness(t, Options{Log: slog.New(slog.NewTextHandler(&logged, nil))})
	r := h.newGame(`{"deal":"617","suits":1}`)
	for _, name := range []string{"sound", "bad deal", "bad text"} {
		h.call("PUT", "/api/saves/"+url.PathEscape(name), `{"game":"`+r.ID+`"}`, 200, nil)
	}
	for _, q := range []string{`UPDATE saves SET deal = 'x617' WHERE name = 'bad deal'`,
		`UPDATE saves SET save = 'not a save' WHERE name = 'bad text'`} {
		webtest.Damage(t, h.path, q)
	}
	var list struct {
		Saves []saveSummary `json:"saves"`
	}
	h.call("GET", "/api/saves", "", 200, &list)
	got := map[string]saveSummary{}
	for _, s := range list.Saves {
		got[s.Name] = s
	}
	if len(list.Saves) != 3 || !got["bad deal"].Damaged || got["bad deal"].Deal != "" ||
		got["sound"].Damaged || got["sound"].Deal != "617" || got["bad text"].Damaged {
		t.Fatalf("list %+v, want the three saves, only \"bad deal\" marked damaged", list.Saves)
	}
	if !strings.Contains(logged.String(), `save="bad deal"`) {
		t.Errorf("the log does not name the damaged save:\n%s", logged.String())
	}
	for _, name := range []string{"bad deal", "bad text"} {
		logged.Reset()
		var e errorBody
		h.call("POST", "/api/saves/"+url.PathEscape(name)+"/open", "", http.StatusUnprocessableEntity, &e)
		if !strings.Contains(e.Error, `"`+name+`" is damaged`) || !strings.Contains(e.Error, "delete") ||
			strings.Contains(e.Error, "x617") || strings.Contains(e.Error, "not a save") {
			t.Errorf("opening %q: %q, want it named damaged, what to do, and no stored text", name, e.Error)
		}
		if !strings.Contains(logged.String(), "save=\""+name+"\"") {
			t.Errorf("opening %q: the log does not name it:\n%s", name, logged.String())
		}
	}
	h.call("POST", "/api/saves/sound/open", "", http.StatusCreated, nil)
	h.call("DELETE", "/api/saves/"+url.PathEscape("bad deal"), "", 200, nil)
	h.call("GET", "/api/saves", "", 200, &list)
	if len(list.Saves) != 2 {
		t.Fatalf("after deleting the damaged save: %+v", list.Saves)
	}
}

// TestDamagedSaveLoggedOnce: a page that reads the list (or tries to open
// a damaged save) again and again logs the damaged save once per server
// process, named; once deleted or saved over, a new damaged save of that
// name is logged again.
func TestDamagedSaveLoggedOnce(t *testing.T) {
	var logged bytes.Buffer
	h := newHarness(t, Options{Log: slog.New(slog.NewTextHandler(&logged, nil))})
	r := h.newGame(`{"deal":"617","suits":1}`)
	damage := func() {
		t.Helper()
		h.call("PUT", "/api/saves/broken", `{"game":"`+r.ID+`"}`, 200, nil)
		webtest.Damage(t, h.path, `UPDATE saves SET deal = 'x617' WHERE name = 'broken'`)
	}
	count := func(what string) int {
		return strings.Count(logged.String(), what+`" player=`+h.player()+` save=broken`)
	}
	damage()
	for range 3 {
		h.call("GET", "/api/saves", "", 200, nil)
		h.call("POST", "/api/saves/broken/open", "", http.StatusUnprocessableEntity, nil)
	}
	if count("listed for its player to delete") != 1 || count("refused to open") != 1 {
		t.Fatalf("three lists and three openings logged, want each once:\n%s", logged.String())
	}
	h.call("DELETE", "/api/saves/broken", "", 200, nil)
	damage()
	h.call("GET", "/api/saves", "", 200, nil)
	if n := count("listed for its player to delete"); n != 2 {
		t.Errorf("a new damaged save of a deleted one's name logged %d times in all, want 2:\n%s", n, logged.String())
	}
	damage() // saved over the damaged one, then damaged in turn
	h.call("GET", "/api/saves", "", 200, nil)
	if n := count("listed for its player to delete"); n != 3 {
		t.Errorf("a damaged save saved over and damaged again logged %d times in all, want 3:\n%s", n, logged.String())
	}
}

// TestLogOnceBounded: past its bound the set forgets the oldest key (seen
// as first again), never the newer ones.
func TestLogOnceBounded(t *testing.T) {
	o := newLogOnce(2)
	for _, k := range []string{"a", "b", "c"} {
		if !o.first(k) {
			t.Fatalf("%q seen before its first time", k)
		}
	}
	if len(o.seen) != 2 || len(o.order) != 2 {
		t.Errorf("%d keys remembered (%d in order), want the bound, 2", len(o.seen), len(o.order))
	}
	if o.first("c") || o.first("b") {
		t.Error("a newer key forgotten")
	}
	if !o.first("a") {
		t.Error("the oldest key still remembered past the bound")
	}
}

// TestDamagedGame: a game in play whose stored text was damaged outside
// the server is still a server fault (500), but the player is told what
// happened and what to do, never the stored text; the operator's log
// names the game. Other games go on.
func TestDamagedGame(t *testing.T) {
	var logged bytes.Buffer
	h := newHarness(t, Options{Log: slog.New(slog.NewTextHandler(&logged, nil))})
	bad, good := h.newGame(`{"deal":"617","suits":1}`), h.newGame(`{"deal":"618","suits":1}`)
	webtest.Damage(t, h.path, `UPDATE games SET save = 'not a game' WHERE id = ?`, bad.ID)
	h.restart() // read back from the store, not from memory
	var e errorBody
	h.call("GET", "/api/games/"+bad.ID, "", http.StatusInternalServerError, &e)
	if !strings.Contains(e.Error, "damaged on the server") || strings.Contains(e.Error, "not a game") {
		t.Errorf("the damaged game answers %q, want it called damaged, without the stored text", e.Error)
	}
	if !strings.Contains(logged.String(), bad.ID) {
		t.Errorf("the log does not name the damaged game %s:\n%s", bad.ID, logged.String())
	}
	h.call("GET", "/api/games/"+good.ID, "", http.StatusOK, nil)
}

// TestSavesSameGame: asked with ?game=ID, the list marks the saves of that
// very game (its lineage: the game, and games opened from its saves), and
// no other save, not even one of the same deal with the same settings: a
// fresh deal of it is another game, whose save the page must not replace
// without asking. The answer to a save gives its time as the list does, to
// the millisecond.
func TestSavesSameGame(t *testing.T) {
	h := newHarness(t, Options{})
	a := h.newGame(`{"deal":"617","suits":1}`)
	h.cmd(a.ID, "auto 1", http.StatusOK)
	h.clk.advance(1234567 * time.Nanosecond) // a time with more than milliseconds
	var put saveSummary
	h.call("PUT", "/api/saves/a", `{"game":"`+a.ID+`"}`, 200, &put)
	b := h.newGame(`{"deal":"617","suits":1}`)
	var opened gameResponse
	h.call("POST", "/api/saves/a/open", "", 201, &opened)
	var list struct {
		Saves []saveSummary `json:"saves"`
	}
	for _, tc := range []struct {
		game string
		same bool
	}{{a.ID, true}, {opened.ID, true}, {b.ID, false}, {"", false}} {
		list.Saves = nil
		h.call("GET", "/api/saves?game="+tc.game, "", 200, &list)
		if len(list.Saves) != 1 || list.Saves[0].SameGame != tc.same {
			t.Errorf("game %q: %+v, want sameGame %v", tc.game, list.Saves, tc.same)
		}
	}
	if !list.Saves[0].Updated.Equal(put.Updated) {
		t.Errorf("the save answered updated %v, the list gives %v", put.Updated, list.Saves[0].Updated)
	}
	h.call("GET", "/api/saves?game=NOPE", "", 404, &errorBody{})
}

// TestNewGameRefusesLookAlikes: a new game's variant is read in any ASCII
// case only, and a look-alike is refused, quoted as the request writes
// it. Before, "SPİDER" and "arachnİd" (a dotted capital I) were taken for
// spider and arachnid.
func TestNewGameRefusesLookAlikes(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range [][2]string{
		{`{"variant":"SPİDER"}`, `variant "SPİDER"`},
		{`{"variant":"arachnİd"}`, `variant "arachnİd"`},
	} {
		var e errorBody
		h.call("POST", "/api/games", tc[0], 400, &e)
		if !strings.Contains(e.Error, tc[1]) {
			t.Errorf("%s: error %q, want it to quote %s", tc[0], e.Error, tc[1])
		}
	}
}

// TestSaveOverOldDecomposedName: a save whose name is not composed (NFC),
// stored before new names had to be, is saved over by its exact name, as
// it opens and deletes by it; a new decomposed name is still refused.
func TestSaveOverOldDecomposedName(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"deal":"617","suits":1}`)
	body := `{"game":"` + r.ID + `"}`
	h.call("PUT", "/api/saves/first", body, 200, nil) // the player's cookie
	old, err := h.db.Save(context.Background(), h.player(), "first")
	if err != nil {
		t.Fatal(err)
	}
	old.Name = "cafe\u0301"
	if err := h.db.PutSave(context.Background(), old); err != nil {
		t.Fatal(err)
	}
	h.cmd(r.ID, "deal", http.StatusOK)
	var got saveSummary
	h.call("PUT", "/api/saves/"+url.PathEscape("cafe\u0301"), body, 200, &got)
	if got.Name != "cafe\u0301" || got.Moves != 1 {
		t.Errorf("the old save saved over as %+v, want its name kept and 1 move", got)
	}
	var e errorBody
	// The same name composed, from a client that did not look at the
	// list first (the page does): told, not made a twin.
	h.call("PUT", "/api/saves/"+url.PathEscape("caf\u00e9"), body, 409, &e)
	if !strings.Contains(e.Error, "written another way") {
		t.Errorf("the composed twin refused with %q, want the other form named", e.Error)
	}
	// Both forms stored before the rule: the composed one is saved over
	// by its exact name, as the page does.
	old.Name = "caf\u00e9"
	if err := h.db.PutSave(context.Background(), old); err != nil {
		t.Fatal(err)
	}
	h.call("PUT", "/api/saves/"+url.PathEscape("caf\u00e9"), body, 200, nil)
	h.call("PUT", "/api/saves/"+url.PathEscape("nai\u0308ve"), body, 400, &e)
	if !strings.Contains(e.Error, "composed form (NFC)") {
		t.Errorf("a new decomposed name refused with %q, want the NFC rule", e.Error)
	}
}

// TestSaveNameForms: "café" written with é as one character or as e and
// a combining accent looks the same: only the composed form (NFC) is
// taken for a new save, so the two never make two saves; bytes that are
// not UTF-8 are told as such, not as a length.
func TestSaveNameForms(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.newGame(`{"deal":"617","suits":1}`)
	body := `{"game":"` + r.ID + `"}`
	h.call("PUT", "/api/saves/"+url.PathEscape("caf\u00e9"), body, 200, nil)
	var e errorBody
	h.call("PUT", "/api/saves/"+url.PathEscape("cafe\u0301"), body, 400, &e)
	if !strings.Contains(e.Error, "composed form (NFC)") {
		t.Errorf("decomposed name refused with %q, want the NFC rule", e.Error)
	}
	h.call("PUT", "/api/saves/caf%FF", body, 400, &e)
	if e.Error != "a save's name must be UTF-8 text; this one holds bytes that are not" {
		t.Errorf("invalid UTF-8 refused with %q, want it said as such", e.Error)
	}
	var list struct {
		Saves []saveSummary `json:"saves"`
	}
	h.call("GET", "/api/saves", "", 200, &list)
	if len(list.Saves) != 1 || list.Saves[0].Name != "caf\u00e9" {
		t.Errorf("saves %+v, want the one composed café", list.Saves)
	}
}
