package webtest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParallelProblems: the checker behind CheckParallel finds each way a
// browser test can fall out of the parallel run, and only those.
func TestParallelProblems(t *testing.T) {
	const src = `package x

import "testing"

func TestBrowserGood(t *testing.T) { t.Parallel(); run(t) }
func TestLongBrowserGood(tt *testing.T) {
	tt.Parallel()
}
func TestBrowserLate(t *testing.T) { run(t); t.Parallel() }
func TestBrowserNone(t *testing.T) { run(t) }
func TestBrowserOtherReceiver(t *testing.T) { other.Parallel() }
func TestBrowserAlone(t *testing.T) { run(t) }
func TestBrowserListedButParallel(t *testing.T) { t.Parallel() }
func TestBrowserNoReason(t *testing.T) {}
func TestPlain(t *testing.T) { run(t) }
func (s suite) TestBrowserMethod(t *testing.T) {}
func run(t *testing.T) {}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\nfunc TestBrowserNotATestFile() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := parallelProblems(dir, map[string]string{
		"TestBrowserAlone":             "it changes the shared browser",
		"TestBrowserListedButParallel": "stale",
		"TestBrowserNoReason":          "",
		"TestBrowserGone":              "renamed long ago",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"TestBrowserGone is listed as sequential",
		"TestBrowserLate does not call t.Parallel() first",
		"TestBrowserListedButParallel calls t.Parallel but is listed",
		"TestBrowserNoReason is kept sequential without a reason",
		"TestBrowserNone does not call t.Parallel() first",
		"TestBrowserOtherReceiver does not call t.Parallel() first",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, w) }) {
			t.Errorf("no problem says %q; got:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// TestParallelBrowserTests: this package's own browser tests run side by
// side.
func TestParallelBrowserTests(t *testing.T) {
	CheckParallel(t, nil)
}
