package table

import (
	"math/rand/v2"
	"time"
)

// A bot's action the store refused is tried again after a backoff: the
// first wait is about RetryMin, each following one twice the last, up to
// RetryMax. Each wait is drawn from the upper half of its step (jitter),
// so tables failing together do not knock on the store in step. A store
// that has gone away (a deleted database) is then tried twice a minute
// per table, not every second.
const (
	RetryMin = time.Second
	RetryMax = 30 * time.Second
	// retryLogEvery: at the cap, one failure in this many is logged (about
	// every ten minutes), so the log says the store is still failing
	// without a line every half minute per table.
	retryLogEvery = 20
)

// retrySteps is how many doublings take RetryMin to RetryMax.
var retrySteps = func() int {
	n := 0
	for d := RetryMin; d < RetryMax; d *= 2 {
		n++
	}
	return n
}()

// retryStep is the backoff step after fails failures in a row (fails >= 1).
func retryStep(fails int) time.Duration {
	if fails-1 >= retrySteps {
		return RetryMax
	}
	return min(RetryMax, RetryMin<<(fails-1))
}

// storeFailed notes a store error on seat's bot action and arms the retry.
// It is logged once per backoff step: each step up to the cap, then one
// failure in retryLogEvery.
func (l *loop) storeFailed(seat int, err error) {
	l.fails++
	step := retryStep(l.fails)
	wait := step/2 + rand.N(step/2+1)
	if l.fails <= retrySteps+1 || (l.fails-retrySteps-1)%retryLogEvery == 0 {
		l.h.o.Logf("table %s: seat %d: %v (failure %d in a row; trying again in %s)",
			l.t.id, seat, err, l.fails, wait.Round(time.Millisecond))
	}
	l.retry.arm(l.h.o.Clock, wait, [2]int{})
}

// storeWorks notes an action stored: the backoff starts again from the
// first step, and the recovery is logged after failures.
func (l *loop) storeWorks() {
	if l.fails > 0 {
		l.h.o.Logf("table %s: stored again after %d failures", l.t.id, l.fails)
		l.fails = 0
	}
}
