package spiderweb

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSettingsRevision: a settings write carries the page's revision
// ("rev"); one older than the settings kept is not stored, and is answered
// 200 with the kept ones (the page compares them with what it sent); a
// write with no revision (a page from before revisions) is stored. A
// revision that is no whole number from 0 to the bound is refused 400
// with the reason, and changes nothing.
func TestSettingsRevision(t *testing.T) {
	// A clock past the revisions written, so that none is clamped.
	h := newHarness(t, Options{Now: func() time.Time { return time.UnixMilli(1900000000000) }})
	put := func(body, want string) {
		t.Helper()
		if b := strings.TrimSpace(string(h.call("PUT", "/api/settings", body, 200, nil))); b != want {
			t.Errorf("PUT %s answered %s, want %s", body, b, want)
		}
		if b := strings.TrimSpace(string(h.call("GET", "/api/settings", "", 200, nil))); b != want {
			t.Errorf("after PUT %s the server keeps %s, want %s", body, b, want)
		}
	}
	newer := `{"sound":true,"rev":1800000000002}`
	older := `{"sound":false,"rev":1800000000001}`
	put(newer, newer)
	put(older, newer) // the older write, landing last, is not stored
	put(newer, newer) // the same copy again
	for _, bad := range []string{
		`{"sound":false,"rev":"1800000000003"}`,
		`{"sound":false,"rev":1.5}`,
		`{"sound":false,"rev":1e13}`,
		`{"sound":false,"rev":-1}`,
		`{"sound":false,"rev":1000000000000001}`,
		`{"sound":false,"rev":99999999999999999999999}`,
		`{"sound":false,"rev":null}`,
		`{"sound":false,"rev":true}`,
	} {
		t.Run(bad, func(t *testing.T) {
			var e errorBody
			h.call("PUT", "/api/settings", bad, 400, &e)
			if !strings.Contains(e.Error, "rev must be a whole number from 0 to 1000000000000000") {
				t.Errorf("refusal %q does not say what the revision must be", e.Error)
			}
		})
	}
	if b := strings.TrimSpace(string(h.call("GET", "/api/settings", "", 200, nil))); b != newer {
		t.Errorf("refused writes changed the settings: %s, want %s", b, newer)
	}
	// The bound itself is taken, clamped to the server's time and a minute.
	put(`{"sound":false,"rev":1000000000000000}`, `{"sound":false,"rev":1900000060000}`)
	// No revision: stored, answered with the revision kept.
	put(`{"sound":true}`, `{"sound":true,"rev":1900000060000}`)
	h.restart()
	if b := strings.TrimSpace(string(h.call("GET", "/api/settings", "", 200, nil))); b != `{"sound":true,"rev":1900000060000}` {
		t.Errorf("after a restart the server keeps %s", b)
	}
}

// TestSettingsAnswerRev: what GET and PUT answer always carries the
// revision kept, so a write refused after one without a revision (a page
// from before revisions) is not answered with settings that look older
// than the write, which the page would take for its own stored.
func TestSettingsAnswerRev(t *testing.T) {
	now := time.UnixMilli(1800000000000)
	h := newHarness(t, Options{Now: func() time.Time { return now }})
	put := func(body, want string) {
		t.Helper()
		if b := strings.TrimSpace(string(h.call("PUT", "/api/settings", body, 200, nil))); b != want {
			t.Errorf("PUT %s answered %s, want %s", body, b, want)
		}
		if b := strings.TrimSpace(string(h.call("GET", "/api/settings", "", 200, nil))); b != want {
			t.Errorf("after PUT %s GET answers %s, want %s", body, b, want)
		}
	}
	if b := strings.TrimSpace(string(h.call("GET", "/api/settings", "", 200, nil))); b != `{}` {
		t.Errorf("no settings kept: GET answers %s, want {}", b)
	}
	put(`{"verbose":false,"rev":1800000030000}`, `{"verbose":false,"rev":1800000030000}`)
	put(`{"verbose":true}`, `{"verbose":true,"rev":1800000030000}`)
	// Older than the revision kept: refused, answered with what is kept.
	put(`{"sound":false,"rev":1800000000000}`, `{"verbose":true,"rev":1800000030000}`)
	put(`{"sound":false,"rev":1800000030001}`, `{"sound":false,"rev":1800000030001}`)
}

