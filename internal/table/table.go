package table

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"cardtable/arlington"
)

// Table is one live table. Its game state is owned by one goroutine (see
// loop); every method sends that goroutine a command and waits for its
// answer, so the methods are safe for concurrent use and never touch the
// state themselves.
type Table struct {
	id      string
	creator string
	addr    string // the client address it was created from ("" unknown or restored)
	created time.Time
	h       *Hub
	cmds    chan func(*loop)
	done    chan struct{} // closed when the goroutine has exited
	summary atomic.Pointer[Summary]
	l       *loop  // handed to run; only run's goroutine uses it
	born    uint64 // its place in the hub's starts (Hub.gen)
	moved   atomic.Bool
	// from is the live table this one is the rematch of, told when this
	// one closes so that its pages stop offering it (nil: none here).
	from atomic.Pointer[Table]
}

func newTable(h *Hub, s Stored, cfg Config, st *arlington.State) *Table {
	t := &Table{id: s.ID, creator: s.Creator, created: s.Created, h: h,
		cmds: make(chan func(*loop)), done: make(chan struct{})}
	t.l = newLoop(t, cfg, st, s.Seats)
	t.l.startChat(s.Chat)
	t.summary.Store(t.l.summary())
	return t
}

// Moved reports whether the table stopped here because another server
// holds it now (ErrMoved): its connections should reconnect to reach it.
func (t *Table) Moved() bool { return t.moved.Load() }

// ID is the table's identifier, fit for a shareable link.
func (t *Table) ID() string { return t.id }

// Done is closed once the table's goroutine has exited (closed idle, or
// the hub stopped).
func (t *Table) Done() <-chan struct{} { return t.done }

// Summary is the table as the lobby shows it (no hidden information, no
// identities). It does not wait for the table's goroutine.
func (t *Table) Summary() Summary { return *t.summary.Load() }

