package cli

import "testing"

// TestServiceMissingWords: a hosting test's missing program is a failure
// under the variable that requires it, and the failure names that
// variable (with only CARDTABLE_REQUIRE_BROWSER=1 set it once named
// CARDTABLE_REQUIRE_SERVICES=1); pebble-challtestsrv is installed with
// Debian's pebble package, not one of its own name.
func TestServiceMissingWords(t *testing.T) {
	const nginx = "NGINX NOT FOUND: this hosting test did NOT run (Debian: apt-get install nginx)"
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
		fail bool
	}{
		{"nginx", nil, nginx, false},
		{"nginx", map[string]string{"CARDTABLE_REQUIRE_POSTGRES": "1", "CI": "1"}, nginx, false},
		{"nginx", map[string]string{"CARDTABLE_REQUIRE_SERVICES": "1"}, nginx + "; CARDTABLE_REQUIRE_SERVICES=1 makes that a failure", true},
		{"nginx", map[string]string{"CI": "true"}, nginx + "; CI=true makes that a failure", true},
		{"nginx", map[string]string{"CARDTABLE_REQUIRE_BROWSER": "1"}, nginx + "; CARDTABLE_REQUIRE_BROWSER=1 makes that a failure", true},
		{"pebble-challtestsrv", nil, "PEBBLE-CHALLTESTSRV NOT FOUND: this hosting test did NOT run (Debian: apt-get install pebble)", false},
		{"pebble", nil, "PEBBLE NOT FOUND: this hosting test did NOT run (Debian: apt-get install pebble)", false},
	} {
		msg, fail := serviceMissing(c.name, func(k string) string { return c.env[k] })
		if msg != c.want || fail != c.fail {
			t.Errorf("%s with %v: %q, failure %v; want %q, failure %v", c.name, c.env, msg, fail, c.want, c.fail)
		}
	}
}