// TestSettingsRevClamped: a revision ahead of the server's clock by more
// than a minute (a device whose clock runs ahead, or a hand-made one) is
// taken as the server's time plus a minute, so a change made a little
// later on another device is still kept over it.
func TestSettingsRevClamped(t *testing.T) {
	t0 := time.UnixMilli(1800000000000)
	now := t0
	h := newHarness(t, Options{Now: func() time.Time { return now }})
	for _, tc := range []struct {
		at         time.Duration // the server's clock, past t0
		body, want string
	}{
		{0, `{"sound":false,"rev":1800003600000}`, `{"sound":false,"rev":1800000060000}`},              // an hour ahead
		{time.Minute / 2, `{"sound":true,"rev":1800000030000}`, `{"sound":false,"rev":1800000060000}`}, // older than the clamped one
		{2 * time.Minute, `{"sound":true,"rev":1800000120000}`, `{"sound":true,"rev":1800000120000}`},  // later: taken over it
		{2 * time.Minute, `{"sound":false,"rev":1000000000000000}`, `{"sound":false,"rev":1800000180000}`},
		{4 * time.Minute, `{"sound":true,"rev":1800000240000}`, `{"sound":true,"rev":1800000240000}`},
	} {
		now = t0.Add(tc.at)
		if b := strings.TrimSpace(string(h.call("PUT", "/api/settings", tc.body, 200, nil))); b != tc.want {
			t.Errorf("at %v PUT %s answered %s, want %s", tc.at, tc.body, b, tc.want)
		}
	}
}

// TestSettingsStoredWithoutRev: the revision is kept once, beside the
// settings: the JSON stored is the write's less its "rev" (wherever it
// stood, however often) and its spaces, whether the revision was taken
// as sent, clamped or absent; a "rev" inside another setting is no
// revision and stays. What is answered carries the revision kept, last.
func TestSettingsStoredWithoutRev(t *testing.T) {
	now := time.UnixMilli(1800000000000)
	h := newHarness(t, Options{Now: func() time.Time { return now }})
	ctx := context.Background()
	for _, tc := range []struct {
		body    string
		keptRev int64
		stored  string
		answer  string
	}{
		{`{"sound":true,"rev":1800000000002}`, 1800000000002, `{"sound":true}`, `{"sound":true,"rev":1800000000002}`},
		{`{"a":1,"rev":1800000000003,"b":{"rev":"x"},"rev":1800000000004}`, 1800000000004, `{"a":1,"b":{"rev":"x"}}`,
			`{"a":1,"b":{"rev":"x"},"rev":1800000000004}`},
		{`{"sound":true,"verbose":false}`, 1800000000004, `{"sound":true,"verbose":false}`, `{"sound":true,"verbose":false,"rev":1800000000004}`},
		{`{"rev":1800000000005}`, 1800000000005, `{}`, `{"rev":1800000000005}`},
		{`{ "rev": 1800003600000, "sound": false }`, 1800000060000, `{"sound":false}`, `{"sound":false,"rev":1800000060000}`}, // clamped
	} {
		t.Run(tc.body, func(t *testing.T) {
			h := h.as(t)
			answer := strings.TrimSpace(string(h.call("PUT", "/api/settings", tc.body, 200, nil)))
			js, rev, err := h.db.SettingsRev(ctx, h.player())
			if err != nil {
				t.Fatal(err)
			}
			if js != tc.stored || rev != tc.keptRev {
				t.Errorf("stored %s rev %d, want %s rev %d", js, rev, tc.stored, tc.keptRev)
			}
			if answer != tc.answer {
				t.Errorf("answered %s, want %s", answer, tc.answer)
			}
		})
	}
}

