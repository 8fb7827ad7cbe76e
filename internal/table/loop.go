package table

import (
	"context"
	"errors"
	"fmt"
	"time"

	"cardtable/arlington"
)

// loop is a table's state, owned by the table's goroutine (run): nothing
// else reads or writes it.
type loop struct {
	t     *Table
	h     *Hub
	ctx   context.Context // the table's life: cancelled when run returns
	cfg   Config
	st    *arlington.State
	moves int // actions stored
	seats []seat
	subs  map[*Sub]struct{}
	subN  uint64 // subscriptions made so far, to number them

	// think is the bot decision in flight, nil if none; results is where
	// bot goroutines hand their answers in.
	think   *think
	results chan botResult
	begun   chan *think // a bot goroutine got its worker
	pool    []Bot       // each seat's idle bot (its own or its stand-in)
	// timedOut is the event count at which the turn timer last ran out:
	// the stand-in plays that one action for a person still connected.
	timedOut int

	turn timerSlot // the turn timer, armed for (seat, event count)
	// resumed is the turn a table restored here was waiting on, and when
	// it was last written: that turn's timer runs on from there (turnLeft).
	resumed struct {
		key [2]int
		at  time.Time // zero: none
	}
	idle  timerSlot // closes the table when nobody is connected
	retry timerSlot // tries a bot's action again after a store error
	fails int       // the store errors in a row on bots' actions

	chatLines []ChatLine
	chatN     int
	// anon numbers the spectators without a name who chatted, anonN the
	// last number given (anonOf, keepAnon).
	anon  map[string]int
	anonN int
	// words are the events told in words, one for each event from the
	// first, by nar (words.go).
	words   []string
	nar     *arlington.Narrator
	buckets map[string]*bucket

	// rematch is the table made to play again with these seats, once
	// someone asked for it (rematch.go).
	rematch string
	// rematchClosed: that table has closed since (idle: nobody came; or
	// its game over), so it is no longer offered to join.
	rematchClosed bool
	// playingOut: everyone left a rated game, and the stand-ins play it
	// to its end with nobody connected (playsOut).
	playingOut bool
	// endStored: the game's end (and, rated, its ratings) is stored.
	endStored bool

	dirty   bool // the game or the seats changed: broadcast
	counted bool // only the connections changed: update the summary
	// acted holds when each action applied since the last broadcast
	// began, for Observer.Acted.
	acted []time.Time
}

// seat is one seat at the table.
type seat struct {
	bot    string // the bot's level; "" for a person's seat
	player string // the person's identity, "" while open
	name   string
	away   bool // the person left or timed out unconnected: a bot plays at once
	// left: away because the person left (Leave), not because their
	// connection was lost; a rematch holds no seat for them.
	left bool
	// reserved: held for player (a rematch), who has not taken it yet.
	reserved bool
	subs     int // the person's live subscriptions
	rating   int // the shown rating (rating.Shown) of the bot level or person; 0: none
	// ratingChange is what this game's rated end moved rating by (0:
	// none, or not known: finishRated).
	ratingChange int
}

// timerSlot is an armed timer and what it was armed for; a nil C blocks
// for ever in a select, which is what an unarmed slot wants.
type timerSlot struct {
	t   Timer
	key [2]int
}

func (s *timerSlot) arm(c Clock, d time.Duration, key [2]int) {
	s.stop()
	s.t, s.key = c.NewTimer(d), key
}

func (s *timerSlot) armed(key [2]int) bool { return s.t != nil && s.key == key }

func (s *timerSlot) stop() {
	if s.t != nil {
		s.t.Stop()
		s.t = nil
	}
}

func (s *timerSlot) c() <-chan time.Time {
	if s.t == nil {
		return nil
	}
	return s.t.C()
}

func newLoop(t *Table, cfg Config, st *arlington.State, stored []StoredSeat) *loop {
	l := &loop{t: t, h: t.h, cfg: cfg, st: st, moves: len(st.History()),
		seats: make([]seat, cfg.Players), subs: map[*Sub]struct{}{},
		results: make(chan botResult), begun: make(chan *think), pool: make([]Bot, cfg.Players),
		timedOut: -1, buckets: map[string]*bucket{}}
	for i := range l.seats {
		l.seats[i].bot = cfg.Bots[i]
		if i < len(stored) && l.seats[i].bot == "" {
			l.seats[i].player, l.seats[i].name = stored[i].Player, stored[i].Name
			l.seats[i].reserved = stored[i].Reserved && stored[i].Player != ""
			l.seats[i].away = stored[i].Away && stored[i].Player != ""
			l.seats[i].left = stored[i].Left && l.seats[i].away
		}
	}
	return l
}