// do runs f in the table's goroutine and returns its error; ErrClosed if
// the table is gone. Once the goroutine has taken f it always runs it to
// the end, so the caller's ctx ending cannot lose an acknowledgement. The
// answer comes after f's effects are broadcast: when do returns, every
// subscriber has its update queued.
func (t *Table) do(ctx context.Context, f func(*loop) error) error {
	reply := make(chan error, 1)
	run := func(l *loop) {
		err := f(l)
		l.settle()
		l.flush()
		reply <- err
	}
	select {
	case t.cmds <- run:
	case <-t.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-reply
}

// Join seats player p at seat (-1: the first open seat) and returns the
// seat. A player already seated here gets their seat back (a reload; a
// new display name replaces the old); a player may hold one seat. Seats
// can be taken only before the game starts, which it does as soon as
// every seat is taken. The seat is stored before Join returns.
func (t *Table) Join(ctx context.Context, p Player, seat int) (int, error) {
	var got int
	err := t.do(ctx, func(l *loop) error {
		var err error
		got, err = l.join(p, seat)
		return err
	})
	return got, err
}

// Leave gives up player's seat. Before the game starts the seat opens
// again; after, the seat stays the player's and a bot plays it at once
// until the player returns (subscribes, joins or acts). LeaveSeat says
// which it was.
func (t *Table) Leave(ctx context.Context, player string) error {
	_, err := t.LeaveSeat(ctx, player)
	return err
}

// Left is what Leave did: Opened, the seat (or the seat held for the
// person) opened for anyone; or, the game having started, the person
// keeps Seat, marked Away, and a stand-in plays it until they return.
type Left struct {
	Opened bool `json:"opened"`
	Away   bool `json:"away"`
	Seat   int  `json:"seat"` // the seat kept: -1 when it opened
}

// LeaveSeat is Leave, saying what it did. A person leaving a finished
// table whose rematch is made here gives up the seat held for them there
// too (one they took stays theirs): the others should not wait for them.
func (t *Table) LeaveSeat(ctx context.Context, player string) (Left, error) {
	var left Left
	var rematch string
	err := t.do(ctx, func(l *loop) error {
		var err error
		left, err = l.leave(player)
		if err == nil && l.st.Terminal() {
			rematch = l.rematch
		}
		return err
	})
	if rematch != "" {
		// Outside this table's goroutine: the rematch's may be waiting on
		// this one (rematchClosed). A rematch on another server, or closed
		// meanwhile, keeps its hold: it lapses with the table.
		if rt, rerr := t.h.Table(rematch); rerr == nil {
			t.freeHeld(ctx, rt, player)
		}
	}
	return left, err
}

// freeHeld opens the seat held for player at t's rematch rt, if one is
// (a seat they took stays theirs). Not on t's goroutine: rt's may be
// waiting on t's (rematchClosed).
func (t *Table) freeHeld(ctx context.Context, rt *Table, player string) {
	err := rt.do(ctx, func(l *loop) error {
		if l.reservedFor(player) < 0 {
			return nil
		}
		_, err := l.leave(player)
		return err
	})
	if err != nil && !errors.Is(err, ErrClosed) {
		t.h.o.Logf("table %s: freeing the seat held at its rematch %s: %v", t.id, rt.id, err)
	}
}

// Act takes action a for seat on behalf of player. seat -1 means the
// player's own seat; another seat is refused (ErrNotYourSeat), as is an
// action out of turn (ErrNotYourTurn) or against the rules (ErrIllegal,
// wrapping the engine's *arlington.RuleError). A refusal changes nothing
// and is seen by nobody else. A nil error means the action is stored and
// every subscriber will see it.
func (t *Table) Act(ctx context.Context, player string, seat int, a arlington.Action) error {
	return t.do(ctx, func(l *loop) error { return l.act(player, seat, a) })
}

// View is player's own seat's view now, for what needs one decision
// rather than a stream (a hint): ErrNotSeated for a player without a
// seat, ErrNotStarted before the game starts. It does not mark the player
// present.
func (t *Table) View(ctx context.Context, player string) (arlington.View, error) {
	var v arlington.View
	err := t.do(ctx, func(l *loop) error {
		mine := l.seatOf(player)
		switch {
		case mine < 0:
			return ErrNotSeated
		case !l.started():
			return ErrNotStarted
		}
		v = l.st.View(mine)
		return nil
	})
	return v, err
}

// Chat posts a short message from p (seated or watching) to everyone at
// the table. Messages are limited in length (MaxChatRunes) and rate
// (ChatBurst, then one per ChatEvery).
func (t *Table) Chat(ctx context.Context, p Player, text string) error {
	return t.do(ctx, func(l *loop) error { return l.chat(p, text) })
}

// Subscribe connects player (an identity; "" or a player not seated here
// watches as a spectator) to the table's updates. The first update is the
// view with the public events from number since on (since < 0: all of
// them); every later one carries the events after the last sent. A seated
// player's subscription makes them present: a bot stops playing for them.
// The channel is bounded: a subscriber that falls behind by SubBuffer
// updates is dropped (its channel closed, Err ErrSlow) and should
// subscribe again with the event count it has. A seated player always
// gets in (past MaxSeatConns their oldest connection ends, ErrReplaced);
// a spectator past the table's MaxSpectators or their own MaxWatching is
// refused with ErrCrowded.
func (t *Table) Subscribe(ctx context.Context, player string, since int) (*Sub, error) {
	return t.SubscribeChat(ctx, player, "", since, -1)
}

// SubscribeChat is Subscribe for a client that already has the table's
// chat lines up to number chat: its first update carries only the lines
// after it that the table still keeps (ChatHistory), so a reconnecting
// client gets each line once. chat < 0, or a number the table never
// reached, means none: the first update carries every line kept. addr is
// the client's address key ("" for none): a spectator past MaxAddrWatch
// connections from one address at this table is refused (ErrCrowded).
func (t *Table) SubscribeChat(ctx context.Context, player, addr string, since, chat int) (*Sub, error) {
	return t.SubscribeKeep(ctx, player, addr, since, chat, false)
}

// SubscribeKeep is SubscribeChat that, with keepAway, leaves a seated
// player who left by a Leave away as they are: the subscription watches
// the stand-in play rather than bring them back (one still present stays
// present). Only a Leave is kept: a person marked away without one (their
// turn's timer ran out while they were not connected, a rated game
// played out with nobody there) chose nothing, and any connection of
// theirs brings them back.
// A window that wants to play again only if the person has not left
// since asks so in the same step as it connects, so no Leave can fall
// between a look at the seat and the connection that clears it.
func (t *Table) SubscribeKeep(ctx context.Context, player, addr string, since, chat int, keepAway bool) (*Sub, error) {
	var s *Sub
	err := t.do(ctx, func(l *loop) error {
		var err error
		s, err = l.subscribe(player, addr, since, chat, keepAway)
		return err
	})
	return s, err
}
