package spidergame

import (
	"errors"
	"testing"
)

// TestQuotaWords: a save past the quota is ErrTooMany (a 422), and its
// text is the sentence the player reads, with no sentinel's name before
// it (docs/api.md, docs/operating.md).
func TestQuotaWords(t *testing.T) {
	q := SaveQuota{Count: 50, Bytes: 64 << 20}
	for _, c := range []struct {
		used SaveQuota
		want string
	}{
		{SaveQuota{Count: 50}, "you have 50 saved games (the most a player keeps); delete one to save another"},
		{SaveQuota{Count: 1, Bytes: 64 << 20}, "your saved games take 64.0 MiB and this one 1.0 MiB more, past the 64.0 MiB a player keeps; delete some to save it"},
	} {
		err := q.Admit(c.used, 1<<20)
		if !errors.Is(err, ErrTooMany) || err.Error() != c.want {
			t.Errorf("Admit(%+v): %v; want ErrTooMany, %q", c.used, err, c.want)
		}
	}
	if err := q.Admit(SaveQuota{Count: 49}, 10); err != nil {
		t.Errorf("49 saves: %v", err)
	}
}