// TestSettingsOldRowRev: settings stored while their JSON kept a "rev"
// of its own (a write the server clamped, or one without a revision
// over a newer one) are answered with the revision kept beside them,
// once, whichever the JSON says; revision 0 (none kept) is answered as
// no "rev", as settings from before revisions are.
func TestSettingsOldRowRev(t *testing.T) {
	now := time.UnixMilli(1800000000000)
	h := newHarness(t, Options{Now: func() time.Time { return now }})
	ctx := context.Background()
	for _, tc := range []struct {
		name, js string
		rev      int64
		want     string
	}{
		{"JSON larger", `{"sound":false,"rev":1800003600000}`, 1800000060000, `{"sound":false,"rev":1800000060000}`},
		{"JSON smaller", `{"rev":1700000000000, "sound":true}`, 1800000000005, `{"sound":true,"rev":1800000000005}`},
		{"none kept", `{"sound":true,"rev":1800000000000}`, 0, `{"sound":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := h.otherPlayer().as(t)
			h.call("GET", "/api/settings", "", 200, nil) // the player's cookie
			// The store keeps the JSON it is given, as it kept the page's.
			if _, _, err := h.db.PutSettingsRev(ctx, h.player(), tc.js, tc.rev); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(string(h.call("GET", "/api/settings", "", 200, nil))); got != tc.want {
				t.Errorf("GET answered %s for %s kept with rev %d, want %s", got, tc.js, tc.rev, tc.want)
			}
			if tc.rev == 0 {
				return // no write is older
			}
			// An older write is not stored, and answered with the same.
			older := `{"verbose":true,"rev":` + strconv.FormatInt(tc.rev-1, 10) + `}`
			if got := strings.TrimSpace(string(h.call("PUT", "/api/settings", older, 200, nil))); got != tc.want {
				t.Errorf("PUT %s answered %s for %s kept with rev %d, want %s", older, got, tc.js, tc.rev, tc.want)
			}
		})
	}
}

// FuzzWithRev: whatever settings object withRev is given, it answers
// one: the same members in the same order less every "rev" of its own,
// then rev as its one "rev" (none for 0); anything else is given back
// as it is.
func FuzzWithRev(f *testing.F) {
	for _, js := range []string{`{}`, `{"rev":1}`, ` { "a" : [1, {"rev":2}] , "rev" : 3 , "b":"}"} `,
		`{"r\u0065v":4,"c":null}`, `{"rev":1,"rev":2}`, `{"a":1,"a":2}`, `[1]`, `"x"`, `null`, `{"a":`, `{} {}`,
		`{"<&>":"\u2028"}`} {
		f.Add(js, int64(1800000000000))
		f.Add(js, int64(0))
	}
	f.Fuzz(func(t *testing.T, js string, rev int64) {
		got := withRev(js, rev)
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(js), &obj); err != nil || obj == nil {
			if got != js {
				t.Fatalf("withRev(%q) = %q, want it as it was", js, got)
			}
			return
		}
		var want []member
		for _, m := range members(t, js) {
			if m.key != "rev" {
				want = append(want, m)
			}
		}
		if rev != 0 {
			want = append(want, member{"rev", strconv.FormatInt(rev, 10)})
		}
		if !json.Valid([]byte(got)) {
			t.Fatalf("withRev(%q, %d) = %q, not JSON", js, rev, got)
		}
		if out := members(t, got); !reflect.DeepEqual(out, want) {
			t.Fatalf("withRev(%q, %d) = %q: members %q, want %q", js, rev, got, out, want)
		}
	})
}

// member is a JSON object's member: its key and its value, compacted.
type member struct{ key, value string }

// members are the members of JSON object js, in order, each key as
// often as it is given.
func members(tb testing.TB, js string) []member {
	tb.Helper()
	dec := json.NewDecoder(strings.NewReader(js))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		tb.Fatalf("%q is no object (%v)", js, err)
	}
	var out []member
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			tb.Fatalf("%q: %v", js, err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			tb.Fatalf("%q: %v", js, err)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, v); err != nil {
			tb.Fatalf("%q: %v", js, err)
		}
		out = append(out, member{key.(string), b.String()})
	}
	// The object closes, and nothing but spaces follows it.
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		tb.Fatalf("%q: the object does not close (%v, %v)", js, tok, err)
	}
	if tok, err := dec.Token(); err != io.EOF {
		tb.Fatalf("%q: %v follows the object (%v)", js, tok, err)
	}
	return out
}
