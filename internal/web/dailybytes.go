package web

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// DailyBytes bounds what each client address (as the rate limit keys it:
// an IPv4 address, or an IPv6 /64) may store on the server in a day (UTC):
// the bytes of uploaded save files and named saves. The rate limit bounds
// requests, not their size: at its pace a client storing 1.3 MB saves
// could add some 225 GB a day. A game handler charges a request's bytes
// before storing them (Charge); a refusal is 429 with when to try again.
type DailyBytes struct {
	// Limit is the bytes an address may store a day.
	Limit int64
	// MaxKeys bounds how many addresses are tracked at once; past it the
	// address that stored least today is forgotten first.
	MaxKeys int

	mu    sync.Mutex
	day   int64 // the UTC day counts are for
	count map[string]int64
}

// DefaultDailyBytes is what cardtable serve uses: 256 MiB an address a
// day, two hundred saves of the longest games, far beyond a person's play.
const DefaultDailyBytes = 256 << 20

// Charge counts n bytes to r's address for today, or refuses them (an
// error of class ErrTooMany) if the address would pass its limit. A nil
// DailyBytes charges nothing.
func (d *DailyBytes) Charge(r *http.Request, n int64, now time.Time) error {
	if d == nil {
		return nil
	}
	key := addrKey(r)
	d.mu.Lock()
	defer d.mu.Unlock()
	today := now.UTC().Unix() / 86400
	if d.count == nil || d.day != today {
		d.count, d.day = map[string]int64{}, today
	}
	used := d.count[key]
	if used+n > d.Limit {
		wait := time.Unix((today+1)*86400, 0).Sub(now).Round(time.Minute)
		return &requestError{ErrTooMany, fmt.Sprintf(
			"this address has stored %.1f MB today, the most an address may store in a day; try again in %s (after midnight UTC)",
			float64(used)/1e6, wait)}
	}
	if _, ok := d.count[key]; !ok && d.MaxKeys > 0 && len(d.count) >= d.MaxKeys {
		d.forgetLeast()
	}
	d.count[key] = used + n
	return nil
}

// forgetLeast drops the address that stored least today: it loses the
// least of its limit. Called with mu.
func (d *DailyBytes) forgetLeast() {
	least, first := "", true
	for k, v := range d.count {
		if first || v < d.count[least] {
			least, first = k, false
		}
	}
	delete(d.count, least)
}