// run is the table's goroutine. It returns when ctx is done (the server
// stops: the table stays open in the store) or when the table has had
// nobody connected for the hub's IdleAfter (it is marked closed, or stays
// over). Before returning it cancels every bot decision in flight (their
// goroutines exit as their Act returns) and closes every subscription.
func (t *Table) run(ctx context.Context) {
	l := t.l
	var cancel context.CancelFunc
	l.ctx, cancel = context.WithCancel(ctx)
	defer func() {
		cancel()
		l.turn.stop()
		l.idle.stop()
		l.retry.stop()
		if l.think != nil {
			l.think.deadline.stop()
			l.h.workers.done(l.think.tk)
		}
		why := ErrClosed
		if t.Moved() {
			why = ErrMoved
		}
		for s := range l.subs {
			l.drop(s, why)
		}
		t.h.released(t)
		t.h.remove(t) // before done: once Done, the hub no longer lists it
		close(t.done)
		if from := t.from.Load(); from != nil && ctx.Err() == nil && !t.Moved() {
			// Closed for good (idle, or over), not a stop or a move: the
			// table it is the rematch of stops offering it. This waits for
			// that table's loop at most until it closes or the server stops.
			from.rematchClosed(ctx, t.id)
		}
	}()
	l.loadRatings(-1)
	if l.st.Terminal() {
		l.finish(StatusOver) // it ended, but the store did not hear of it
	}
	for {
		if t.Moved() {
			return // another server holds it now
		}
		l.settle()
		l.flush()
		var deadline <-chan time.Time
		if l.think != nil {
			deadline = l.think.deadline.c()
		}
		select {
		case f := <-t.cmds:
			f(l)
		case j := <-l.begun:
			l.begin(j)
		case r := <-l.results:
			l.botDone(r)
		case <-deadline:
			l.botLate()
		case <-l.turn.c():
			l.turnOut()
		case <-l.retry.c():
			l.retry.stop()
		case <-l.idle.c():
			l.idle.stop()
			if len(l.subs) == 0 {
				if l.playsOut() {
					continue
				}
				switch {
				case !l.st.Terminal():
					l.finish(StatusClosed)
				case !l.endStored: // the store failed at the end: once more
					l.finish(StatusOver)
				}
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

func (l *loop) started() bool {
	for _, s := range l.seats {
		if s.bot == "" && (s.player == "" || s.reserved) {
			return false
		}
	}
	return true
}

// back notes that seat's person is back: a timed-out turn is theirs again.
func (l *loop) back(seat int) {
	l.setAway(seat, false, false)
	if seat == l.st.ToMove() {
		l.timedOut = -1
	}
}

// botPlays says whether a bot acts for seat now: its own bot, a stand-in
// for a person away, or a stand-in for one turn whose timer ran out.
func (l *loop) botPlays(seat int) bool {
	s := l.seats[seat]
	return s.bot != "" || s.away || l.timedOut == l.st.EventCount()
}

// settle starts or stops what the table waits on after any change: the
// idle timer while nobody is connected; a bot decision or the turn timer
// while the game is on and somebody is connected (with nobody there, no
// one is kept waiting, so the table holds still until someone returns
// or it closes idle, or plays out a rated game: playsOut).
func (l *loop) settle() {
	if len(l.subs) == 0 {
		if l.idle.t == nil {
			l.idle.arm(l.h.o.Clock, l.h.o.IdleAfter, [2]int{})
		}
	} else {
		l.idle.stop()
	}
	if !l.started() || l.st.Terminal() || (len(l.subs) == 0 && !l.playingOut) || l.retry.t != nil {
		l.turn.stop()
		return
	}
	seat, n := l.st.ToMove(), l.st.EventCount()
	if l.think != nil && (l.think.seat != seat || l.think.at != n || !l.botPlays(seat)) {
		// Stale: the game moved on, or the person came back. Its answer
		// will be dropped when it comes.
		l.abandon()
	}
	if l.botPlays(seat) {
		l.turn.stop()
		if l.think == nil {
			l.startThink(seat)
		}
		return
	}
	if l.turnTimed() {
		if !l.turn.armed([2]int{seat, n}) {
			l.turn.arm(l.h.o.Clock, l.turnLeft(l.cfg.turn(), [2]int{seat, n}), [2]int{seat, n})
		}
	} else {
		l.turn.stop()
	}
}

// turnLeft is how long the turn key has on a timer of d: all of d, but
// for the turn a restored table was waiting on, what was left of it when
// the table was last written (after a restart or on another server the
// timer goes on rather than starting again). At least MinTurnSeconds are
// left: the person may have lost a few seconds reconnecting.
func (l *loop) turnLeft(d time.Duration, key [2]int) time.Duration {
	r := l.resumed
	l.resumed.at = time.Time{}
	if r.at.IsZero() || r.key != key {
		return d
	}
	left := d - l.h.o.Clock.Now().Sub(r.at)
	return min(d, max(left, MinTurnSeconds*time.Second))
}

// turnTimed: the turn timer runs now for the seat to move (settle arms
// it, the views say so: Update.Timed). It runs only at a table with a
// turn timer, in a game on, someone connected or a rated game playing
// out, no bot's action waiting to be stored again, for a person's turn
// (not a bot's, nor one the stand-in plays), and only while someone
// else is waiting for that seat (a connection other than its own) or at
// a rated table, where a person alone with bots may not stall the game,
// and its rating, for ever.
func (l *loop) turnTimed() bool {
	if l.cfg.turn() <= 0 || !l.started() || l.st.Terminal() || (len(l.subs) == 0 && !l.playingOut) || l.retry.t != nil {
		return false
	}
	seat := l.st.ToMove()
	return seat >= 0 && seat < len(l.seats) && !l.botPlays(seat) && (l.othersConnected(seat) || l.cfg.Rated)
}

// othersConnected: someone other than seat's person is connected, and so
// waiting for seat.
func (l *loop) othersConnected(seat int) bool { return len(l.subs) > l.seats[seat].subs }

// turnOut: the turn timer ran out. The stand-in plays this action; if the
// person is not even connected, it plays their turns until they return.
func (l *loop) turnOut() {
	key := l.turn.key
	l.turn.stop()
	seat, n := l.st.ToMove(), l.st.EventCount()
	if key != [2]int{seat, n} || l.st.Terminal() {
		return
	}
	l.timedOut = n
	if l.seats[seat].subs == 0 {
		l.setAway(seat, true, false)
		l.dirty = true
	}
}

// apply checks seat's action on a copy of the game, stores it, and only
// then makes the copy the game: a refused or unstored action changes
// nothing.
func (l *loop) apply(seat int, a arlington.Action) error {
	began := time.Now() // the real clock: a figure for the observer
	c := l.st.Clone()
	n := c.EventCount()
	if err := c.Apply(seat, a); err != nil {
		return illegal{err}
	}
	done := a
	for _, e := range c.Events(n) {
		if e.Kind == arlington.EventMove {
			done = e.Action // as the engine recorded it, its spectrum named
			break
		}
	}
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	mv := StoredMove{Seat: seat, Action: done.String()}
	if err := l.h.o.Store.AppendAction(ctx, l.t.id, l.moves, mv); err != nil {
		if err = l.checkMoved(err); errors.Is(err, ErrMoved) || !l.moveStored(mv) {
			return fmt.Errorf("%w: %w", ErrStore, err)
		}
		// The write committed and only its answer was lost: the move
		// stands, so it is taken as made, never refused.
	}
	l.st = c
	l.moves++
	l.dirty = true
	l.storeWorks()
	l.acted = append(l.acted, began)
	if c.Terminal() {
		l.finish(StatusOver)
	}
	return nil
}

// moveStored reports whether the store holds mv as this table's next
// move after a refused write: the write may have committed with its
// answer lost, and the store then refuses that number again, so every
// later move would be refused while the table showed the position
// before it. A store that cannot be read answers no (the refusal
// stands, the table unchanged). Its own time: the refused write may
// have used all of its own.
func (l *loop) moveStored(mv StoredMove) bool {
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	s, err := l.h.loadLive(ctx, l.t.id)
	return err == nil && len(s.Moves) == l.moves+1 && s.Moves[l.moves] == mv
}

// finish marks the table over or closed in the store. A failure is only
// reported: an over game is finished again when the table closes idle,
// or else replayed to its end on restart and finished then; a closed one
// reopens and closes idle again.
func (l *loop) finish(s Status) {
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	at := l.h.o.Clock.Now().UTC()
	var err error
	rated := false // a rated game's end: stored with its ratings
	if s == StatusOver {
		rated, err = l.finishRated(ctx, at)
	}
	if !rated {
		err = l.h.o.Store.FinishTable(ctx, l.t.id, s, at)
	}
	if l.checkMoved(err) != nil {
		l.h.o.Logf("table %s: storing %s: %v", l.t.id, s, err)
	}
	l.endStored = s == StatusOver && err == nil
	l.dirty = true
}

// illegal is an action the engine refused: it is ErrIllegal and the
// engine's error, and says only the engine's words, which already name
// the rule ("illegal action: ... (rule ...)"), not the class twice.
type illegal struct{ err error }

func (e illegal) Error() string   { return e.err.Error() }
func (e illegal) Unwrap() []error { return []error{ErrIllegal, e.err} }
