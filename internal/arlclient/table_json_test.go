package arlclient

import (
	"encoding/json"
	"testing"
)

// A table summary of the previous release (turn_seconds, open_seats) reads
// as one with the lowerCamel keys.
func TestTableOldKeys(t *testing.T) {
	for _, doc := range []string{
		`{"id":"A","players":3,"turnSeconds":-1,"openSeats":2,"status":"open"}`,
		`{"id":"A","players":3,"turn_seconds":-1,"open_seats":2,"status":"open"}`,
	} {
		var tb Table
		if err := json.Unmarshal([]byte(doc), &tb); err != nil {
			t.Fatal(err)
		}
		if tb.ID != "A" || tb.Players != 3 || tb.TurnSeconds != -1 || tb.OpenSeats != 2 || tb.Status != "open" {
			t.Errorf("%s: read as %+v", doc, tb)
		}
	}
}
