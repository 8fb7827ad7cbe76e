package webtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// CheckParallel fails tb unless every browser test of the package in the
// test's folder (a function TestBrowser... or TestLongBrowser... in its
// _test.go files) calls t.Parallel() as its first statement, save those
// named in sequential, each with the reason it must run alone. A browser
// test waits on its page most of the time, not on the processor, so the
// package's browser tests together take a fraction of their sum only if
// they run side by side; one that lost its call would quietly add its
// whole time again. The list is kept true as well: a name in it that is
// no browser test, or a test in it that calls t.Parallel, fails, as does
// an empty reason.
func CheckParallel(tb testing.TB, sequential map[string]string) {
	tb.Helper()
	problems, err := parallelProblems(".", sequential)
	if err != nil {
		tb.Fatal(err)
	}
	for _, p := range problems {
		tb.Error(p)
	}
}

// isBrowserTest says whether a test function's name makes it a browser
// test, which CheckParallel holds to run in parallel.
func isBrowserTest(name string) bool {
	return strings.HasPrefix(name, "TestBrowser") || strings.HasPrefix(name, "TestLongBrowser")
}

// parallelProblems is what CheckParallel reports of the _test.go files in
// dir, sorted.
func parallelProblems(dir string, sequential map[string]string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	var problems []string
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("reading the package's tests: %w", err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !isBrowserTest(fn.Name.Name) {
				continue
			}
			name := fn.Name.Name
			seen[name] = true
			at := fset.Position(fn.Pos())
			at.Filename = filepath.Base(at.Filename)
			reason, kept := sequential[name]
			switch par := callsParallelFirst(fn); {
			case kept && reason == "":
				problems = append(problems, fmt.Sprintf("%s: %s is kept sequential without a reason", at, name))
			case kept && par:
				problems = append(problems, fmt.Sprintf("%s: %s calls t.Parallel but is listed as sequential (%s)", at, name, reason))
			case !kept && !par:
				problems = append(problems, fmt.Sprintf("%s: %s does not call t.Parallel() first: a browser test runs beside the others, or is listed as sequential with the reason", at, name))
			}
		}
	}
	for name := range sequential {
		if !seen[name] {
			problems = append(problems, fmt.Sprintf("%s is listed as sequential but is no browser test of the package", name))
		}
	}
	slices.Sort(problems)
	return problems, nil
}

// callsParallelFirst says whether fn's first statement is the call
// p.Parallel() on its first parameter p (the test's *testing.T).
func callsParallelFirst(fn *ast.FuncDecl) bool {
	params := fn.Type.Params.List
	if len(params) == 0 || len(params[0].Names) == 0 || fn.Body == nil || len(fn.Body.List) == 0 {
		return false
	}
	return ParallelCall(fn.Body.List[0], params[0].Names[0].Name)
}

// ParallelCall says whether the statement s is the call t.Parallel(),
// t being the name of a test's *testing.T.
func ParallelCall(s ast.Stmt, t string) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Parallel" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == t
}
