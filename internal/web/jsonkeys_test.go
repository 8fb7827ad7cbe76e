package web

import (
	"errors"
	"testing"
)

// TestDecodeJSONKeysInASCIICase: DecodeJSON reads a key in any ASCII case
// ("SUITS", nested "Name") and refuses one that only Unicode's folding
// makes a field's ("ſuits", "\u212Aeep") as an unknown field; a map's keys
// are the client's own words, any letters kept.
func TestDecodeJSONKeysInASCIICase(t *testing.T) {
	type inner struct {
		Name string `json:"name"`
		Keep bool   `json:"keep"`
	}
	type body struct {
		Suits int               `json:"suits"`
		In    inner             `json:"in"`
		List  []inner           `json:"list"`
		Tags  map[string]string `json:"tags"`
	}
	var b body
	if err := DecodeJSON([]byte(`{"SUITS":2,"In":{"NAME":"x"},"tags":{"ſuits":"kept"}}`), &b); err != nil ||
		b.Suits != 2 || b.In.Name != "x" || b.Tags["ſuits"] != "kept" {
		t.Fatalf("keys in ASCII capitals, a map's own key: %v %+v", err, b)
	}
	for in, want := range map[string]string{
		`{"ſuits":2}`:                                `bad JSON: unknown field "ſuits"`,
		`{"in":{"\u212aeep":true}}`:                  `bad JSON: unknown field "` + "\u212a" + `eep"`,
		`{"list":[{"name":"a"},{"\u212aeep":true}]}`: `bad JSON: unknown field "` + "\u212a" + `eep"`,
		`{"liſt":[]}`:                                `bad JSON: unknown field "liſt"`,
	} {
		err := DecodeJSON([]byte(in), &body{})
		if !errors.Is(err, ErrBadRequest) || err.Error() != want {
			t.Errorf("%s: %v; want a 400, %q", in, err, want)
		}
	}
}
