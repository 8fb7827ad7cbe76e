package spidergame

import (
	"strconv"
	"testing"
	"time"
)

// TestSeenMemoBounded: the identities a server remembers recording today
// stay at most seenMemoMax under a stream of new ones, and a new day
// starts afresh, so each identity is written again once a day.
func TestSeenMemoBounded(t *testing.T) {
	var m seenMemo
	now := time.Date(2030, 1, 1, 10, 0, 0, 0, time.UTC)
	if m.recorded("a", now) {
		t.Fatal("an identity never marked is taken as recorded")
	}
	m.mark("a", now)
	if !m.recorded("a", now.Add(time.Hour)) {
		t.Fatal("an identity marked is not taken as recorded later the same day")
	}
	if m.recorded("a", now.Add(24*time.Hour)) {
		t.Fatal("an identity is not recorded again the next day")
	}
	for i := range 2*seenMemoMax + 10 {
		m.mark(strconv.Itoa(i), now.Add(24*time.Hour))
		if len(m.ids) > seenMemoMax {
			t.Fatalf("%d identities remembered, past %d", len(m.ids), seenMemoMax)
		}
	}
}
