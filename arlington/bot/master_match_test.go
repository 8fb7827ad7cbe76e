package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"cardtable/arlington"
)

// masterBefore is master as it was before the others' moves were grown by
// the play-out policy and the root candidates given a floor of visits
// (docs/bots.md, "The joker given away"): for the positions' tests and
// the match against the master of now, nothing else.
func masterBefore(lv Level, seed uint64) *Master {
	m := newMaster(lv, seed)
	m.policyOthers, m.rootFloor = false, false
	return m
}

// TestMasterMatch is a measurement, not a check: with
// CARDTABLE_MASTER_MATCH="PLAYERS FIRST LAST" it plays master against the
// master of before on the duplicate deals FIRST to LAST (each deal once
// per rotation of the seats, seat i of rotation r holding bot (i+r) mod
// n, the bots seeded as the selfplay command seeds them), both with
// their whole budget and no time bound, so that the machine's load
// cannot change a decision, and prints a JSON line a deal: its games and
// the new master's wins and final points summed over them, and the
// others' mean points. docs/bots.md has the figures and the command.
func TestMasterMatch(t *testing.T) {
	spec := os.Getenv("CARDTABLE_MASTER_MATCH")
	if spec == "" {
		t.Skip("a measurement: set CARDTABLE_MASTER_MATCH=\"PLAYERS FIRST LAST\" to play it")
	}
	var players int
	var first, last uint64
	if _, err := fmt.Sscan(spec, &players, &first, &last); err != nil || players < 2 || players > arlington.MaxSeats || last < first {
		t.Fatalf("CARDTABLE_MASTER_MATCH=%q: want PLAYERS FIRST LAST (%v)", spec, err)
	}
	lv := masterLevel
	lv.Time = 0
	for seed := first; seed <= last; seed++ {
		type deal struct {
			Seed      uint64  `json:"seed"`
			Games     int     `json:"games"`
			Wins      float64 `json:"wins"`
			Points    int     `json:"points"`
			OldPoints float64 `json:"oldPoints"`
		}
		d := deal{Seed: seed}
		for r := range players {
			seats := make([]Bot, players)
			for i := range players {
				bs := SeatSeed(seed^0x5eed_b075, r*players+i)
				if (i+r)%players == 0 {
					seats[i] = newMaster(lv, bs)
				} else {
					seats[i] = masterBefore(lv, bs)
				}
			}
			s, err := Play(context.Background(), arlington.Config{Players: players}, seed, seats, Check)
			if err != nil {
				t.Fatal(err)
			}
			me := (players - r) % players // the seat holding bot 0
			d.Games++
			for _, w := range s.Winners() {
				if w == me {
					d.Wins += 1 / float64(len(s.Winners()))
				}
			}
			for seat, x := range s.Totals() {
				if seat == me {
					d.Points += x
				} else {
					d.OldPoints += float64(x) / float64(players-1)
				}
			}
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(string(b))
	}
}
