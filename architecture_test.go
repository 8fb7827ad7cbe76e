package cardtable_test

import (
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The import rules of the program, in one place: layers lists every
// package of the module with the module packages its non-test files may
// import and the outside packages they may not. A package missing from the
// list fails TestImportRules until its arrows are written here, and
// docs/architecture.md shows this list (TestArchitectureDoc keeps it the
// same: go test -run TestArchitectureDoc -update . rewrites it).
//
// Only non-test files are checked: tests may import what they need to run
// the real thing (the store under a service's tests, bots at a live table,
// webtest, leakscan).

const module = "cardtable/"

// pure are the imports a rules package may not have: no I/O, clock or
// randomness of its own.
var pure = []string{"os", "net/http", "database/sql", "log", "log/slog", "time",
	"math/rand", "math/rand/v2", "crypto/rand"}

// layer is one package's rule: the module packages it may import (by
// directory; none but these) and the other packages it may not (a path, or
// a prefix ending in "/...").
type layer struct {
	pkg  string
	may  []string
	deny []string
	why  string
}

var layers = []layer{
	{"card", nil, pure, "rules: pure"},
	// Words read in ASCII case only, by the rules and the web layer alike.
	{"internal/ascii", nil, pure, "ASCII case: pure"},
	{"spider", []string{"card", "internal/ascii"}, pure, "rules: pure"},
	{"arlington", []string{"card"}, pure, "rules: pure"},
	{"internal/rating", nil, pure, "players' ratings (Weng-Lin): pure"},
	// Search reads the clock for its deadlines; its randomness comes from
	// seeds.
	{"spider/solver", []string{"card", "spider"}, []string{"net/http", "database/sql"}, "search over the rules"},
	{"arlington/bot", []string{"card", "arlington"}, []string{"os", "net/http", "database/sql", "log", "log/slog",
		"math/rand", "math/rand/v2", "crypto/rand"}, "computer players over the rules"},
	// The game services: what a server keeps of games in play, with the
	// store interfaces they need and their row types.
	{"internal/spidergame", []string{"spider"}, []string{"net/http", "database/sql"}, "Spider games in play; no HTTP, no SQL"},
	// Bots are wired, not imported: table declares the Bot it seats, and
	// the wiring hands in arlington/bot's (tests import them too).
	{"internal/table", []string{"arlington", "internal/rating"}, []string{"net/http", "database/sql", "github.com/coder/websocket", "github.com/prometheus/..."},
		"live Arlington tables; no HTTP, no SQL"},
	{"internal/table/leakscan", []string{"card", "arlington", "internal/table"}, nil, "for tests of tables"},
	// The store implements the services' store interfaces, importing them
	// for their row types.
	{"internal/store", []string{"internal/spidergame", "internal/table", "internal/dbcopy"}, []string{"net/http"}, "one adapter: SQLite"},
	{"internal/pgstore", []string{"internal/spidergame", "internal/table", "internal/dbcopy"}, []string{"net/http", "database/sql"},
		"one adapter: PostgreSQL (pgx)"},
	// Copies meet the stores as plain rows, with no SQL of either.
	{"internal/dbcopy", nil, []string{"database/sql", "net/http"}, "a whole database copied between stores, and checked"},
	// The shared web layer knows no game and no store: games come as
	// Routes, identities as options.
	// Figures for /metrics leave the web layer and the tables through
	// small Observer interfaces: only internal/obs imports Prometheus.
	{"internal/web", []string{"internal/ascii"}, []string{"database/sql", "github.com/prometheus/..."}, "the shared HTTP layer"},
	{"internal/web/spiderweb", []string{"card", "spider", "internal/spidergame", "internal/web"}, []string{"database/sql", "github.com/prometheus/..."},
		"Spider's HTTP adapter"},
	{"internal/web/arlweb", []string{"arlington", "internal/table", "internal/web", "internal/arlwire"}, []string{"database/sql", "github.com/prometheus/..."},
		"Arlington's HTTP and WebSocket adapter"},
	{"internal/obs", nil, nil, "Prometheus metrics behind the observer interfaces"},
	{"internal/web/webtest", nil, nil, "for tests of the web packages"},
	// A throwaway PostgreSQL for the store tests: no program file imports it.
	{"internal/pgtest", nil, nil, "for tests of the stores: a PostgreSQL server of their own"},
	// SQLite files made with no store, for the store's own tests too.
	{"internal/sqlitetest", nil, nil, "for tests of the store and the commands: SQLite files made with no store"},
	{"internal/storetest", []string{"internal/store", "internal/pgstore", "internal/pgtest", "internal/spidergame",
		"internal/table", "internal/dbcopy"}, nil, "for tests: the same tests against every store"},
	// Clients meet the server at the wire, as any other client would;
	// the wire's names both ends spell are in one package of no import.
	{"internal/arlwire", nil, nil, "the names of the table API its server and client share"},
	{"internal/arlclient", []string{"arlington", "internal/arlwire"}, []string{"database/sql"}, "a client of the table API"},
	{"internal/loadgen", []string{"spider"}, []string{"database/sql"}, "simulated players, over HTTP"},
	// Build information imports no package of the program.
	{"internal/buildinfo", nil, nil, "the binary's version, commit and build time"},
	{"internal/cli", []string{"card", "internal/ascii", "spider", "spider/solver", "arlington", "arlington/bot", "internal/store", "internal/pgstore", "internal/dbcopy",
		"internal/table", "internal/spidergame", "internal/web", "internal/web/spiderweb", "internal/web/arlweb",
		"internal/arlclient", "internal/loadgen", "internal/buildinfo", "internal/obs"}, nil, "the wiring: the only importer of the bots and the stores"},
	{"cmd/cardtable", []string{"internal/cli"}, nil, "main"},
}

// TestImportRules checks every package's non-test imports against layers.
func TestImportRules(t *testing.T) {
	pkgs := imports(t, ".")
	if len(pkgs["spider"]) == 0 || len(pkgs["internal/cli"]) == 0 {
		t.Fatalf("found too few packages: %d", len(pkgs))
	}
	listed := map[string]layer{}
	for _, l := range layers {
		listed[l.pkg] = l
		if _, ok := pkgs[l.pkg]; !ok {
			t.Errorf("%s is in the import rules but is no package: remove it", l.pkg)
		}
	}
	for pkg, imps := range pkgs {
		l, ok := listed[pkg]
		if !ok {
			t.Errorf("%s is a new package: write its arrows in architecture_test.go (layers) and docs/architecture.md", pkg)
			continue
		}
		for _, imp := range imps {
			if own, ok := strings.CutPrefix(imp, module); ok {
				if !slices.Contains(l.may, own) {
					t.Errorf("%s imports %s, which its rule does not allow (%s)", pkg, own, l.why)
				}
				continue
			}
			for _, d := range l.deny {
				if match(d, imp) {
					t.Errorf("%s imports %s: %s", pkg, imp, l.why)
				}
			}
		}
	}
}

var update = flag.Bool("update", false, "rewrite docs/architecture.md's import rules from layers")

// Markers of the import rules' table in docs/architecture.md.
const (
	docBegin = "<!-- import rules: from architecture_test.go (layers); go test -run TestArchitectureDoc -update . -->\n"
	docEnd   = "<!-- end of import rules -->\n"
)

// TestArchitectureDoc: docs/architecture.md shows the import rules as
// layers holds them.
func TestArchitectureDoc(t *testing.T) {
	const path = "docs/architecture.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	before, rest, ok1 := strings.Cut(doc, docBegin)
	_, after, ok2 := strings.Cut(rest, docEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no import rules between its markers:\n%s%s", path, docBegin, docEnd)
	}
	want := before + docBegin + rulesTable() + docEnd + after
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's import rules differ from architecture_test.go: go test -run TestArchitectureDoc -update . rewrites them", path)
}

// rulesTable is layers as a Markdown table.
func rulesTable() string {
	var b strings.Builder
	b.WriteString("| package | may import (of this module) | may not import | what it is |\n|---|---|---|---|\n")
	code := func(list []string) string {
		if len(list) == 0 {
			return "nothing"
		}
		var out []string
		for _, p := range list {
			out = append(out, "`"+p+"`")
		}
		return strings.Join(out, ", ")
	}
	for _, l := range layers {
		deny := code(l.deny)
		if slices.Equal(l.deny, pure) {
			deny = "the clock, randomness, I/O: " + deny
		}
		if len(l.deny) == 0 {
			deny = ""
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", l.pkg, code(l.may), deny, l.why)
	}
	return b.String()
}

// match reports whether path is pattern, or under it for "p/...".
func match(pattern, path string) bool {
	if p, ok := strings.CutSuffix(pattern, "/..."); ok {
		return strings.HasPrefix(path, p+"/")
	}
	return path == pattern
}

// imports maps each package directory under root (slash-separated, relative)
// to the imports of its non-test files.
func imports(tb testing.TB, root string) map[string][]string {
	tb.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if out[dir] == nil {
			out[dir] = []string{}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(out[dir], p) {
				out[dir] = append(out[dir], p)
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
