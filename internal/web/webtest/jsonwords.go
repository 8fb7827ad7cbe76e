package webtest

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// wrongKinds are JSON values of every kind; each field is sent each one,
// and those its kind refuses must be refused in the request's words.
var wrongKinds = []string{`"x"`, `1.5`, `1e400`, `-1`, `true`, `[1]`, `["x"]`, `{"x":1}`}

// goWords finds Go's names in a message: a capitalised identifier (JSON
// aside), a Go type or keyword, a dotted Go name.
var goWords = regexp.MustCompile(`\b(?:[A-Z][A-Za-z0-9]*|struct|plain|u?int(?:8|16|32|64)?|float(?:32|64)|Go|interface|[a-z]+web\.|table\.|arlington\.|spider\.|map\[)`)

// cardWord is a card as the messages write one (KS, 10H, JK), not a Go name.
var cardWord = regexp.MustCompile(`^(?:[0-9]{1,2}|[AKQJT])[SHDCK]$`)

// CheckJSONWords sends decode, for every field of v's type (a struct;
// nested objects and embedded structs followed, named as the JSON names
// them), a value of each JSON kind, and fails t where the refusal says
// a Go name instead of the request's own words.
func CheckJSONWords(t *testing.T, v any, decode func(body []byte) error) {
	t.Helper()
	paths := jsonPaths(reflect.TypeOf(v), nil, 0)
	if len(paths) == 0 {
		t.Fatalf("%T: no fields to check", v)
	}
	for _, p := range paths {
		for _, value := range wrongKinds {
			body := value
			for i := len(p) - 1; i >= 0; i-- {
				body = `{"` + p[i] + `":` + body + `}`
			}
			err := decode([]byte(body))
			if err == nil {
				continue
			}
			msg := err.Error()
			for _, w := range goWords.FindAllString(msg, -1) {
				if w != "JSON" && !cardWord.MatchString(w) {
					t.Errorf("%s: %q says %q", body, msg, w)
					break
				}
			}
		}
	}
}

// jsonPaths lists the JSON key paths of t's fields, as encoding/json
// reads them.
func jsonPaths(t reflect.Type, prefix []string, depth int) [][]string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || depth > 4 {
		return nil
	}
	var out [][]string
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && tag == "" && ft.Kind() == reflect.Struct {
			out = append(out, jsonPaths(ft, prefix, depth+1)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		p := append(append([]string(nil), prefix...), tag)
		out = append(out, p)
		if !reflect.PointerTo(ft).Implements(reflect.TypeFor[json.Unmarshaler]()) {
			out = append(out, jsonPaths(ft, p, depth+1)...)
		}
	}
	return out
}
