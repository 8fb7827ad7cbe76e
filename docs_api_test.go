package cardtable_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardtable/internal/spidergame"
	"cardtable/internal/web"
	"cardtable/internal/web/arlweb"
	"cardtable/internal/web/spiderweb"
	"cardtable/spider"
)

// A client is written from docs/api.md, so the claims it relies on most
// are checked against the program here: every API route is documented,
// the rate-limited routes and the limits' numbers are those the server
// uses, and the named-save quota is the default one.

// routePattern finds a route registered on the server's mux:
// mux.HandleFunc("POST /api/games", ...).
var routePattern = regexp.MustCompile(`HandleFunc\("((?:GET|POST|PUT|DELETE) /api/[^"]*)"`)

// pathParam is a {name} in a route; the doc may name it otherwise.
var pathParam = regexp.MustCompile(`\{[^}]*\}`)

func normRoute(r string) string { return pathParam.ReplaceAllString(r, "{}") }

// docRoutes is every "METHOD /api/..." docs/api.md writes, its path
// parameters unnamed and its query ("?previous=ID", "[?from=N]") dropped.
func docRoutes(doc string) map[string]bool {
	out := map[string]bool{}
	re := regexp.MustCompile("(GET|POST|PUT|DELETE) (/api/[^\\s`\\[?,)]*)")
	for _, m := range re.FindAllStringSubmatch(doc, -1) {
		out[normRoute(m[1]+" "+m[2])] = true
	}
	return out
}

func readAPIDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAPIDocRoutes(t *testing.T) {
	doc := docRoutes(readAPIDoc(t))
	var found int
	err := filepath.WalkDir("internal/web", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range routePattern.FindAllStringSubmatch(string(b), -1) {
			found++
			if !doc[normRoute(m[1])] {
				t.Errorf("%s: route %s is not in docs/api.md", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 30 {
		t.Fatalf("found %d routes in internal/web; the pattern no longer matches how routes are registered", found)
	}
}

// section is the text of docs/api.md from the heading named to the next
// heading of its level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("docs/api.md has no heading %q", heading)
	}
	rest := doc[i+len(heading)+2:]
	level := heading[:strings.IndexByte(heading, ' ')+1]
	if j := strings.Index(rest, "\n"+level); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

func TestAPIDocRateLimits(t *testing.T) {
	text := section(t, readAPIDoc(t), "## Rate limits (decision)")
	// The routes each game names Limited and Frequent are listed there,
	// in full or as ".../last" after one in full.
	var routes []string
	routes = append(routes, (&spiderweb.Handlers{}).Limited()...)
	routes = append(routes, (&arlweb.Handlers{}).Limited()...)
	routes = append(routes, (&arlweb.Handlers{}).Frequent()...)
	flat := strings.Join(strings.Fields(text), " ")
	for _, r := range routes {
		method, path, _ := strings.Cut(r, " ")
		short := method + " .../" + path[strings.LastIndexByte(path, '/')+1:]
		if !strings.Contains(flat, "`"+r+"`") && !strings.Contains(flat, "`"+short+"`") &&
			!strings.Contains(flat, "`.../"+path[strings.LastIndexByte(path, '/')+1:]+"`") {
			t.Errorf("rate-limited route %s is not named in docs/api.md, \"Rate limits\"", r)
		}
	}
	// The table of buckets gives DefaultRateLimit's numbers.
	rl := web.DefaultRateLimit()
	rate := func(b web.Bucket) string {
		return fmt.Sprintf("| %d | %d a second |", b.Burst, time.Second/b.Every)
	}
	for name, b := range map[string]web.Bucket{
		"| player ":  rl.Player,
		"| address ": rl.Address,
		"| player, routes called at every click ":  rl.OftenPlayer,
		"| address, routes called at every click ": rl.OftenAddress,
	} {
		if !strings.Contains(text, name+rate(b)) {
			t.Errorf("docs/api.md, \"Rate limits\": want the row %q", name+rate(b))
		}
	}
	if want := fmt.Sprintf("At most %s players and\n%s addresses", thousands(rl.MaxKeys), thousands(rl.MaxKeys)); !strings.Contains(text, want) {
		t.Errorf("docs/api.md, \"Rate limits\": want %q", want)
	}
}

// thousands writes n as the docs do: 10,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func TestAPIDocSaveQuota(t *testing.T) {
	doc := readAPIDoc(t)
	q := spidergame.DefaultSaveQuota
	row := fmt.Sprintf("a named save past the player's %d or %d MiB", q.Count, q.Bytes>>20)
	if !strings.Contains(doc, row) {
		t.Errorf("docs/api.md's 422 row: want %q", row)
	}
	if want := fmt.Sprintf("A player keeps at most\n  %d named saves and %d MiB of them", q.Count, q.Bytes>>20); !strings.Contains(doc, want) {
		t.Errorf("docs/api.md, \"Named saved games\": want %q", want)
	}
}

// TestFormatsDocViewKeys: docs/formats.md, "JSON state", names every key
// of spider.View, its piles and its score breakdown, which the API and
// --json print.
func TestFormatsDocViewKeys(t *testing.T) {
	b, err := os.ReadFile("docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "## JSON state")
	if i < 0 {
		t.Fatal(`docs/formats.md has no "## JSON state" section`)
	}
	text := doc[i:]
	if j := strings.Index(text[1:], "\n## "); j >= 0 {
		text = text[:j+1]
	}
	var keys []string
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Slice || typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct {
			return
		}
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			keys = append(keys, name)
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[spider.View]())
	if len(keys) < 20 {
		t.Fatalf("found %d keys in spider.View", len(keys))
	}
	for _, k := range keys {
		if !strings.Contains(text, "`"+k+"`") {
			t.Errorf("docs/formats.md, \"JSON state\": key %q of spider.View is not named", k)
		}
	}
}
