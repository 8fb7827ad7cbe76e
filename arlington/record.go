package arlington

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
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

// MaxTarget is the largest target Load accepts, as the command line does
// (docs/rules-arlington.md, "Terminal play and self-play"): a game's
// length grows with its target.
const MaxTarget = 1000

// ErrBadRecord is wrapped by every Load error.
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
func Load(rd io.Reader) (Record, *State, error) {
	sc := bufio.NewScanner(rd)
	// Room for the longest line allowed and its "\r\n": one longer is
	// caught by the length check below, or by ErrTooLong.
	sc.Buffer(make([]byte, 0, 4096), MaxRecordLine+2)
	line := 0
	bad := func(format string, args ...any) (Record, *State, error) {
		return Record{}, nil, fmt.Errorf("%w: line %d: %s", ErrBadRecord, line, fmt.Sprintf(format, args...))
	}
	var r Record
	header := []string{"arlington", "players", "target", "seed"}
	var s *State
	for sc.Scan() {
		line++
		if len(bytes.TrimSuffix(sc.Bytes(), []byte("\r"))) > MaxRecordLine {
			return bad("longer than %d bytes, the limit", MaxRecordLine)
		}
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Fields(t)
		if len(header) > 0 {
			want := header[0]
			if f[0] != want {
				return bad("want %q, found %q", want, f[0])
			}
			header = header[1:]
			switch want {
			case "arlington":
				if len(f) != 3 || f[1] != "record" {
					return bad("want \"arlington record %d\"", RecordVersion)
				}
				if f[2] != strconv.Itoa(RecordVersion) {
					return bad("record version %q is not supported (this program reads version %d)", f[2], RecordVersion)
				}
				continue
			}
			if len(f) != 2 {
				return bad("want %q and a number", want)
			}
			num, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return bad("%s: %q is not a whole number", want, f[1])
			}
			switch want {
			case "players":
				if num > MaxSeats {
					return bad("players: %d is more than %d", num, MaxSeats)
				}
				r.Config.Players = int(num)
			case "target":
				// Config would read 0 as the default; a record says what
				// its game was played to.
				if num < 1 || num > MaxTarget {
					return bad("target: %d is not 1 to %d", num, MaxTarget)
				}
				r.Config.Target = int(num)
			case "seed":
				r.Seed = num
				st, err := New(r.Config, r.Seed)
				if err != nil {
					return bad("%v", err)
				}
				s = st
			}
			continue
		}
		seatText, actText, _ := strings.Cut(t, " ")
		seat, err := strconv.Atoi(seatText)
		if err != nil || seat < 0 || seat >= r.Config.Players {
			return bad("want SEAT ACTION with a seat from 0 to %d, found %q", r.Config.Players-1, seatText)
		}
		a, err := ParseAction(actText)
		if err != nil {
			return bad("%v", err)
		}
		if err := s.Apply(seat, a); err != nil {
			return bad("%v", err)
		}
		r.Moves = append(r.Moves, s.history[len(s.history)-1])
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			line++
			return bad("longer than %d bytes, the limit", MaxRecordLine)
		}
		// Not a line's fault: the reader failed (a directory, a disk
		// error), so no line is named.
		return Record{}, nil, fmt.Errorf("%w: cannot read it after %d lines: %w", ErrBadRecord, line, err)
	}
	if len(header) > 0 {
		line++
		return bad("record ends before its %q line", header[0])
	}
	return r, s, nil
}
