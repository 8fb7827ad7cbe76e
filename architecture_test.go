package cardtable_test

import (
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

// The arrows of docs/architecture.md, checked on every package's non-test
// imports: rules packages know nothing of the outside world, adapters wrap
// one outside thing each, game web packages reach the store only through
// interfaces they declare, and only main wires the program. The shared web
// layer knows no game at all: each game's handlers live in a package of
// their own under it.

const module = "cardtable/"

// pure are the imports a rules package may not have: no I/O, clock or
// randomness of its own.
var pure = []string{"os", "net/http", "database/sql", "log", "log/slog", "time",
	"math/rand", "math/rand/v2", "crypto/rand"}

// rule forbids packages matching from (a package path, or a prefix ending in
// "/...") to import any of deny (same form).
type rule struct {
	from string
	deny []string
	why  string
}

var rules = []rule{
	{"card", append(pure, module+"..."), "rules packages are pure"},
	{"spider", append(pure, module+"internal/...", module+"arlington"), "rules packages are pure"},
	// Search bots read the clock for their deadlines, as the solver does;
	// their randomness comes from seeds.
	{"arlington/bot", []string{"os", "net/http", "database/sql", "log", "log/slog", "math/rand", "math/rand/v2",
		"crypto/rand", module + "internal/...", module + "spider"}, "search knows no adapter"},
	{"arlington", append(pure, module+"internal/...", module+"spider"), "rules packages are pure"},
	{"spider/solver", []string{"net/http", "database/sql", module + "internal/..."}, "search knows no adapter"},
	// The store implements table.Store, whose record types table declares.
	{"internal/store", []string{"net/http", module + "internal/web", module + "internal/web/..."}, "the store is one adapter"},
	{"internal/table", []string{"net/http", "database/sql", "github.com/coder/websocket", module + "internal/store", module + "internal/web", module + "internal/web/..."}, "live tables have no HTTP or SQL"},
	{"internal/web", []string{module + "card", module + "spider", module + "spider/...", module + "arlington", module + "arlington/...",
		module + "internal/table", module + "internal/store", module + "internal/record", "database/sql"}, "the shared web layer knows no game and no store"},
	// Spider's records are plain data shared by the store and spiderweb.
	{"internal/record", []string{"net/http", "database/sql", module + "..."}, "records are plain data"},
	{"internal/web/...", []string{module + "internal/store", "database/sql"}, "game handlers declare the store interfaces they need"},
	// The table client meets the server at the wire, as any other client
	// would: it knows the rules' views and notation, not the server.
	{"internal/arlclient", []string{"database/sql", module + "internal/...", module + "arlington/bot", module + "spider", module + "spider/..."}, "the table client speaks the wire protocol only"},
	// Figures reach Prometheus through small observer interfaces.
	{"internal/web", []string{"github.com/prometheus/..."}, "the web layer reports to its Observer"},
	{"internal/web/...", []string{"github.com/prometheus/..."}, "the web layer reports to its Observer"},
	{"internal/table", []string{"github.com/prometheus/..."}, "live tables report to their Observer"},
	{"internal/obs", []string{module + "..."}, "metrics know the observer interfaces' methods, not the packages"},
	{"internal/loadgen", []string{module + "internal/store", module + "internal/web", module + "internal/web/..."}, "the load generator is an HTTP client"},
	{"...", []string{module + "internal/cli"}, "only main wires the program"},
	// Test plumbing shared by the web packages' tests: only their _test.go
	// files import it (these rules read non-test files only), and it
	// imports no package of the program, so that internal/web's own tests
	// can use it without an import cycle.
	{"...", []string{module + "internal/web/webtest"}, "webtest is for _test.go files only"},
	{"internal/web/webtest", []string{module + "..."}, "test plumbing imports no package of the program"},
}

func TestImportArrows(t *testing.T) {
	pkgs := imports(t, ".")
	if len(pkgs["spider"]) == 0 || len(pkgs["internal/cli"]) == 0 {
		t.Fatalf("found too few packages: %d", len(pkgs))
	}
	for _, r := range rules {
		for pkg, imps := range pkgs {
			if !match(r.from, pkg) || (r.from == "..." && pkg == "cmd/cardtable") {
				continue
			}
			for _, imp := range imps {
				for _, d := range r.deny {
					if match(d, imp) && imp != module+pkg {
						t.Errorf("%s imports %s: %s", pkg, imp, r.why)
					}
				}
			}
		}
	}
}

// match reports whether path is pattern, or under it for "p/...".
func match(pattern, path string) bool {
	if pattern == "..." {
		return true
	}
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
