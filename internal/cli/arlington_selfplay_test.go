package cli

// arlington selfplay and bench: bots against bots, their levels, seeds and
// a cancelled run.

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
)

func TestArlingtonSelfplay(t *testing.T) {
	out, errOut, code := arlRun(t, "", "arlington", "selfplay", "--players", "3", "--games", "6", "--seats", "greedy,random", "--seed", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"3 players, 6 games", "\n1     greedy", "\n2     random", "\n3     greedy", "points/hand", "cards and views checked"} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in\n%s", want, out)
		}
	}
	// The win shares add up to the games played.
	total := 0.0
	for _, line := range strings.Split(out, "\n")[2:5] {
		f := strings.Fields(line)
		w, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		total += w
	}
	if total < 5.99 || total > 6.01 {
		t.Fatalf("wins add up to %v, want 6\n%s", total, out)
	}
	again, _, _ := arlRun(t, "", "arlington", "selfplay", "--players", "3", "--games", "6", "--seats", "greedy,random", "--seed", "5")
	if cut := func(s string) string { return s[:strings.LastIndex(s, "hands:")] }; cut(again) != cut(out) {
		t.Fatal("selfplay with the same seed differs")
	}
}

// The report names a level as the lobby does, however it was typed.
func TestArlingtonSelfplayLevelCase(t *testing.T) {
	out, errOut, code := arlRun(t, "", "arlington", "selfplay", "--players", "2", "--games", "1", "--seats", "Greedy,RANDOM")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"\n1     greedy", "\n2     random"} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in\n%s", want, out)
		}
	}
}

func TestArlingtonBench(t *testing.T) {
	out, errOut, code := arlRun(t, "", "arlington", "bench", "--players", "2", "--games", "5")
	if code != 0 || !strings.Contains(out, "games/s") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
}

// The largest seed is usable for one game, and the seed range is printed
// as played.
func TestArlingtonSelfplayLastSeed(t *testing.T) {
	out, errOut, code := arlRun(t, "", "arlington", "selfplay", "--players", "2", "--games", "1", "--seed", "18446744073709551615")
	if code != 0 || !strings.Contains(out, "seeds 18446744073709551615 to 18446744073709551615") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
}

// A cancelled context (Ctrl+C) stops selfplay and bench with an error and
// no report, even inside a long game.
func TestArlingtonSelfplayCancelled(t *testing.T) {
	for _, sub := range []string{"selfplay", "bench"} {
		t.Run(sub, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var out, errb bytes.Buffer
			code := Run(ctx, []string{"arlington", sub, "--players", "6", "--games", "1000", "--target", "1000"}, strings.NewReader(""), &out, &errb)
			if code != 1 || out.Len() != 0 || !strings.Contains(errb.String(), "context canceled") {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
			}
		})
	}
}
