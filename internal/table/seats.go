package table

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"cardtable/arlington"
)

// Summary is a table as the lobby lists it.
type Summary struct {
	ID          string     `json:"id"`
	Players     int        `json:"players"`
	Target      int        `json:"target"`
	TurnSeconds int        `json:"turnSeconds"` // -1: no turn timer
	Rated       bool       `json:"rated"`
	Seats       []SeatInfo `json:"seats"`
	OpenSeats   int        `json:"openSeats"`
	Status      Status     `json:"status"`
	Started     bool       `json:"started"`
	Hand        int        `json:"hand"`
	Totals      []int      `json:"totals"`
	Watching    int        `json:"watching"` // connections, players' and spectators'
	// Spectators is the people connected who hold no seat here, each
	// counted once however many windows they have open, and each
	// connection without an identity on its own (the lobby's "watching";
	// the seated who are connected are the seats' Present).
	Spectators int       `json:"spectators"`
	Created    time.Time `json:"created"`
}

// SeatInfo is a seat as everyone may see it: never the identity.
type SeatInfo struct {
	Seat int    `json:"seat"`
	Bot  string `json:"bot,omitempty"`  // the level of a bot seat
	Name string `json:"name,omitempty"` // the person's display name
	Open bool   `json:"open,omitempty"` // waiting for a person
	// Present: the person is connected and has not left (a Leave is the
	// person's, not the window's: another window of theirs still open
	// does not keep them present).
	Present bool `json:"present,omitempty"`
	Away    bool `json:"away,omitempty"` // a bot plays for the person
	// Reserved: held for Name (a rematch) until they take it or give it up.
	Reserved bool `json:"reserved,omitempty"`
	// Rating is the shown rating of the bot level or person (0: none
	// yet), for the lobby (docs/tables.md, "Ratings").
	Rating int `json:"rating,omitempty"`
	// RatingChange is what this game's rated end moved Rating by, once
	// the game is over (0: unmoved, or not known: finishRated).
	RatingChange int `json:"ratingChange,omitempty"`
}

func (l *loop) seatInfos() []SeatInfo {
	out := make([]SeatInfo, len(l.seats))
	for i, s := range l.seats {
		out[i] = SeatInfo{Seat: i, Bot: s.bot, Name: s.name, Open: s.bot == "" && s.player == "",
			Present: s.bot == "" && s.subs > 0 && !s.left, Away: s.away, Reserved: s.reserved, Rating: s.rating, RatingChange: s.ratingChange}
	}
	return out
}

func (l *loop) status() Status {
	if l.st.Terminal() {
		return StatusOver
	}
	return StatusOpen
}

func (l *loop) summary() *Summary {
	s := &Summary{ID: l.t.id, Players: l.cfg.Players, Target: l.cfg.Target,
		TurnSeconds: l.cfg.TurnSeconds, Rated: l.cfg.Rated, Seats: l.seatInfos(), Status: l.status(),
		Started: l.started(), Hand: l.st.HandNumber(), Totals: l.st.Totals(),
		Watching: len(l.subs), Spectators: l.watchers(), Created: l.t.created}
	for _, si := range s.Seats {
		if si.Open {
			s.OpenSeats++
		}
	}
	return s
}

// watchers is how many people are connected to the table without a seat:
// their identities, or a connection without one on its own (spectators
// counts their connections).
func (l *loop) watchers() int {
	seen := map[string]bool{}
	n := 0
	for s := range l.subs {
		if s.seat >= 0 || s.player != "" && seen[s.player] {
			continue
		}
		seen[s.player] = true
		n++
	}
	return n
}

// seatOf is player's seat, or -1 (a seat only reserved for them is not
// theirs yet: reservedFor).
func (l *loop) seatOf(player string) int {
	if player == "" {
		return -1
	}
	for i, s := range l.seats {
		if s.player == player && !s.reserved {
			return i
		}
	}
	return -1
}

func (l *loop) saveSeats() error {
	seats := make([]StoredSeat, len(l.seats))
	for i, s := range l.seats {
		seats[i] = StoredSeat{Player: s.player, Name: s.name, Reserved: s.reserved, Away: s.away, Left: s.left}
	}
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	if err := l.h.o.Store.SaveSeats(ctx, l.t.id, seats); err != nil {
		return fmt.Errorf("%w: %w", ErrStore, l.checkMoved(err))
	}
	return nil
}

