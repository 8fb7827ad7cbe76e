package cli

import (
	"math"
	"testing"
)

// The selfplay report's 95% interval: the normal approximation over deals,
// and no false certainty where it has nothing to go on.
func TestArlReportInterval(t *testing.T) {
	deal := func(games int, wins ...float64) arlDeal {
		return arlDeal{games: games, wins: wins, points: make([]float64, len(wins))}
	}
	tests := []struct {
		name   string
		deals  []arlDeal
		lo, hi float64
	}{
		{"one deal: no spread to go on", []arlDeal{deal(2, 0, 2)}, 0, 1},
		{"every game lost", []arlDeal{deal(1, 0, 1), deal(1, 0, 1), deal(1, 0, 1), deal(1, 0, 1), deal(1, 0, 1), deal(1, 0, 1)}, 0, 0.5},
		{"every game won", []arlDeal{deal(1, 1, 0), deal(1, 1, 0), deal(1, 1, 0), deal(1, 1, 0), deal(1, 1, 0), deal(1, 1, 0)}, 0.5, 1},
		// shares 0, 1, 0, 1: mean 0.5, sd 0.577, half 1.96*0.577/2.
		{"normal approximation", []arlDeal{deal(1, 0, 1), deal(1, 1, 0), deal(1, 0, 1), deal(1, 1, 0)}, 0.5 - 0.5658, 0.5 + 0.5658},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := arlReport([]string{"a", "b"}, tc.deals, true)
			ci := rep.Seats[0].WinShareCI95
			lo, hi := max(0, tc.lo), min(1, tc.hi)
			if math.Abs(ci[0]-lo) > 1e-3 || math.Abs(ci[1]-hi) > 1e-3 {
				t.Errorf("interval %.4f-%.4f, want %.4f-%.4f", ci[0], ci[1], lo, hi)
			}
		})
	}
}
