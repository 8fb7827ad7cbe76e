package table

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
)

// RematchFrom is the table where old's seats play again: made at the
// first asking, after the game's end, by a person seated there (others get
// the same table). Its settings are old's; its seats are old's turned by
// one (old seat i sits at i+1, the last at 0): each bot keeps its level,
// each person's seat is held for them until they take it (Join) or give it
// up (Leave), when anyone may take it. The asker takes theirs at once. The
// new table is stored, seats held, before RematchFrom returns; old's
// updates then carry its id (Update.Rematch). Its id is derived from
// old's, so a second asking finds it even if old's link was lost. A
// finished table no longer live (a restart, or closed idle after its
// end) gets the same rematch from its stored game (storedTurned).
//
// addr is the asker's client address ("" unknown). A new rematch table
// counts as the asker's, from addr, as CreateFrom's would: it is refused
// (ErrTooMany) past the same limits, so that finishing games and asking
// for rematches cannot open tables past an address's bound. Finding one
// already made is never refused.
func (h *Hub) RematchFrom(ctx context.Context, oldID, player, addr string) (*Table, int, error) {
	var (
		cfg   Config
		seats []StoredSeat
		me    Player
	)
	old, err := h.Table(oldID)
	if err == nil {
		if h.onRematchFound != nil {
			h.onRematchFound()
		}
		err = old.do(ctx, func(l *loop) error {
			mine := l.seatOf(player)
			switch {
			case mine < 0:
				return ErrNotSeated
			case !l.st.Terminal():
				return ErrNotOver
			}
			cfg, seats = l.turned()
			me = Player{ID: player, Name: l.seats[mine].name}
			return nil
		})
		if errors.Is(err, ErrClosed) {
			old, err = nil, ErrNotFound // it closed meanwhile: the store has it
		}
	}
	if errors.Is(err, ErrNotFound) {
		// No longer live here (a restart, or closed idle after its end):
		// the stored game says who sat where.
		cfg, seats, me, err = h.storedTurned(ctx, oldID, player)
	}
	if err != nil {
		return nil, -1, err
	}
	t, err := h.rematchTable(ctx, rematchID(oldID), player, addr, cfg, seats)
	if err != nil {
		return nil, -1, err
	}
	seat, err := t.Join(ctx, me, -1)
	if err != nil {
		return nil, -1, err
	}
	id := t.ID()
	if old == nil {
		return t, seat, nil // its updates reach no one: its page asks Ended
	}
	t.from.CompareAndSwap(nil, old)
	var gone []string
	err = old.do(ctx, func(l *loop) error {
		if l.rematch != id {
			l.rematch, l.rematchClosed, l.dirty = id, false, true
		}
		// Who left since turned read the seats: their Leave found no
		// rematch to free a hold at. From here on, Leave finds it.
		for _, s := range l.seats {
			if s.left && s.player != "" {
				gone = append(gone, s.player)
			}
		}
		return nil
	})
	if err != nil {
		return nil, -1, err
	}
	for _, p := range gone {
		old.freeHeld(ctx, t, p)
	}
	return t, seat, nil
}

// rematchClosed marks t's rematch, table id, closed: t's updates then
// say so (Update.RematchClosed) instead of offering it.
func (t *Table) rematchClosed(ctx context.Context, id string) {
	_ = t.do(ctx, func(l *loop) error { // ErrClosed: t closed too, nobody to tell
		if l.rematch == id && !l.rematchClosed {
			l.rematchClosed, l.dirty = true, true
		}
		return nil
	})
}

// ElsewhereError is RematchFrom's answer when the rematch table runs on
// another server (Claims): the asker takes the seat held for them there,
// by its id.
type ElsewhereError struct{ ID string }

func (e *ElsewhereError) Error() string {
	return "the rematch table " + e.ID + " runs on another server"
}

