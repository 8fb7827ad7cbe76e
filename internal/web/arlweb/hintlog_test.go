package arlweb

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/internal/table"
	"cardtable/internal/web"
	"cardtable/internal/web/webtest"
)

// brokenBot is a hint bot that fails at once, not for want of time.
type brokenBot struct{}

func (brokenBot) Name() string { return HintBot }

func (brokenBot) Act(context.Context, arlington.View) (arlington.Action, error) {
	return arlington.Action{}, errors.New("the bot is broken")
}

// TestHintRefusalsLogged: a hint refused because every hint slot stayed
// taken, or because the bot ran out of the hint's time, is load, logged
// at INFO with reason busy (docs/hosting.md "Logs"); a bot that fails
// otherwise is a fault, at ERROR.
func TestHintRefusalsLogged(t *testing.T) {
	var log webtest.Log
	e, _ := newEnvLogged(t, &log)
	mover, path := hintAsker(t, e)
	for _, tc := range []struct {
		name        string
		full        bool
		bot         table.Bot
		level, want string
	}{
		{"slots full", true, brokenBot{}, "INFO", "busy"},
		{"bot out of time", false, untilTimeUp{}, "INFO", "busy"},
		{"bot broken", false, brokenBot{}, "ERROR", ""},
	} {
		before := len(log.Failed(t, path))
		e.arl.hintTime = 100 * time.Millisecond
		e.arl.newHint = func(uint64) (table.Bot, error) { return tc.bot, nil }
		if tc.full {
			for range cap(hintSlots) {
				hintSlots <- struct{}{}
			}
		}
		code := mover.do("GET", path, nil, nil)
		if tc.full {
			for range cap(hintSlots) {
				<-hintSlots
			}
		}
		if code != http.StatusServiceUnavailable {
			t.Fatalf("%s: %d, want 503", tc.name, code)
		}
		ls := log.Failed(t, path)[before:]
		if reason, _ := ls[0]["reason"].(string); len(ls) != 1 || ls[0]["level"] != tc.level || reason != tc.want {
			t.Errorf("%s: logged %v, want one %s line with reason %q", tc.name, ls, tc.level, tc.want)
		}
	}
}

// TestHintWaitLeftLoggedGone: a player who leaves while their hint waits
// for a slot is a client gone, not a refusal for load.
func TestHintWaitLeftLoggedGone(t *testing.T) {
	for range cap(hintSlots) {
		hintSlots <- struct{}{}
	}
	t.Cleanup(func() {
		for range cap(hintSlots) {
			<-hintSlots
		}
	})
	for _, tc := range []struct {
		name   string
		left   bool
		reason string
	}{{"left", true, "client gone"}, {"stayed", false, "busy"}} {
		rctx, leave := context.WithCancel(context.Background())
		ctx, cancel := context.WithTimeout(rctx, 10*time.Millisecond)
		if tc.left {
			leave()
		}
		_, err := hintTurn(rctx, ctx)
		<-ctx.Done()
		var buf webtest.Log
		log := slog.New(slog.NewJSONHandler(&buf, nil))
		web.NewEventLog(log, 0, nil).Fault(rctx, log, "request failed", "192.0.2.7", err)
		var l map[string]any
		if err := json.Unmarshal([]byte(buf.String()), &l); err != nil {
			t.Fatalf("%s: %q: %v", tc.name, buf.String(), err)
		}
		if l["level"] != "INFO" || l["reason"] != tc.reason {
			t.Errorf("%s: logged %v, want INFO with reason %q", tc.name, l, tc.reason)
		}
		cancel()
		leave()
	}
}

// hintAsker seats Ann and Bob at a new table and gives the one to move,
// with the path of the table's hint.
func hintAsker(t *testing.T, e *env) (mover *client, path string) {
	t.Helper()
	a, b := e.client(), e.client()
	id := a.create("", "")
	a.join(id, "Ann")
	b.join(id, "Bob")
	tb, err := e.hub.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	mover = a
	if v := ownView(t, tb, a, e); v.ToMove != v.Seat {
		mover = b
	}
	return mover, "/api/arlington/tables/" + id + "/hint"
}
