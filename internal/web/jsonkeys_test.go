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

// TestDecodeJSONKeyTwice: a key an object gives twice, in any ASCII case
// where a struct reads it, at any depth, is a 400 naming it, as on the
// WebSocket; a map's keys that differ in case are two keys, kept.
func TestDecodeJSONKeyTwice(t *testing.T) {
	type inner struct {
		Name string `json:"name"`
	}
	type body struct {
		Cmd  string            `json:"cmd"`
		In   inner             `json:"in"`
		List []inner           `json:"list"`
		Tags map[string]string `json:"tags"`
	}
	for in, want := range map[string]string{
		`{"cmd":"deal","cmd":"undo"}`:                    `bad JSON: key "cmd" given twice`,
		`{"cmd":"deal","CMD":"undo"}`:                    `bad JSON: key "CMD" given twice`,
		`{"in":{"name":"a","Name":"b"}}`:                 `bad JSON: key "Name" given twice`,
		`{"list":[{"name":"a"},{"name":"a","NAME":""}]}`: `bad JSON: key "NAME" given twice`,
		`{"tags":{"a":"1","a":"2"}}`:                     `bad JSON: key "a" given twice`,
	} {
		err := DecodeJSON([]byte(in), &body{})
		if !errors.Is(err, ErrBadRequest) || err.Error() != want {
			t.Errorf("%s: %v; want a 400, %q", in, err, want)
		}
	}
	var b body
	if err := DecodeJSON([]byte(`{"cmd":"deal","in":{"name":"x"},"list":[{"name":"a"},{"name":"b"}],"tags":{"a":"1","A":"2"}}`), &b); err != nil ||
		b.Tags["a"] != "1" || b.Tags["A"] != "2" || len(b.List) != 2 {
		t.Fatalf("no key twice: %v %+v", err, b)
	}
}
