package table_test

import (
	"errors"
	"fmt"
	"testing"

	"cardtable/internal/table"
)

// TestChatAllowancesBounded: a table remembers at most MaxChatBuckets
// chat allowances, each fresh identity from a fresh address taking two
// (its own and its address's), so a client chatting under ever new
// identities and addresses cannot grow a table's memory. Past the bound
// a newcomer is refused while the others are still spending; once they
// have refilled they are forgotten and newcomers chat again.
func TestChatAllowancesBounded(t *testing.T) {
	clk := newFakeClock()
	h := newHub(t, newMemStore(), clk)
	tb := mustCreate(t, h, "c", table.Config{Players: 2})
	fresh := func(i int) table.Player {
		return table.Player{ID: fmt.Sprintf("fresh%d", i), Name: "W", Addr: fmt.Sprintf("10.0.%d.%d", i/250, i%250+1)}
	}
	n := 0
	for ; n < table.MaxChatBuckets; n++ {
		if err := tb.Chat(bg, fresh(n), "hi"); err != nil {
			if !errors.Is(err, table.ErrRateLimited) {
				t.Fatalf("line %d: %v", n, err)
			}
			break
		}
	}
	if n != table.MaxChatBuckets/2 {
		t.Fatalf("%d fresh people chatted before a refusal, want %d (two allowances each)", n, table.MaxChatBuckets/2)
	}
	clk.Advance(table.ChatBurst * table.ChatEvery) // every allowance full again: forgettable
	for i := range table.MaxChatBuckets / 2 {
		if err := tb.Chat(bg, fresh(n+i), "again"); err != nil {
			t.Fatalf("after the others refilled, newcomer %d: %v", i, err)
		}
	}
}
