package web

// Words for a JSON body that does not decode: encoding/json's own name
// Go types and struct fields ("Go struct field commandRequest.version of
// type int64"), which say nothing to the player the message is for.

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode"
)

// jsonWords says what is wrong with a body that failed to decode into v,
// in the request's own terms: the field named as it is in the JSON, and
// what kind of value it takes.
func jsonWords(err error, v any) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return "bad JSON: " + strings.TrimPrefix(err.Error(), "json: ")
	}
	if te.Field == "" {
		if k := deref(te.Type).Kind(); k == reflect.Struct || k == reflect.Map {
			return "the request must be a JSON object"
		}
		return "the request must be " + kindWords(te.Type, te.Value)
	}
	// te.Type is the innermost type that refused the value (for a list
	// given a list of the wrong things, the list's element): a list field
	// is named as a list of what it holds either way.
	field, ft, ok := fieldPath(reflect.TypeOf(v), te.Field)
	want := kindWords(te.Type, te.Value)
	if ok {
		switch ft = deref(ft); {
		case ft.Name() != "" && (reflect.PointerTo(ft).Implements(textUnmarshaler) || reflect.PointerTo(ft).Implements(jsonUnmarshaler)):
			want, _ = valueNames(ft, "") // a list that reads itself names what it holds
		case ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array:
			value := "" // the list itself was of the wrong kind
			if deref(te.Type) == deref(ft.Elem()) {
				value = te.Value // an element was: say what each must be
			}
			_, many := valueNames(ft.Elem(), value)
			want = "a list of " + many
		}
	}
	return fmt.Sprintf("%q must be %s", field, want)
}

// kindWords names the kind of JSON value t takes; value is what was
// given instead (json.UnmarshalTypeError.Value: "string", "number 1.5").
func kindWords(t reflect.Type, value string) string {
	one, _ := valueNames(t, value)
	return one
}

// valueNames names the value t takes, as one and as many ("a string",
// "strings"). A named type that reads itself from a string (a card) is
// named by its own name ("a card", "cards"), not by the Go kind it is
// kept in.
func valueNames(t reflect.Type, value string) (one, many string) {
	t = deref(t)
	if t == nil {
		return "another kind of value", "values of another kind"
	}
	if t.Name() != "" && (reflect.PointerTo(t).Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler)) {
		name := typeWords(t.Name())
		if k := t.Kind(); k == reflect.Slice || k == reflect.Array {
			return "a list of " + name, "lists of " + name // Cards: "a list of cards"
		}
		article := "a "
		if strings.ContainsRune("aeiou", rune(name[0])) {
			article = "an "
		}
		return article + name, name + "s"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if strings.HasPrefix(value, "number") {
			return "a whole number within range", "whole numbers within range"
		}
		return "a number", "numbers"
	case reflect.Float32, reflect.Float64:
		if strings.HasPrefix(value, "number") { // a number out of range (1e400)
			return "a number within range", "numbers within range"
		}
		return "a number", "numbers"
	case reflect.String:
		return "a string", "strings"
	case reflect.Bool:
		return "true or false", "true or false values"
	case reflect.Slice, reflect.Array:
		return "a list", "lists"
	case reflect.Struct, reflect.Map:
		return "a JSON object", "JSON objects"
	}
	return "another kind of value", "values of another kind"
}

var (
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

// typeWords makes a Go type's name words: "CardSet" is "card set", and
// a run of capitals is one word ("ID" is "id", "URLPath" "url path").
func typeWords(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// fieldPath turns the field path json.UnmarshalTypeError.Field holds
// (dotted) into the one the request sends, and finds the Go type at its
// end in t. encoding/json puts the Go name of an embedded struct in the
// path ("plain.players" for a type that decodes itself through an
// embedded copy of itself): a step that names no field of the struct
// reached is such a name and is left out, and a field promoted from an
// embedded struct is found where the JSON has it. Names match as
// encoding/json matches them: by the json tag or the field's name,
// without regard to case. A path through a map or a list is kept as it
// is, its type unknown.
func fieldPath(t reflect.Type, path string) (string, reflect.Type, bool) {
	steps := strings.Split(path, ".")
	var out []string
	for i, name := range steps {
		t = deref(t)
		if t == nil || t.Kind() != reflect.Struct {
			return strings.Join(append(out, steps[i:]...), "."), nil, false
		}
		f, ok := jsonField(t, name)
		switch {
		case ok:
			out = append(out, f.name)
			t = f.typ
		case i+1 < len(steps):
			// a Go type's name: the same JSON object goes on
		default:
			return strings.Join(append(out, name), "."), nil, false
		}
	}
	return strings.Join(out, "."), t, true
}

type namedField struct {
	name string
	typ  reflect.Type
}

// jsonField finds the field the JSON key name decodes into in the
// struct t, looking into embedded structs without a json name as
// encoding/json does (the shallower field first).
func jsonField(t reflect.Type, name string) (namedField, bool) {
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" {
			if et := deref(f.Type); et.Kind() == reflect.Struct {
				embedded = append(embedded, et)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		if strings.EqualFold(tag, name) {
			return namedField{tag, f.Type}, true
		}
	}
	for _, et := range embedded {
		if f, ok := jsonField(et, name); ok {
			return f, true
		}
	}
	return namedField{}, false
}

func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
