package arlington

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// A view's keys are lowerCamel; a view or event with the previous
// release's snake_case keys reads the same (a client may meet an older
// server).
func TestViewJSONKeys(t *testing.T) {
	s, err := New(Config{Players: 3}, 11)
	if err != nil {
		t.Fatal(err)
	}
	// Play until a trick has been taken, so that events carry toHand and
	// toGrave.
	for i := 0; i < 200 && !s.Terminal(); i++ {
		seat := s.ToMove()
		if err := s.Apply(seat, s.Legal(seat)[0]); err != nil {
			t.Fatal(err)
		}
	}
	v := s.View(0)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if snake := regexp.MustCompile(`"[a-z]+_[a-z_]+":`).FindAllString(string(b), -1); len(snake) > 0 {
		t.Errorf("snake_case keys: %v", snake)
	}
	for _, k := range []string{`"handNumber":`, `"toMove":`, `"handSizes":`, `"graveKnown":`, `"eventsFrom":`, `"eventCount":`, `"toHand":`, `"toGrave":`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("no %s in the view", k)
		}
	}
	old := strings.NewReplacer(`"handNumber":`, `"hand_number":`, `"toMove":`, `"to_move":`, `"handSizes":`, `"hand_sizes":`,
		`"graveKnown":`, `"grave_known":`, `"eventsFrom":`, `"events_from":`, `"eventCount":`, `"event_count":`,
		`"toHand":`, `"to_hand":`, `"toGrave":`, `"to_grave":`).Replace(string(b))
	for _, doc := range []string{string(b), old} {
		var got View
		if err := json.Unmarshal([]byte(doc), &got); err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(got)
		if !reflect.DeepEqual(again, b) {
			t.Errorf("read back differently:\n%s\nwant\n%s", again, b)
		}
	}
}