func (l *loop) join(p Player, want int) (int, error) {
	if err := checkID(p.ID); err != nil {
		return -1, err
	}
	name, err := l.joinName(p, want)
	if err != nil {
		return -1, err
	}
	if err := l.checkNewName(p.ID, name); err != nil {
		return -1, err
	}
	if want < -1 || want >= len(l.seats) {
		return -1, l.noSeat(want)
	}
	if s := l.seatOf(p.ID); s >= 0 {
		l.back(s)
		if l.seats[s].name != name {
			old := l.seats[s].name
			l.seats[s].name = name
			if err := l.saveSeats(); err != nil {
				l.seats[s].name = old
				return -1, err
			}
		}
		l.dirty = true
		return s, nil
	}
	if r := l.reservedFor(p.ID); r >= 0 {
		if want == -1 || want == r {
			return r, l.takeReserved(r, name)
		}
		// One person, one seat: sitting elsewhere too held two.
		return -1, fmt.Errorf("%w at this rematch: seat %d, not seat %d; take seat %d, or give it up (leave) and then choose another",
			ErrSeatHeld, r+1, want+1, r+1)
	}
	if l.started() {
		if l.st != nil && l.st.ToMove() < 0 {
			// Said so: "has started" sent a person to wait for a seat at a
			// game that had ended.
			return -1, fmt.Errorf("%w: the game is over", ErrTableFull)
		}
		return -1, fmt.Errorf("%w: the game has started", ErrTableFull)
	}
	if want == -1 {
		for i, s := range l.seats {
			if s.bot == "" && s.player == "" {
				want = i
				break
			}
		}
		if want == -1 {
			return -1, ErrTableFull
		}
	}
	if s := l.seats[want]; s.bot != "" || s.player != "" {
		// Counted from 1, as the page and the terminal client show seats.
		return -1, fmt.Errorf("%w: seat %d", ErrSeatTaken, want+1)
	}
	l.seats[want].player, l.seats[want].name = p.ID, name
	if err := l.saveSeats(); err != nil {
		l.seats[want].player, l.seats[want].name = "", ""
		return -1, err
	}
	l.seated(want)
	l.loadRatings(want)
	return want, nil
}

// noSeat refuses seat want, which this table does not have, saying which
// it has: numbered from 0 as the API counts (docs/api.md, "Numbering"),
// and as the pages show them, from 1.
func (l *loop) noSeat(want int) error {
	n := len(l.seats)
	return fmt.Errorf("%w: seat %d; this table has %d seats, numbered 0 to %d (shown as Seat 1 to Seat %d)",
		ErrNoSeat, want, n, n-1, n)
}

// seated moves the connections of seat's new person, watching as a
// spectator until now, to the seat.
func (l *loop) seated(seat int) {
	for s := range l.subs {
		if s.player == l.seats[seat].player {
			s.seat = seat
			l.seats[seat].subs++
			if s.watching {
				s.watching = false
				l.h.unwatch(s.player)
			}
		}
	}
	l.trimSeat(seat)
	l.dirty = true
}

func (l *loop) leave(player string) (Left, error) {
	s := l.seatOf(player)
	if s < 0 {
		s = l.reservedFor(player) // giving up a seat held for them
	}
	if s < 0 {
		return Left{}, ErrNotSeated
	}
	if l.started() {
		l.setAway(s, true, true)
		l.dirty = true
		return Left{Seat: s, Away: true}, nil
	}
	old := l.seats[s]
	l.seats[s].player, l.seats[s].name, l.seats[s].reserved, l.seats[s].rating, l.seats[s].ratingChange = "", "", false, 0, 0
	if err := l.saveSeats(); err != nil {
		l.seats[s] = old
		return Left{}, err
	}
	for sub := range l.subs {
		if sub.seat == s {
			sub.seat = -1
		}
	}
	l.seats[s].subs = 0
	l.dirty = true
	return Left{Seat: -1, Opened: true}, nil
}

// setAway marks seat's person away (a stand-in plays for them), left
// too if they left the table rather than lost their connection, or back
// (neither), and stores it if it changed, so that a restart or another
// server goes on the same way. A store failure is only reported: the
// table goes on with it as it is here.
func (l *loop) setAway(seat int, away, left bool) {
	s := &l.seats[seat]
	if s.away == away && s.left == left {
		return
	}
	s.away, s.left = away, left
	if err := l.saveSeats(); err != nil && !errors.Is(err, ErrMoved) {
		l.h.o.Logf("table %s: storing seat %d away=%v left=%v: %v", l.t.id, seat, away, left, err)
	}
}

func (l *loop) act(player string, seat int, a arlington.Action) error {
	mine := l.seatOf(player)
	switch {
	case mine < 0:
		return ErrNotSeated
	case seat != -1 && seat != mine:
		// Counted from 1, as the page shows seats.
		return fmt.Errorf("%w: you hold seat %d, not seat %d", ErrNotYourSeat, mine+1, seat+1)
	case !l.started():
		return ErrNotStarted
	case l.st.Terminal():
		return ErrOver
	case l.st.ToMove() != mine:
		// The page shows these words as they are, so the seat is counted
		// from 1, as the page and the rules' refusals count it.
		return fmt.Errorf("%w: it is seat %d's turn", ErrNotYourTurn, l.st.ToMove()+1)
	}
	if err := l.apply(mine, a); err != nil {
		return err
	}
	l.back(mine) // acting is returning
	return nil
}

// joinName is the name p joins with: the name they already hold at this
// table (their seat, or the seat a rematch holds for them, which carries
// the name from the table before) is kept as it is, even one a newer
// name rule would refuse, so an explicit re-join is not refused for a name
// the table already shows; any other name is cleaned (cleanName).
func (l *loop) joinName(p Player, want int) (string, error) {
	s := l.seatOf(p.ID)
	if r := l.reservedFor(p.ID); s < 0 && (want == -1 || want == r) {
		// Only into the held seat: the name is the seat's, not the
		// person's to carry to another.
		s = r
	}
	if s >= 0 && l.seats[s].name != "" && strings.TrimSpace(p.Name) == l.seats[s].name {
		return l.seats[s].name, nil
	}
	return cleanName(p.Name)
}
