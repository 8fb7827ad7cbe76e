package spiderweb

import (
	"fmt"
	"net/http"
	"testing"

	"cardtable/internal/web/webtest"
)

// BenchmarkCommand is the cost of one move (the HTTP handler, the engine and
// the store, stored before the answer) on a game already 10 or 10,000 moves
// long: storing a move appends a row, so the two should cost the same.
// Snapshots (one per max(1000, length) commands) are in the figure when
// the run is long enough:
//
//	go test -run '^$' -bench Command -benchtime 20000x ./internal/web
func BenchmarkCommand(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("moves=%d", n), func(b *testing.B) {
			h := newHarness(b, Options{})
			id := h.upload(webtest.ShuttleSave(n)).ID
			path := "/api/games/" + id + "/commands"
			i := n
			for b.Loop() {
				code, body, _ := h.do("POST", path, `{"cmd":"`+webtest.ShuttleMove(i)+`"}`)
				if code != http.StatusOK {
					b.Fatalf("move %d: %d %s", i, code, body)
				}
				i++
			}
		})
	}
}
