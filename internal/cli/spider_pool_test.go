package cli

import (
	"fmt"
	"strings"
	"testing"

	"cardtable/spider"
	"cardtable/spider/solver"
)

func TestSpiderPool(t *testing.T) {
	pool := func(args ...string) []string {
		t.Helper()
		out, stderr, code := run(t, "", append([]string{"spider", "pool", "--variant", "spider", "--suits", "1", "--count", "3"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		return strings.Split(strings.TrimSpace(out), "\n")
	}
	lines := pool()
	if len(lines) != 4 || !strings.HasPrefix(lines[3], "# spider pool --variant spider --suits 1 --seed 24 ") ||
		!strings.HasSuffix(lines[3], "(next: --from 3)") {
		t.Fatalf("want 3 deals and a summary ending at index 2:\n%s", strings.Join(lines, "\n"))
	}
	// The deals are the seed's candidates, in order, in the embedded
	// file's format (1-suit deals: all three solve).
	for i, l := range lines[:3] {
		want := fmt.Sprintf("spider 1 %d", solver.PoolCandidate(24, spider.Spider, 1, uint64(i)))
		if l != want {
			t.Errorf("line %d: %q, want %q", i, l, want)
		}
	}
	// --from continues; --jobs changes nothing but the speed.
	next := pool("--from", "3", "--count", "2", "--jobs", "2")
	want := fmt.Sprintf("spider 1 %d", solver.PoolCandidate(24, spider.Spider, 1, 3))
	if len(next) != 3 || next[0] != want || !strings.HasSuffix(next[2], "(next: --from 5)") {
		t.Errorf("--from 3: %q, want %q first", next, want)
	}
}

func TestSpiderPoolUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--count", "0"},
		{"--suits", "3"},
		{"--variant", "scorpion"},
		{"--jobs", "0"},
		{"--nodes", "-1"},
		{"--seed", "-1"},
		{"extra"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, stderr, code := run(t, "", append([]string{"spider", "pool"}, args...)...)
			if code != 2 || stderr == "" {
				t.Fatalf("exit %d, stderr %q; want 2 with a message", code, stderr)
			}
		})
	}
}
