package arlington

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Record is a whole game: its settings, seed and every move. Replaying it
// gives the same game exactly.
type Record struct {
	Config Config
	Seed   uint64
	Moves  []Move
}

// RecordVersion is the version of the text format written by Save.
const RecordVersion = 1

// MaxRecordLine is the longest line Load accepts, in bytes (without the
// line ending). A real line is a few dozen bytes; the bound is the one for
// terminal input and Spider saves (docs/formats.md, "Line length").
const MaxRecordLine = 64 << 10

// ErrBadRecord is wrapped by every Load error; one caused by the game
// (its config, an action, a move) wraps that error too.
var ErrBadRecord = errors.New("bad record")

// Record is the game so far.
func (s *State) Record() Record {
	return Record{Config: s.cfg, Seed: s.seed, Moves: s.History()}
}

// Replay plays a record from its start. An illegal move is reported with
// its number (from 1).
func Replay(r Record) (*State, error) {
	s, err := New(r.Config, r.Seed)
	if err != nil {
		return nil, err
	}
	for i, m := range r.Moves {
		if err := s.Apply(m.Seat, m.Action); err != nil {
			return nil, fmt.Errorf("move %d (%d %v): %w", i+1, m.Seat, m.Action, err)
		}
	}
	return s, nil
}

// Save writes r in the record text format, version 1:
//
//	arlington record 1
//	players 4
//	target 32
//	seed 12345
//	1 lead 7H
//	2 play 9H
//	...
//
// Lines after the header are "SEAT ACTION" in the Action notation. Blank
// lines and lines starting with # are ignored by Load.
func (r Record) Save(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "arlington record %d\n", RecordVersion)
	fmt.Fprintf(bw, "players %d\ntarget %d\nseed %d\n", r.Config.Players, r.Config.Target, r.Seed)
	for _, m := range r.Moves {
		fmt.Fprintf(bw, "%d %v\n", m.Seat, m.Action)
	}
	return bw.Flush()
}

// String is the record in the Save format.
func (r Record) String() string {
	var b strings.Builder
	_ = r.Save(&b)
	return b.String()
}

// Load reads a record written by Save and checks it by replaying it: every
// error names its line. It returns the record and the replayed game.
//
// The four header lines come first, in order; the game is started at the
// seed line, so that each move line after it is replayed as it is read and
// an illegal move is named with its own line.
func Load(rd io.Reader) (Record, *State, error) {
	sc := bufio.NewScanner(rd)
	// Room for the longest line allowed and its "\r\n": one longer is
	// caught by the length check below, or by ErrTooLong.
	sc.Buffer(make([]byte, 0, 4096), MaxRecordLine+2)
	l := recordLoader{header: recordHeader}
	for sc.Scan() {
		l.line++
		if len(bytes.TrimSuffix(sc.Bytes(), []byte("\r"))) > MaxRecordLine {
			return Record{}, nil, l.bad("longer than %d bytes, the limit", MaxRecordLine)
		}
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		var err error
		if len(l.header) > 0 {
			err = l.readHeaderLine(strings.Fields(t))
		} else {
			err = l.readMove(t)
		}
		if err != nil {
			return Record{}, nil, err
		}
	}
	if err := l.end(sc.Err()); err != nil {
		return Record{}, nil, err
	}
	return l.r, l.s, nil
}

// recordHeader is the first word of each header line, in the order Save
// writes them.
var recordHeader = []string{"arlington", "players", "target", "seed"}

// recordLoader is a record being read: the line reached, the header lines
// still to come, the record so far and, once the seed is read, the game
// replayed so far.
type recordLoader struct {
	line   int
	header []string
	r      Record
	s      *State
}

// bad is an error naming the current line.
func (l *recordLoader) bad(format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrBadRecord, l.line, fmt.Sprintf(format, args...))
}

// badBecause is an error naming the current line whose reason is err,
// wrapped, so that a caller can tell an illegal move (ErrIllegal), an
// action that does not read (ErrBadAction) or a config no game has
// (ErrConfig) from the rest; the text is that of bad("%v", err).
func (l *recordLoader) badBecause(err error) error {
	return fmt.Errorf("%w: line %d: %w", ErrBadRecord, l.line, err)
}

