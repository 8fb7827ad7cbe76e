package card

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// goldenDeal is one layout from testdata/spider-deals.txt (docs/deals.md),
// with the extra face-down cards on piles 1, 4, 7 and 10 as that file lays
// them out.
type goldenDeal struct {
	deal  uint64
	suits int
	piles [10]string
	rows  [5]string
}

func readGolden(tb testing.TB) []goldenDeal {
	tb.Helper()
	f, err := os.Open("testdata/spider-deals.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []goldenDeal
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "deal "):
			var g goldenDeal
			fs := strings.Fields(line)
			g.deal, err = strconv.ParseUint(fs[1], 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			g.suits, _ = strconv.Atoi(fs[3])
			out = append(out, g)
		case strings.HasPrefix(line, "pile"):
			k, _ := strconv.Atoi(line[4:strings.IndexByte(line, ':')])
			out[len(out)-1].piles[k-1] = strings.TrimSpace(line[strings.IndexByte(line, ':')+1:])
		case strings.HasPrefix(line, "row"):
			k, _ := strconv.Atoi(line[3:strings.IndexByte(line, ':')])
			out[len(out)-1].rows[k-1] = strings.TrimSpace(line[strings.IndexByte(line, ':')+1:])
		}
	}
	return out
}

func TestSpiderDealGolden(t *testing.T) {
	golden := readGolden(t)
	if len(golden) != 30 {
		t.Fatalf("read %d golden layouts, want 30", len(golden))
	}
	for _, g := range golden {
		t.Run(strconv.FormatUint(g.deal, 10)+"/"+strconv.Itoa(g.suits), func(t *testing.T) {
			d := SpiderDeal(g.deal, g.suits)
			var piles [10][]string
			i := 0
			for range 4 {
				for p := range 10 {
					piles[p] = append(piles[p], "|"+d[i].String())
					i++
				}
			}
			for _, p := range []int{0, 3, 6, 9} {
				piles[p] = append(piles[p], "|"+d[i].String())
				i++
			}
			for p := range 10 {
				piles[p] = append(piles[p], d[i].String())
				i++
			}
			for p := range 10 {
				if got := strings.Join(piles[p], " "); got != g.piles[p] {
					t.Errorf("pile%d = %s, want %s", p+1, got, g.piles[p])
				}
			}
			for r := range 5 {
				if got := Format(d[i : i+10]); got != g.rows[r] {
					t.Errorf("row%d = %s, want %s", r+1, got, g.rows[r])
				}
				i += 10
			}
		})
	}
}

func TestSpiderDeckCounts(t *testing.T) {
	for _, suits := range []int{1, 2, 4} {
		d := SpiderDeal(12345, suits)
		count := map[Card]int{}
		for _, c := range d {
			count[c]++
		}
		if len(count) != 13*suits {
			t.Errorf("suits %d: %d distinct cards, want %d", suits, len(count), 13*suits)
		}
		for c, n := range count {
			if n != 8/suits {
				t.Errorf("suits %d: %s appears %d times, want %d", suits, c, n, 8/suits)
			}
		}
	}
}

func TestParseDeal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"1", 1, true}, {"#617", 617, true}, {"18446744073709551615", MaxDeal, true},
		{"0", 0, false}, {"-1", 0, false}, {"18446744073709551616", 0, false}, {"x", 0, false}, {"", 0, false},
	} {
		got, err := ParseDeal(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseDeal(%q) = %d, %v; want %d ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestRandomDeal(t *testing.T) {
	for _, r := range []uint64{0, 1, 999_999_998, 999_999_999, MaxDeal} {
		if n := RandomDeal(r); n < 1 || n > 999_999_999 {
			t.Errorf("RandomDeal(%d) = %d", r, n)
		}
	}
	if RandomDeal(0) == RandomDeal(1) {
		t.Error("different values give the same deal")
	}
}
