package webtest

import (
	"reflect"
	"strings"
	"testing"
)

// unicodeFolds are the letters outside ASCII that Unicode's case folding
// makes ASCII letters: the long s and the Kelvin sign.
var unicodeFolds = strings.NewReplacer("s", "ſ", "S", "ſ", "k", "\u212a", "K", "\u212a")

// CheckKeyCase sends decode, for every field of v's type (as
// CheckJSONWords finds them), the field's key with its ASCII letters
// made capitals, which must be read as the field, and the key with an s
// or a k written as a letter outside ASCII that Unicode folds to it
// ("ſuits", "\u212Aind"), which must be refused as an unknown field: the
// API reads keys in ASCII case only. Each value sent is null, which a
// field of any kind takes. It returns how many keys had an s or a k to
// write so; the caller checks some did.
func CheckKeyCase(t *testing.T, v any, decode func(body []byte) error) int {
	t.Helper()
	folded := 0
	for _, p := range jsonPaths(reflect.TypeOf(v), nil, 0) {
		last := p[len(p)-1]
		body := func(key string) []byte {
			b := `{"` + key + `":null}`
			for i := len(p) - 2; i >= 0; i-- {
				b = `{"` + p[i] + `":` + b + `}`
			}
			return []byte(b)
		}
		if b := body(strings.ToUpper(last)); decode(b) != nil && strings.Contains(decode(b).Error(), "unknown field") {
			t.Errorf("%s: %v; want the key read in any ASCII case", b, decode(b))
		}
		odd := unicodeFolds.Replace(last)
		if odd == last {
			continue
		}
		folded++
		if b := body(odd); decode(b) == nil || !strings.Contains(decode(b).Error(), `unknown field "`+odd+`"`) {
			t.Errorf("%s: %v; want it refused as an unknown field", b, decode(b))
		}
	}
	return folded
}
