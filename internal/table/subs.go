package table

import (
	"fmt"
	"sync"
	"time"

	"cardtable/arlington"
)

// Update is one message for one receiver, made for them alone: a seat's
// view holds its own hand and nothing hidden from it; a spectator's holds
// no hand. Neither holds another hand, the graveyard's contents, the deck
// or the seed.
type Update struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"` // the receiver's seat, -1 for a spectator
	// Held: a seat here is held for the receiver (a rematch) and is not
	// theirs until they take it (Join with seat -1), though no seat may
	// be open to anyone else.
	Held   bool   `json:"held,omitempty"`
	Status Status `json:"status"`
	// Rematch is the table where these seats play again, once someone
	// asked for it after the game's end (Hub.RematchFrom).
	Rematch string `json:"rematch,omitempty"`
	// RematchClosed: that table has closed since (nobody came, or its
	// game is over) and can no longer be joined; known when it ran on
	// this server (on another, joining it says so).
	RematchClosed bool       `json:"rematchClosed,omitempty"`
	Seats         []SeatInfo `json:"seats"`
	// View is the game as the receiver sees it, with the public events
	// after the last update's (View.EventsFrom, View.EventCount). It is
	// nil until every seat is taken and the game starts.
	View *arlington.View `json:"view,omitempty"`
	// Log is the words of each of View's events, in order, told once by
	// the table (arlington.Narrator), the same for every receiver; Names
	// is each seat's name in them (SeatNames).
	Log   []string `json:"log"`
	Names []string `json:"names"`
	// Chat is the chat lines after the last update's (on the first update,
	// the table's recent history).
	Chat []ChatLine `json:"chat,omitempty"`
	// Timed: the turn timer runs for the seat to move (loop.turnTimed: a
	// person's turn, at a table with a timer that is rated or has someone
	// else connected; never a bot's or a stand-in's turn). A page
	// hurries the plays it has not shown yet only then; a person alone
	// with bots at a casual table keeps the pace they chose.
	Timed bool `json:"timed,omitempty"`
}

// Sub is one subscription to a table's updates.
type Sub struct {
	c      chan Update
	t      *Table
	player string
	addr   string // the client's address key, "" for none
	// Owned by the table's goroutine:
	seat     int    // -1 for a spectator
	n        uint64 // its number at the table: the oldest has the lowest
	watching bool   // counted among its player's spectator connections (Hub.watch)
	sent     int    // events sent so far
	chatSent int    // chat lines sent so far (by number)
	// err is set once, before c is closed.
	once sync.Once
	err  error
}

// Updates is the subscription's channel, closed when the subscription
// ends (Err says why).
func (s *Sub) Updates() <-chan Update { return s.c }

// Err is why the subscription ended: ErrSlow (it fell behind: subscribe
// again with the event count it has), ErrClosed (the table closed or the
// subscriber closed it). Call it once Updates is closed.
func (s *Sub) Err() error { return s.err }

// Close ends the subscription. It is safe to call more than once and
// after the table has closed.
func (s *Sub) Close() {
	_ = s.t.do(s.t.h.ctx, func(l *loop) error {
		if _, ok := l.subs[s]; ok {
			l.drop(s, ErrClosed)
		}
		return nil
	})
}

// subscribe connects player. A seated person always gets in: past
// MaxSeatConns connections to their seat the oldest is dropped
// (ErrReplaced), since a reload or a dropped network leaves connections
// the server has not yet seen end. Spectators have a share of their own
// (MaxSpectators a table, MaxWatching an identity across every table),
// so however many a client opens, the seated people are never locked out.
// A seated player's subscription brings them back from away, but with
// keepAway from away by a Leave (SubscribeKeep).
func (l *loop) subscribe(player, addr string, since, chat int, keepAway bool) (*Sub, error) {
	if len(player) > MaxPlayerIDLen {
		return nil, ErrBadPlayer
	}
	seat := l.seatOf(player)
	watching := false
	if seat < 0 {
		if n := l.spectators(); n >= MaxSpectators {
			return nil, l.crowded(player, fmt.Sprintf("%d spectators, the most a table takes", n))
		}
		if addr != "" && l.addrSpectators(addr) >= MaxAddrWatch {
			return nil, l.crowded(player, fmt.Sprintf("%d spectators from your address, the most one address may have at a table; close a window that watches this table from your address, and try again", MaxAddrWatch))
		}
		if player != "" {
			if !l.h.watch(player) {
				return nil, l.crowded(player, fmt.Sprintf("you are watching with %d connections, the most one player may", MaxWatching))
			}
			watching = true
		}
	}
	l.subN++
	s := &Sub{c: make(chan Update, SubBuffer), t: l.t, player: player, addr: addr, seat: seat, n: l.subN,
		watching: watching, sent: max(0, since), chatSent: l.chatN - len(l.chatLines)}
	if since < 0 || since > l.st.EventCount() {
		s.sent = 0 // unknown to us: the whole log
	}
	if chat >= 0 && chat <= l.chatN {
		s.chatSent = max(s.chatSent, chat) // the lines after the client's, of those kept
	}
	l.subs[s] = struct{}{}
	if s.seat >= 0 {
		l.seats[s.seat].subs++
		l.trimSeat(s.seat)
		if !keepAway || !l.seats[s.seat].left {
			l.back(s.seat)
		}
	}
	l.dirty = true // the flush after this command sends s its first update
	return s, nil
}

