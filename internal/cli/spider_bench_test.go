package cli

// spider bench: its lines and summary, and the interval it gives.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestSpiderBench: bench solves deals and records the winnable ones;
// TestLongSpiderBench adds a whole game of fair play.
func TestSpiderBench(t *testing.T) { spiderBench(t, false) }

func TestLongSpiderBench(t *testing.T) {
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	// In process and CPU-bound, with no environment, port or file shared:
	// it overlaps the other long spider tests.
	t.Parallel()
	spiderBench(t, true)
}

func spiderBench(t *testing.T, autoplay bool) {
	rec := filepath.Join(t.TempDir(), "won.txt")
	out, stderr, code := run(t, "", "spider", "bench", "--mode", "solve", "--suits", "1", "--deals", "1-4", "--jobs", "2", "--record", rec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("want 4 deal lines and a summary:\n%s", out)
	}
	lineRe := regexp.MustCompile(` (\d+) moves \(found (\d+), (\d+) by hand\)$`)
	timeRe := regexp.MustCompile(`: solved ([\d.]+)s \(verdict ([\d.]+)s, CPU [\d.]+s\) `)
	for i, l := range lines[:4] {
		if !strings.HasPrefix(l, "deal "+string(rune('1'+i))+": solved") {
			t.Errorf("line %d: %q", i+1, l)
		}
		// The verdict comes before the searches for a shorter line.
		if m := timeRe.FindStringSubmatch(l); m == nil {
			t.Errorf("line %d: no time, verdict and CPU: %q", i+1, l)
		} else if atof(m[1]) < atof(m[2]) {
			t.Errorf("line %d: the verdict after the whole solve: %q", i+1, l)
		}
		// The line as shortened, then as the search found it.
		m := lineRe.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("line %d: no moves and found: %q", i+1, l)
			continue
		}
		moves, _ := strconv.Atoi(m[1])
		found, _ := strconv.Atoi(m[2])
		hand, _ := strconv.Atoi(m[3])
		if moves == 0 || found < moves {
			t.Errorf("line %d: %s moves, found %s: %q", i+1, m[1], m[2], l)
		}
		// A won line removes all eight suits, and a player makes none of
		// those removals on a page that removes suits itself.
		if hand != moves-8 {
			t.Errorf("line %d: %d by hand, want %d (every move but 8 removals): %q", i+1, hand, moves-8, l)
		}
	}
	if !strings.HasPrefix(lines[4], "solved 4/4 (100.0%), time median") || !strings.Contains(lines[4], "nodes/s") ||
		!regexp.MustCompile(`, verdict median [\d.]+s p90 [\d.]+s, CPU median [\d.]+s p90 [\d.]+s`).MatchString(lines[4]) ||
		!regexp.MustCompile(`, line median \d+ moves p90 \d+ \(as found: median \d+; by hand: median \d+ p90 \d+\)`).MatchString(lines[4]) {
		t.Errorf("summary %q", lines[4])
	}
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "arachnid 1 1\narachnid 1 2\narachnid 1 3\narachnid 1 4\n" {
		t.Errorf("record:\n%s", b)
	}
	if !autoplay {
		return
	}
	out, stderr, code = run(t, "", "spider", "bench", "--mode", "autoplay", "--suits", "1", "--deals", "2", "--samples", "4", "--nodes", "30000", "--judge-nodes", "0")
	if code != 0 || !strings.Contains(out, "deal 2: won") || !strings.Contains(out, " 8/8 suits\n") || !strings.Contains(out, "won 1/1 (100.0%, 95% interval 20.7-100.0%)") ||
		!strings.Contains(out, "8.00 of 8 suits completed on average") {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
}

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi string
	}{
		{117, 200, "51.6", "65.1"}, // the 2-suit figure of docs/solver.md
		{0, 10, "0.0", "27.8"},
		{10, 10, "72.2", "100.0"},
		{1, 1, "20.7", "100.0"},
	} {
		t.Run(fmt.Sprintf("%d/%d", c.k, c.n), func(t *testing.T) {
			lo, hi := wilson(c.k, c.n)
			if got := fmt.Sprintf("%.1f %.1f", 100*lo, 100*hi); got != c.lo+" "+c.hi {
				t.Errorf("wilson(%d, %d) = %s, want %s %s", c.k, c.n, got, c.lo, c.hi)
			}
		})
	}
}

// atof is s as a number, 0 when it is none.
func atof(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
