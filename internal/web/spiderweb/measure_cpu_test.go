//go:build measure && linux

package spiderweb

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestMeasurePageCPU reports the processor time Chromium's processes
// spend on the ways a browser test opens the Spider page, by process
// type, read from /proc (docs/benchmarks.md, "The test suites"): a
// renderer that has exited counts in its parent's children's time
// ("zygote(reaped)"). Run alone, on a machine otherwise quiet:
//
//	CI=true go test -tags measure -run TestMeasurePageCPU -v ./internal/web/spiderweb
func TestMeasurePageCPU(t *testing.T) {
	const n = 10
	srv := pageServer(t)
	b := startBrowser(t)
	p := openPage(t, b, srv, 1280, 800)
	cases := []struct {
		name string
		do   func(t *testing.T)
	}{
		{"a reload of the page", func(t *testing.T) { p.in(t).load() }},
		{"a new browser context and its first page", func(t *testing.T) {
			openPage(t, startBrowser(t), srv, 1280, 800)
		}},
		{"a new browser context, its page in the context's own tab", func(t *testing.T) {
			ctx := startBrowser(t)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
				t.Fatal(err)
			}
			(&browserPage{t: t, ctx: ctx, srv: srv}).load()
		}},
		{"a new browser context alone", func(t *testing.T) { startBrowser(t) }},
		{"the page from a new server in the open tab", func(t *testing.T) {
			q := p.in(t)
			q.srv = pageServer(t)
			q.load()
		}},
		{"a new tab in the open context and its page", func(t *testing.T) {
			ctx, cancel := chromedp.NewContext(b)
			defer cancel()
			if err := chromedp.Do(ctx); err != nil {
				t.Fatal(err)
			}
			(&browserPage{t: t, ctx: ctx, srv: srv}).load()
		}},
	}
	for _, c := range cases {
		before := chromiumCPU(t)
		for range n {
			t.Run("", c.do) // closes what the case opened
		}
		t.Logf("%s: %s", c.name, cpuSpent(before, chromiumCPU(t), n))
	}
}

// in is the open tab p for the subtest t: a failure must end the
// subtest's goroutine, not call the parent test's Fatal from it.
func (p *browserPage) in(t *testing.T) *browserPage {
	q := *p
	q.t = t
	return &q
}

// chromiumCPU is the processor time (s) of Chromium's processes by type
// (--type=, browser for none), their own and their reaped children's.
func chromiumCPU(tb testing.TB) map[string]float64 {
	tb.Helper()
	out := map[string]float64{}
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range dirs {
		stat, err := os.ReadFile(d + "/stat")
		if err != nil || !strings.Contains(string(stat), "(chrom") {
			continue // gone, or not Chromium's
		}
		cmd, _ := os.ReadFile(d + "/cmdline")
		typ := "browser"
		for _, a := range strings.FieldsFunc(string(cmd), func(r rune) bool { return r == 0 || r == ' ' }) {
			if v, ok := strings.CutPrefix(a, "--type="); ok {
				typ = v
			}
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndex(s, ")")+2:])
		for i, k := range []string{typ, typ, typ + "(reaped)", typ + "(reaped)"} {
			v, _ := strconv.ParseFloat(f[11+i], 64) // utime, stime, cutime, cstime
			out[k] += v / 100                       // clock ticks (USER_HZ, 100 on Linux)
		}
	}
	return out
}

// cpuSpent is the time spent between two readings, a case's share
// (divided by n), in all and by process type.
func cpuSpent(before, after map[string]float64, n int) string {
	var all float64
	var parts []string
	for k, v := range after {
		if d := (v - before[k]) / float64(n); d >= 0.005 {
			all += d
			parts = append(parts, fmt.Sprintf("%s %.2f", k, d))
		}
	}
	slices.Sort(parts)
	return fmt.Sprintf("%.2f s each (%s)", all, strings.Join(parts, ", "))
}
