package web

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// playingCard reads itself from a string, as the games' cards do.
type playingCard int

func (c *playingCard) UnmarshalText(b []byte) error { *c = playingCard(len(b)); return nil }

// deckCards is a list of cards that reads itself from strings, as
// arlington.Cards does.
type deckCards []uint8

func (d *deckCards) UnmarshalJSON(b []byte) error {
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	*d = make(deckCards, len(ss))
	return nil
}

// TestDecodeJSONWords: a body whose values are of the wrong kind is
// refused as a bad request in the request's own terms (the field as the
// JSON names it, the kind of value it takes), never in Go's (struct
// names, field paths, Go types).
func TestDecodeJSONWords(t *testing.T) {
	type inner struct {
		On bool `json:"on"`
	}
	type request struct {
		Hand    []playingCard `json:"hand"`
		Deck    deckCards     `json:"deck"`
		Cmd     string        `json:"cmd"`
		Version int64         `json:"version"`
		Cards   []string      `json:"cards"`
		Scale   float64       `json:"scale"`
		Opt     *inner        `json:"opt"`
	}
	for _, tc := range []struct{ body, want string }{
		{`{"cmd":"deal","version":"x"}`, `"version" must be a number`},
		{`{"version":1.5}`, `"version" must be a whole number within range`},
		{`{"version":99999999999999999999}`, `"version" must be a whole number within range`},
		{`[]`, `the request must be a JSON object`},
		{`"deal"`, `the request must be a JSON object`},
		{`{"cards":"KS"}`, `"cards" must be a list of strings`},
		{`{"cards":[1]}`, `"cards" must be a list of strings`},
		{`{"cmd":7}`, `"cmd" must be a string`},
		// A type that reads itself from a string is named by its name.
		{`{"hand":"KS"}`, `"hand" must be a list of playing cards`},
		{`{"hand":[7]}`, `"hand" must be a list of playing cards`},
		// So is a list that reads itself (the games' lists of cards).
		{`{"deck":"KS"}`, `"deck" must be a list of deck cards`},
		{`{"scale":"big"}`, `"scale" must be a number`},
		{`{"opt":{"on":"yes"}}`, `"opt.on" must be true or false`},
		{`{"opt":[]}`, `"opt" must be a JSON object`},
		{`{"colour":"red"}`, `bad JSON: unknown field "colour"`},
		{`{"cmd":`, `bad JSON: unexpected EOF`},
	} {
		var v request
		err := DecodeJSON([]byte(tc.body), &v)
		if !errors.Is(err, ErrBadRequest) {
			t.Errorf("%s: %v, not a bad request", tc.body, err)
			continue
		}
		if msg := err.Error(); !strings.HasSuffix(msg, tc.want) || strings.Contains(msg, "Go ") || strings.Contains(msg, "request.") || strings.Contains(msg, "int64") {
			t.Errorf("%s: %q, want %q", tc.body, msg, tc.want)
		}
	}
	var m map[string]int
	if err := DecodeJSON([]byte(`[1]`), &m); err == nil || !strings.HasSuffix(err.Error(), "the request must be a JSON object") {
		t.Errorf("a list for a map: %v", err)
	}
}

// TestDecodeJSONWordsNumbersAndNames: a list of whole numbers given a
// fraction says its elements must be whole numbers; a number out of
// range says so; a type named in capitals is one word.
func TestDecodeJSONWordsNumbersAndNames(t *testing.T) {
	var v struct {
		IDs   []int   `json:"ids"`
		Scale float64 `json:"scale"`
	}
	for body, want := range map[string]string{
		`{"ids":[1.5]}`:   `"ids" must be a list of whole numbers within range`,
		`{"ids":"x"}`:     `"ids" must be a list of numbers`,
		`{"scale":1e400}`: `"scale" must be a number within range`,
	} {
		if err := DecodeJSON([]byte(body), &v); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	for name, want := range map[string]string{"ID": "id", "URLPath": "url path", "CardSet": "card set"} {
		if got := typeWords(name); got != want {
			t.Errorf("typeWords(%q) = %q, want %q", name, got, want)
		}
	}
}