// rematchTable is the live table id, or a new one stored with seats,
// created by creator from addr within the limits.
func (h *Hub) rematchTable(ctx context.Context, id, creator, addr string, cfg Config, seats []StoredSeat) (*Table, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t, ok := h.tables[id]; ok {
		return t, nil
	}
	if s, err := h.o.Store.LoadTable(ctx, id); err == nil {
		if s.Status == StatusOpen && h.o.Claims != nil {
			// Open, and run by another server (the two tables were taken
			// over by different ones): the asker goes there.
			return nil, &ElsewhereError{ID: id}
		}
		// Made before and no longer live (closed idle, or over).
		return nil, fmt.Errorf("%w: the rematch table %s has closed", ErrNotFound, id)
	}
	if err := h.mayCreate(creator, addr); err != nil {
		return nil, err
	}
	t, err := h.createLocked(ctx, creator, addr, cfg, id, seats)
	if err != nil && h.o.Claims != nil {
		// Another server made it at the same instant (the store refused
		// a second table with its id): the asker goes there.
		if s, lerr := h.o.Store.LoadTable(ctx, id); lerr == nil && s.Status == StatusOpen {
			return nil, &ElsewhereError{ID: id}
		}
	}
	return t, err
}

// turned is the table's settings and seats for a rematch: every seat
// moved one place on, each person's held for them.
func (l *loop) turned() (Config, []StoredSeat) {
	bots := make([]string, len(l.seats))
	people := make([]StoredSeat, len(l.seats))
	for i, s := range l.seats {
		bots[i] = s.bot
		people[i] = StoredSeat{Player: s.player, Name: s.name, Left: s.left}
	}
	return turn(l.cfg, bots, people)
}

// turn is the settings and seats of a rematch of a game played with cfg,
// bots (each seat's level, "" a person's) and people (each person's seat):
// every seat moved one place on, each person's held for them, but for a
// person who left the table (Left): their seat is open to anyone, as a
// held seat its person gives up is, rather than keep the others waiting
// for someone who went away.
func turn(cfg Config, bots []string, people []StoredSeat) (Config, []StoredSeat) {
	n := len(bots)
	cfg.Bots = make([]string, n)
	seats := make([]StoredSeat, n)
	for i, bot := range bots {
		j := (i + 1) % n
		cfg.Bots[j] = bot
		if p := people[i]; bot == "" && p.Player != "" && !p.Left {
			seats[j] = StoredSeat{Player: p.Player, Name: p.Name, Reserved: true}
		}
	}
	return cfg, seats
}

// storedTurned is turned for the stored table id, no longer live: its
// game must have reached its end, and player must have sat there. Only
// the settings and who sat where are read: nothing of the cards. The seat
// is checked from the stored seats before the game is replayed, so that
// someone who never sat there costs no replay.
func (h *Hub) storedTurned(ctx context.Context, id, player string) (Config, []StoredSeat, Player, error) {
	s, err := h.stored(ctx, id)
	if err != nil {
		return Config{}, nil, Player{}, err
	}
	mine := storedSeatOf(s, player)
	if mine < 0 {
		return Config{}, nil, Player{}, ErrNotSeated
	}
	cfg, st, err := h.replayStored(s)
	if err != nil {
		return Config{}, nil, Player{}, err
	}
	if !st.Terminal() {
		return Config{}, nil, Player{}, fmt.Errorf("%w: the table closed before the game's end", ErrNotOver)
	}
	cfg, seats := turn(cfg, cfg.Bots, s.Seats)
	return cfg, seats, Player{ID: player, Name: s.Seats[mine].Name}, nil
}

// storedSeatOf is player's seat at stored table s (not one only held for
// them), or -1.
func storedSeatOf(s Stored, player string) int {
	if player == "" {
		return -1
	}
	for i, seat := range s.Seats {
		if seat.Player == player && !seat.Reserved {
			return i
		}
	}
	return -1
}

// rematchID is the id of table id's rematch: a hash of it, in the
// alphabet and length of the ids rand.Text makes.
func rematchID(id string) string {
	sum := sha256.Sum256([]byte("rematch\x00" + id))
	return base32.StdEncoding.EncodeToString(sum[:])[:26]
}

// reservedFor is the seat held for player, or -1.
func (l *loop) reservedFor(player string) int {
	if player == "" {
		return -1
	}
	for i, s := range l.seats {
		if s.reserved && s.player == player {
			return i
		}
	}
	return -1
}

// takeReserved seats the person a seat is held for, under name; stored
// before it counts.
func (l *loop) takeReserved(seat int, name string) error {
	old := l.seats[seat]
	l.seats[seat].reserved, l.seats[seat].name = false, name
	if err := l.saveSeats(); err != nil {
		l.seats[seat] = old
		return err
	}
	l.seated(seat)
	return nil
}
