package arlweb

import (
	"cardtable/internal/web/webtest"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The package's browser tests (TestBrowser..., TestLongBrowser...) each opens pages in the
// one Chromium the package shares (webtest.Main) and spends its time
// waiting on them, so they run side by side (t.Parallel). What makes that
// safe: each test has its own server (newEnv), store and browser context;
// every tab it opens counts as focused (focusEmulated); and the tests
// that set the package's variables (hintSlots, timeNow,
// forwardTransport) are not browser tests and run alone, before any
// parallel test starts.

// sequentialBrowser lists the browser tests kept from running beside the
// others, each with the reason. A reason is a property of the test (a
// variable of the package it sets, a measure the others would disturb),
// never "it failed once".
var sequentialBrowser = map[string]string{
	"TestLongBrowserArlingtonPaced": "it must see the bots' next play arrive while the page still holds the taken trick, a window of the page's pace; tests beside it slow the server past that window",
}

// TestParallelBrowserTests checks, from the package's test files, that
// every browser test calls t.Parallel as its first statement, but those
// sequentialBrowser lists (which must exist and must not call it), and
// that no parallel test assigns a package-level variable of the package's
// code: the tests beside it would see the change.
func TestParallelBrowserTests(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]bool{} // package-level variables of the package's code
	var tests []*ast.FuncDecl
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(name, "_test.go") {
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
					for _, s := range g.Specs {
						for _, n := range s.(*ast.ValueSpec).Names {
							vars[n.Name] = true
						}
					}
				}
			}
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") {
				tests = append(tests, fd)
			}
		}
	}
	if len(vars) == 0 || len(tests) == 0 {
		t.Fatalf("read %d package variables and %d tests from %v: not the package's files", len(vars), len(tests), files)
	}
	// The browser tests' own rule (t.Parallel first, or listed with a
	// reason) is webtest's, shared with the Spider page's tests.
	webtest.CheckParallel(t, sequentialBrowser)
	for _, fd := range tests {
		if callsParallel(fd) {
			for _, v := range assigned(fd, vars) {
				t.Errorf("%s runs in parallel and sets the package variable %s, which the tests beside it read", fd.Name.Name, v)
			}
		}
	}
}

// callsParallel reports whether the test fd calls t.Parallel() anywhere
// in its own body (not in a subtest's function).
func callsParallel(fd *ast.FuncDecl) bool {
	if len(fd.Type.Params.List) != 1 || len(fd.Type.Params.List[0].Names) != 1 || fd.Body == nil {
		return false
	}
	for _, s := range fd.Body.List {
		if webtest.ParallelCall(s, fd.Type.Params.List[0].Names[0].Name) {
			return true
		}
	}
	return false
}

// assigned is the variables among vars that fd assigns (=, op=, ++, --)
// or sends to or receives from (a channel used as a semaphore is state
// too).
func assigned(fd *ast.FuncDecl, vars map[string]bool) []string {
	var got []string
	pkgVar := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok && vars[id.Name] && id.Obj == nil {
			got = append(got, id.Name)
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				pkgVar(l)
			}
		case *ast.IncDecStmt:
			pkgVar(n.X)
		case *ast.SendStmt:
			pkgVar(n.Chan)
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				pkgVar(n.X)
			}
		}
		return true
	})
	return got
}
