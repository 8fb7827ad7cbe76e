package webtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// ArtifactsEnv names the environment variable that names the folder the
// browser tests write their screenshots to (a relative path is taken from
// the module's root); .ci/run sets it so that CI keeps them. Unset, the
// tests take no screenshots.
const ArtifactsEnv = "CARDTABLE_ARTIFACTS"

// ArtifactsDir is the folder ArtifactsEnv names, made if need be, or ""
// when it names none.
func ArtifactsDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(ArtifactsEnv)
	if dir == "" {
		return ""
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(ModuleRoot(tb), dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatalf("%s: %v", ArtifactsEnv, err)
	}
	return dir
}

// Screenshot writes what the tab ctx shows (the viewport, as PNG) to the
// artifacts folder as name.png, a name made of the test's name and what,
// when ArtifactsEnv names a folder; otherwise it does nothing and costs
// nothing. It reports, never fails the test: a picture is a record of a
// state already checked, not a check.
func Screenshot(tb testing.TB, ctx context.Context, what string) {
	tb.Helper()
	dir := ArtifactsDir(tb)
	if dir == "" || ctx.Err() != nil {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	b, err := chromedp.Run(sctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.Logf("screenshot %s: %v", what, err)
		return
	}
	name := ArtifactName(tb.Name() + "-" + what)
	if err := os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644); err != nil {
		tb.Logf("screenshot %s: %v", what, err)
	}
}

// ArtifactName is s made safe for a file name: letters, digits, '-', '.'
// and '_' stay, anything else becomes '-'.
func ArtifactName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			return r
		}
		return '-'
	}, s)
}

// ModuleRoot is the folder of the go.mod above the test's folder.
func ModuleRoot(tb testing.TB) string {
	tb.Helper()
	d, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			tb.Fatal("no go.mod above the test's folder")
		}
		d = up
	}
}
