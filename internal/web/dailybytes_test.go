package web

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestDailyBytes: an address stores up to its limit a day, then is
// refused (429 class, with when to try again) until the next UTC day;
// another address has its own; the tracked addresses are bounded.
func TestDailyBytes(t *testing.T) {
	d := &DailyBytes{Limit: 1000, MaxKeys: 2}
	from := func(addr string) *http.Request {
		r := httptest.NewRequest("PUT", "/", nil)
		r.RemoteAddr = addr
		return r
	}
	now := time.Date(2026, 11, 26, 23, 0, 0, 0, time.UTC)
	a, b := "192.0.2.1:1000", "192.0.2.2:1000"
	if err := d.Charge(from(a), 600, now); err != nil {
		t.Fatal(err)
	}
	err := d.Charge(from(a), 401, now)
	if !errors.Is(err, ErrTooMany) || !strings.Contains(err.Error(), "try again in 1h0m0s") {
		t.Fatalf("past the limit: %v", err)
	}
	if err := d.Charge(from("192.0.2.1:2000"), 400, now); err != nil {
		t.Fatalf("up to the limit, another port: %v", err)
	}
	if err := d.Charge(from(b), 1000, now); err != nil {
		t.Fatalf("another address: %v", err)
	}
	if err := d.Charge(from(a), 1, now.Add(time.Hour)); err != nil {
		t.Fatalf("the next day: %v", err)
	}
	for i := range 5 {
		d.Charge(from("198.51.100."+string(rune('1'+i))+":1"), 1, now.Add(time.Hour))
	}
	if len(d.count) > 2 {
		t.Fatalf("%d addresses tracked, want at most 2", len(d.count))
	}
}