// crowded is player's refusal as a spectator for why (a limit reached,
// and what to do). With a seat open to them it says so and wraps
// ErrSeatOpen too: a seat needs no spectator place, so a visitor refused
// one (a classroom behind one router, a table full of spectators) can
// still sit down. A seat a rematch holds for player is open to them
// alone: it is built for each asker, so no one else is offered it.
func (l *loop) crowded(player, why string) error {
	if l.openSeat() || !l.started() && l.reservedFor(player) >= 0 {
		return fmt.Errorf("%w: %s; you can still join the game: %w", ErrCrowded, why, ErrSeatOpen)
	}
	return fmt.Errorf("%w: %s", ErrCrowded, why)
}

// spectators is how many connections watch without a seat.
func (l *loop) spectators() int {
	n := len(l.subs)
	for _, s := range l.seats {
		n -= s.subs
	}
	return n
}

// addrSpectators is how many connections from addr watch without a seat.
func (l *loop) addrSpectators(addr string) int {
	n := 0
	for s := range l.subs {
		if s.seat < 0 && s.addr == addr {
			n++
		}
	}
	return n
}

// trimSeat drops the oldest connections of seat beyond MaxSeatConns.
func (l *loop) trimSeat(seat int) {
	for l.seats[seat].subs > MaxSeatConns {
		var oldest *Sub
		for s := range l.subs {
			if s.seat == seat && (oldest == nil || s.n < oldest.n) {
				oldest = s
			}
		}
		l.drop(oldest, ErrReplaced)
	}
}

// drop ends s: its channel closes with err.
func (l *loop) drop(s *Sub, err error) {
	delete(l.subs, s)
	if s.watching {
		s.watching = false
		l.h.unwatch(s.player)
	}
	if s.seat >= 0 {
		l.seats[s.seat].subs--
	}
	s.once.Do(func() {
		s.err = err
		close(s.c)
	})
	if s.seat >= 0 {
		l.dirty = true // the seat's presence changed: everyone sees it
	} else {
		l.counted = true
	}
}

// flush sends every subscriber an update if anything changed, and
// publishes the lobby summary.
func (l *loop) flush() {
	if !l.dirty && !l.counted {
		return
	}
	if l.dirty {
		l.dirty = false
		seats := l.seatInfos()
		names := SeatNames(seats)
		l.tell(names)
		for s := range l.subs {
			l.send(s, seats, names)
		}
	}
	l.counted = false
	l.t.summary.Store(l.summary())
	for _, t := range l.acted {
		l.h.o.Observer.Acted(time.Since(t))
	}
	l.acted = l.acted[:0]
}

// send queues s's update without ever blocking: a subscriber whose queue
// is full is dropped.
func (l *loop) send(s *Sub, seats []SeatInfo, names []string) {
	u := Update{Table: l.t.id, Seat: s.seat, Held: l.reservedFor(s.player) >= 0, Status: l.status(), Rematch: l.rematch, RematchClosed: l.rematchClosed,
		Seats: seats, Names: names, Log: []string{}}
	if l.started() {
		v := l.st.ViewSince(s.seat, s.sent) // seat -1: the spectator's view
		u.View = &v
		u.Log = l.wordsOf(v.EventsFrom, v.EventCount)
		u.Timed = l.turnTimed()
	}
	u.Chat = l.chatSince(s.chatSent)
	select {
	case s.c <- u:
		if u.View != nil {
			s.sent = u.View.EventCount
		}
		s.chatSent = l.chatN
	default:
		l.drop(s, ErrSlow)
	}
}

// openSeat says whether a person may join the table now: it has not
// started and a seat waits for a person.
func (l *loop) openSeat() bool {
	if l.started() {
		return false
	}
	for _, s := range l.seats {
		if s.bot == "" && s.player == "" {
			return true
		}
	}
	return false
}
