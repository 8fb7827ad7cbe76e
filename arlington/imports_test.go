package arlington

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The rules package stays pure: no I/O, clock or randomness of its own,
// so bots and the server can clone and search it (project standard). The
// bots have no I/O or global randomness either; they may use package time,
// since a search must answer within its level's time, and do
// so only through a context's deadline.
func TestRulesPackageImports(t *testing.T) {
	pure := []string{"os", "net/http", "database/sql", "log", "time", "math/rand", "math/rand/v2", "crypto/rand"}
	for _, dir := range []string{".", "bot"} {
		forbidden := pure
		if dir == "bot" {
			forbidden = append(append([]string(nil), pure[:4]...), pure[5:]...) // all but time
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range forbidden {
					if path == bad {
						t.Errorf("%s imports %s", f, path)
					}
				}
			}
		}
	}
}
