package spiderweb

import (
	"strings"
	"testing"
)

// TestSettingsRevision: a settings write carries the page's revision
// ("rev"); one older than the settings kept is not stored, and is answered
// 200 with the kept ones (the page compares them with what it sent); a
// write with no revision (a page from before revisions) is stored. A
// revision that is no whole number from 0 to the bound is refused 400
// with the reason, and changes nothing.
func TestSettingsRevision(t *testing.T) {
	h := newHarness(t, Options{})
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
	put(`{"sound":false,"rev":1000000000000000}`, `{"sound":false,"rev":1000000000000000}`) // the bound itself
	put(`{"sound":true}`, `{"sound":true}`)                                                 // no revision: stored
	h.restart()
	if b := strings.TrimSpace(string(h.call("GET", "/api/settings", "", 200, nil))); b != `{"sound":true}` {
		t.Errorf("after a restart the server keeps %s", b)
	}
}
