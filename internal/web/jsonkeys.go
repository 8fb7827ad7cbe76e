package web

// The JSON API's object keys are read in ASCII case only, as the project
// reads words and cards everywhere else: encoding/json matches a key to
// a field with Unicode's case folding, so "ſuits" (a long s) or "\u212Aind"
// (the Kelvin sign) was read as "suits" or "kind". Those two are the only
// letters outside ASCII that fold to one in it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"cardtable/internal/ascii"
)

// CheckKeys refuses a key of the JSON value b that encoding/json would
// read into a field of v (a pointer to the value decoded) only by
// Unicode's case folding, not by ASCII's; its error says the key is
// unknown, as encoding/json says of a key no field takes. b must have
// decoded into v already (DecodeJSON): a key of an object read into a
// map, or into a value of no known type, is left alone.
func CheckKeys(b []byte, v any) error {
	var doc any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return nil // the decode into v says what is wrong
	}
	if k, ok := foldedKey(doc, reflect.TypeOf(v)); ok {
		return fmt.Errorf("bad JSON: unknown field %q", k)
	}
	return nil
}

// foldedKey finds a key of doc (decoded as any) that matches a field of
// the struct t, where it is read, by Unicode case folding only.
func foldedKey(doc any, t reflect.Type) (string, bool) {
	t = deref(t)
	if t == nil {
		return "", false
	}
	switch doc := doc.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			for k, val := range doc {
				f, ok := asciiField(t, k)
				if !ok {
					if _, folds := jsonField(t, k); folds {
						return k, true
					}
					continue
				}
				if k, ok := foldedKey(val, f.typ); ok {
					return k, true
				}
			}
		case reflect.Map:
			for _, val := range doc {
				if k, ok := foldedKey(val, t.Elem()); ok {
					return k, true
				}
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for _, val := range doc {
				if k, ok := foldedKey(val, t.Elem()); ok {
					return k, true
				}
			}
		}
	}
	return "", false
}

// asciiField is jsonField with keys matched in ASCII case only.
func asciiField(t reflect.Type, name string) (namedField, bool) {
	f, ok := jsonField(t, name)
	if !ok || !SameKey(f.name, name) {
		return namedField{}, false
	}
	return f, true
}

// SameKey reports whether two JSON keys are the same in ASCII case only
// ("Suits" is "suits"; "ſuits" is not).
func SameKey(a, b string) bool { return ascii.Equal(a, b) }

// DuplicateKey finds a key that one object of the JSON value b gives
// twice, at any depth: encoding/json keeps the last of two, so {"cmd":
// "deal", "CMD": "undo"} undid a move where the request also said deal.
// An object read into a struct (v's type, followed down its fields)
// compares its keys in ASCII case, as they are matched to fields; one
// read into a map, or of no known type, compares them exactly (a map's
// keys are the client's own words). b must have decoded into v already.
func DuplicateKey(b []byte, v any) (string, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	k, err := dupIn(d, reflect.TypeOf(v))
	return k, err == nil && k != ""
}

// dupIn reads one value from d, of type t (nil: unknown), and returns
// the first key some object in it gives twice ("" for none).
func dupIn(d *json.Decoder, t reflect.Type) (string, error) {
	tok, err := d.Token()
	if err != nil {
		return "", err
	}
	t = deref(t)
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return "", err
			}
			k, _ := kt.(string)
			key, field := k, reflect.Type(nil)
			switch {
			case t != nil && t.Kind() == reflect.Struct:
				key = ascii.Lower(k)
				if f, ok := asciiField(t, k); ok {
					field = f.typ
				}
			case t != nil && t.Kind() == reflect.Map:
				field = t.Elem()
			}
			if seen[key] {
				return k, nil
			}
			seen[key] = true
			if dup, err := dupIn(d, field); dup != "" || err != nil {
				return dup, err
			}
		}
		_, err = d.Token() // '}'
		return "", err
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for d.More() {
			if dup, err := dupIn(d, elem); dup != "" || err != nil {
				return dup, err
			}
		}
		_, err = d.Token() // ']'
		return "", err
	}
	return "", nil
}
