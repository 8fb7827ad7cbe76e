package spiderweb

import (
	"reflect"
	"testing"
)

// TestLoadByteOrderMark: a save file with a UTF-8 byte-order mark first
// (an editor's "UTF-8 with BOM") loads through POST /api/games/load as
// the same game as without it, as the page and the terminal load it.
func TestLoadByteOrderMark(t *testing.T) {
	h := newHarness(t, Options{})
	var plain, marked gameResponse
	h.call("POST", "/api/games/load", nearWon, 201, &plain)
	h.call("POST", "/api/games/load", "\ufeff"+nearWon, 201, &marked)
	if !reflect.DeepEqual(marked.View, plain.View) {
		t.Fatalf("with the mark %+v, without %+v", marked.View, plain.View)
	}
}