// readHeaderLine reads the next header line, f being its words.
func (l *recordLoader) readHeaderLine(f []string) error {
	want := l.header[0]
	if f[0] != want {
		return l.bad("want %q, found %q", want, f[0])
	}
	l.header = l.header[1:]
	if want == "arlington" {
		return l.readVersion(f)
	}
	if len(f) != 2 {
		return l.bad("want %q and a number", want)
	}
	num, err := strconv.ParseUint(f[1], 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		// A whole number all the same: say the range it is past, not
		// that it is no number.
		return l.bad("%s: %s is not %s", want, f[1], headerRange[want])
	}
	if err != nil {
		return l.bad("%s: %q is not a whole number", want, f[1])
	}
	return l.setHeaderNumber(want, num)
}

// headerRange is the range of each number of the header, in words.
var headerRange = map[string]string{
	"players": fmt.Sprintf("2 to %d", MaxSeats),
	"target":  fmt.Sprintf("1 to %d", MaxTarget),
	"seed":    fmt.Sprintf("0 to %d", uint64(math.MaxUint64)),
}

// readVersion reads the first line, "arlington record 1"; a record of
// another version is named as such, so that an old program says it is too
// old rather than that the file is not a record.
func (l *recordLoader) readVersion(f []string) error {
	if len(f) != 3 || f[1] != "record" {
		return l.bad("want \"arlington record %d\"", RecordVersion)
	}
	if f[2] != strconv.Itoa(RecordVersion) {
		return l.bad("record version %q is not supported (this program reads version %d)", f[2], RecordVersion)
	}
	return nil
}

// setHeaderNumber keeps the number of the players, target or seed line;
// the seed line, the last, starts the game the moves are replayed on.
func (l *recordLoader) setHeaderNumber(key string, num uint64) error {
	switch key {
	case "players":
		// Checked here, not when the seed line starts the game, so that
		// the error names the players line.
		if num < 2 || num > MaxSeats {
			return l.bad("players: %d is not %s", num, headerRange["players"])
		}
		l.r.Config.Players = int(num)
	case "target":
		// Config would read 0 as the default; a record says what
		// its game was played to.
		if num < 1 || num > MaxTarget {
			return l.bad("target: %d is not 1 to %d", num, MaxTarget)
		}
		l.r.Config.Target = int(num)
	case "seed":
		l.r.Seed = num
		st, err := New(l.r.Config, l.r.Seed)
		if err != nil {
			return l.badBecause(err)
		}
		l.s = st
	}
	return nil
}

// readMove reads a "SEAT ACTION" line and applies it to the game, keeping
// the move as applied (its spectrum resolved) in the record.
func (l *recordLoader) readMove(t string) error {
	seatText, actText, _ := strings.Cut(t, " ")
	seat, err := strconv.Atoi(seatText)
	if err != nil || seat < 0 || seat >= l.r.Config.Players {
		return l.bad("want SEAT ACTION with a seat from 0 to %d, found %q", l.r.Config.Players-1, seatText)
	}
	a, err := ParseAction(actText)
	if err != nil {
		return l.badBecause(err)
	}
	if err := l.s.Apply(seat, a); err != nil {
		// Said as the record counts seats and sets, from 0, as its
		// other messages do ("a seat from 0 to 3"): the rules' words
		// count them from 1, for people at a table.
		if re, ok := err.(*RuleError); ok {
			err = re.FromZero()
		}
		return l.badBecause(err)
	}
	l.r.Moves = append(l.r.Moves, l.s.history[len(l.s.history)-1])
	return nil
}

// end checks how reading ended: scanErr is the scanner's error, and a
// record must hold its whole header. Both name the line after the last
// one read, except a reader's failure, which is no line's fault.
func (l *recordLoader) end(scanErr error) error {
	if scanErr != nil {
		if errors.Is(scanErr, bufio.ErrTooLong) {
			l.line++
			return l.bad("longer than %d bytes, the limit", MaxRecordLine)
		}
		// Not a line's fault: the reader failed (a directory, a disk
		// error), so no line is named.
		return fmt.Errorf("%w: cannot read it after %d lines: %w", ErrBadRecord, l.line, scanErr)
	}
	if len(l.header) > 0 {
		l.line++
		return l.bad("record ends before its %q line", l.header[0])
	}
	return nil
}
