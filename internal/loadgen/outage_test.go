package loadgen

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// TestSeeEvents: a view ends the outage before it (the table is served
// again); a table moving on ends every outage since it last moved on (a
// connection may end twice before it does); and a view from the start
// that lacks or changes an event seen before is counted lost.
func TestSeeEvents(t *testing.T) {
	ev := func(n int) json.RawMessage { return json.RawMessage(`{"n":` + strconv.Itoa(n) + `}`) }
	evs := func(from, to int) []json.RawMessage {
		var e []json.RawMessage
		for n := from; n < to; n++ {
			e = append(e, ev(n))
		}
		return e
	}
	t0 := time.Unix(100, 0)
	r := &arlRun{}
	p := &person{t: &arlTable{id: "x"}}
	p.seeEvents(r, 0, 3, evs(0, 3), t0)
	p.outages = append(p.outages, Outage{Ended: t0, EventsBeforeLoss: p.have})
	p.seeEvents(r, 0, 3, evs(0, 3), t0.Add(time.Second)) // back, not moved on
	p.outages = append(p.outages, Outage{Ended: t0.Add(2 * time.Second), EventsBeforeLoss: p.have})
	p.seeEvents(r, 0, 3, evs(0, 3), t0.Add(3*time.Second))
	moved := t0.Add(4 * time.Second)
	p.seeEvents(r, 3, 4, evs(3, 4), moved)
	for i, o := range p.outages {
		if !o.MovedOn.Equal(moved) {
			t.Fatalf("outage %d: moved on at %v, want %v", i, o.MovedOn, moved)
		}
		if want := t0.Add(time.Duration(2*i+1) * time.Second); !o.Served.Equal(want) {
			t.Fatalf("outage %d: served again at %v, want %v", i, o.Served, want)
		}
	}
	if r.lost.Load() != 0 {
		t.Fatalf("%d lost, want 0", r.lost.Load())
	}
	p.seeEvents(r, 0, 3, evs(0, 3), moved) // a view from the start with fewer events
	changed := evs(0, 4)
	changed[3] = json.RawMessage(`{"n":9}`)
	p.seeEvents(r, 0, 4, changed, moved) // the last one seen, changed
	if r.lost.Load() != 2 {
		t.Fatalf("%d lost, want 2", r.lost.Load())
	}
}
