package solver

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"cardtable/spider"
)

func TestTry(t *testing.T) {
	a, _ := strconv.Atoi(os.Getenv("TRY_A"))
	b, _ := strconv.Atoi(os.Getenv("TRY_B"))
	suits, _ := strconv.Atoi(os.Getenv("TRY_S"))
	if a == 0 {
		t.Skip()
	}
	solved := 0
	var tot time.Duration
	for n := a; n <= b; n++ {
		p, _ := spider.NewDeal(uint64(n), spider.Arachnid, spider.Rules{Suits: suits})
		r := Solve(context.Background(), p, Limits{Time: 20 * time.Second})
		tot += r.Elapsed
		if r.Status == Solved {
			solved++
			q := *p
			for _, m := range r.Moves {
				if _, err := q.Play(m); err != nil {
					t.Fatalf("deal %d: %v", n, err)
				}
			}
			if !q.Won() {
				t.Fatalf("deal %d: not won", n)
			}
		}
		fmt.Printf("deal %d %s moves=%d nodes=%d %.2fs peak=%dMB\n", n, r.Status, len(r.Moves), r.Nodes, r.Elapsed.Seconds(), r.PeakBytes>>20)
	}
	fmt.Printf("solved %d/%d total %.1fs\n", solved, b-a+1, tot.Seconds())
}
