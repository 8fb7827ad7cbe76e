package arlweb

import (
	"net/http"
	"strings"
	"testing"

	"cardtable/internal/arlclient"
)

// TestTableCode: a new table has a six-character code of the unambiguous
// alphabet, the same in the create answer and the table's summary; the
// code as a friend types it (lower case, a space) finds the table; a
// code no table has is not found, and junk is a bad request.
func TestTableCode(t *testing.T) {
	e := newEnv(t, Limits{})
	c := e.client()
	var a, b created
	if code := c.do("POST", "/api/arlington/tables", map[string]any{"players": 2, "bots": []string{"", "random"}}, &a); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if code := c.do("POST", "/api/arlington/tables", map[string]any{"players": 2, "bots": []string{"", "random"}}, &b); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if len(a.Code) != 6 || strings.Trim(a.Code, codeAlphabet) != "" || a.Code == b.Code {
		t.Fatalf("codes %q and %q", a.Code, b.Code)
	}
	var got created
	if code := c.do("GET", "/api/arlington/tables/"+a.ID, nil, &got); code != http.StatusOK || got.Code != a.Code {
		t.Fatalf("summary: %d, code %q, want %q", code, got.Code, a.Code)
	}
	typed := strings.ToLower(a.Code[:3] + " " + a.Code[3:])
	got = created{}
	if code := c.do("GET", "/api/arlington/code/"+strings.ReplaceAll(typed, " ", "%20"), nil, &got); code != http.StatusOK || got.ID != a.ID || got.Link != "/arlington/t/"+a.ID {
		t.Fatalf("by code %q: %d, table %q link %q, want %q", typed, code, got.ID, got.Link, a.ID)
	}
	missing := "222222"
	if missing == a.Code || missing == b.Code {
		missing = "333333"
	}
	for path, want := range map[string]int{"/api/arlington/code/" + missing: http.StatusNotFound,
		"/api/arlington/code/ABC": http.StatusBadRequest, "/api/arlington/code/O0O0O0": http.StatusBadRequest} {
		if code := c.do("GET", path, nil, nil); code != want {
			t.Errorf("%s: %d, want %d", path, code, want)
		}
	}
	// A code that finds nothing says what to do about it: the lobby shows
	// these words under the code's field.
	var refused struct{ Error string }
	c.do("GET", "/api/arlington/code/"+missing, nil, &refused)
	// The words stand alone (docs/api.md): the lobby shows them as they come.
	if want := "no table has the code " + missing + ": check it with whoever gave it, or ask for the table's link"; refused.Error != want {
		t.Errorf("an unknown code is refused with %q, want %q", refused.Error, want)
	}
	// Six characters, one never in a code: the words say which those are.
	refused.Error = ""
	c.do("GET", "/api/arlington/code/3H5M5L", nil, &refused)
	if want := "a table code is 6 letters and digits, never 0, O, 1, I or L"; refused.Error != want {
		t.Errorf("a code with an L is refused with %q, want %q", refused.Error, want)
	}
}

// TestCodeAlphabetAgrees: the terminal client (arlclient, which may not
// import this package) reads a code as this server does: the same
// characters are accepted and refused, so a code the page shows is never
// turned away before it is asked for, nor junk sent.
func TestCodeAlphabetAgrees(t *testing.T) {
	for r := rune(0x21); r < 0x250; r++ {
		for _, s := range []string{"22222" + string(r), string(r) + "ABCDE"} {
			if got, want := arlclient.NormalCode(s), normalCode(s); got != want {
				t.Errorf("%q: the client reads %q, the server %q", s, got, want)
			}
		}
	}
	for _, id := range []string{"A", "ZZZZ", "QJ7MXQH6S3NT2YB5O4V7WKLDEA"} {
		if code := tableCode(id); arlclient.NormalCode(code) != code {
			t.Errorf("table %s's code %s: the client refuses it", id, code)
		}
	}
}
