package table

import "time"

// Clock is the table's source of time: real by default, a fake one in
// tests so that timers fire when the test says.
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer like time.Timer.
type Timer interface {
	C() <-chan time.Time
	// Stop stops the timer; after it no value is sent on C (a value
	// already sent may be waiting; the table tells stale ones apart).
	Stop() bool
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time { return r.t.C }
func (r realTimer) Stop() bool          { return r.t.Stop() }
