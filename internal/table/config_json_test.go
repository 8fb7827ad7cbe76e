package table_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"cardtable/internal/table"
)

// A table stored by the release before lowerCamel keys (its config JSON
// says turn_seconds and stand_in) still loads from the database, with its
// settings; one stored with the new keys too.
func TestStoredConfigOldKeysLoad(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, filepath.Join(t.TempDir(), "cardtable.db"))
	defer db.Close()
	now := time.Now().UTC()
	for id, cfg := range map[string]string{
		"OLDKEYS": `{"players":2,"target":20,"bots":["","random"],"turn_seconds":45,"stand_in":"easy"}`,
		"NEWKEYS": `{"players":2,"target":20,"bots":["","random"],"turnSeconds":45,"standIn":"easy"}`,
	} {
		rec := table.Stored{ID: id, Creator: "p", Config: cfg, Seed: 7, Seats: make([]table.StoredSeat, 2),
			Status: table.StatusOpen, Created: now, Updated: now}
		if err := db.CreateTable(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	h, err := table.NewHub(ctx, table.Options{Store: db, Bots: newBot, Clock: newFakeClock(), BotTime: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, id := range []string{"OLDKEYS", "NEWKEYS"} {
		tb, err := h.Table(id)
		if err != nil {
			t.Fatalf("%s: not restored: %v", id, err)
		}
		if s := tb.Summary(); s.TurnSeconds != 45 || s.Target != 20 || s.Players != 2 {
			t.Errorf("%s: restored as %+v", id, s)
		}
	}
}

func TestConfigJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want table.Config
		bad  bool
	}{
		{in: `{"players":3,"turnSeconds":-1,"standIn":"hard"}`, want: table.Config{Players: 3, TurnSeconds: -1, StandIn: "hard"}},
		{in: `{"players":3,"turn_seconds":-1,"stand_in":"hard"}`, want: table.Config{Players: 3, TurnSeconds: -1, StandIn: "hard"}},
		{in: `{"players":3,"turnSeconds":30,"turn_seconds":-1}`, want: table.Config{Players: 3, TurnSeconds: 30}},
		{in: `{"players":3,"timer":5}`, bad: true}, // unknown keys stay refused
	} {
		t.Run(tc.in, func(t *testing.T) {
			var c table.Config
			err := json.Unmarshal([]byte(tc.in), &c)
			if tc.bad {
				if err == nil {
					t.Fatalf("accepted as %+v", c)
				}
				return
			}
			if err != nil || c.Players != tc.want.Players || c.TurnSeconds != tc.want.TurnSeconds || c.StandIn != tc.want.StandIn {
				t.Errorf("%+v, %v; want %+v", c, err, tc.want)
			}
			out, _ := json.Marshal(c)
			var keys map[string]any
			_ = json.Unmarshal(out, &keys)
			if _, old := keys["turn_seconds"]; old || keys["turnSeconds"] == nil {
				t.Errorf("written as %s", out)
			}
		})
	}
}
