package arlington

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

func TestRecordSaveLoad(t *testing.T) {
	s := randomGame(t, 3, 77, nil)
	text := s.Record().String()
	if !strings.HasPrefix(text, "arlington record 1\nplayers 3\ntarget 32\nseed 77\n") {
		t.Fatalf("header:\n%s", text[:60])
	}
	r, s2, err := Load(strings.NewReader("# a comment\n\n" + text))
	if err != nil {
		t.Fatal(err)
	}
	if !sameState(s, s2) || len(r.Moves) != len(s.History()) {
		t.Fatal("loaded game differs")
	}
	s3, err := Replay(r)
	if err != nil || !sameState(s, s3) {
		t.Fatalf("replay: %v", err)
	}
}

func TestRecordLoadErrors(t *testing.T) {
	s, _ := New(Config{Players: 2}, 5)
	first := s.Legal(s.ToMove())[0]
	good := "arlington record 1\nplayers 2\ntarget 32\nseed 5\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"empty", "", "line 1: record ends before its \"arlington\" line"},
		{"not a record", "hello\n", "line 1: want \"arlington\""},
		{"future version", "arlington record 2\n", "line 1: record version \"2\" is not supported"},
		{"bad players", "arlington record 1\nplayers 9\n", "line 2: players: 9 is not 2 to 6"},
		{"one player", "arlington record 1\nplayers 1\ntarget 32\nseed 1\n", "line 2: players: 1 is not 2 to 6"},
		{"players past every number", "arlington record 1\nplayers 99999999999999999999\n", "line 2: players: 99999999999999999999 is not 2 to 6"},
		{"target past every number", "arlington record 1\nplayers 2\ntarget 99999999999999999999\n", "line 3: target: 99999999999999999999 is not 1 to 1000"},
		{"seed past every number", "arlington record 1\nplayers 2\ntarget 32\nseed 18446744073709551616\n", "line 4: seed: 18446744073709551616 is not 0 to 18446744073709551615"},
		{"bad seed", "arlington record 1\nplayers 2\ntarget 32\nseed x\n", "line 4: seed: \"x\" is not a whole number"},
		{"target 0", "arlington record 1\nplayers 2\ntarget 0\nseed 1\n", "line 3: target: 0 is not 1 to 1000"},
		{"target 1001", "arlington record 1\nplayers 2\ntarget 1001\nseed 1\n", "line 3: target: 1001 is not 1 to 1000"},
		{"target 5000", "arlington record 1\nplayers 2\ntarget 5000\nseed 1\n", "line 3: target: 5000 is not 1 to 1000"},
		{"missing seed", "arlington record 1\nplayers 2\ntarget 32\n", "line 4: record ends before its \"seed\""},
		{"bad seat", good + "7 pass\n", "line 5: want SEAT ACTION with a seat from 0 to 1"},
		{"bad action", good + "0 dance\n", "line 5: bad action"},
		{"out of turn", good + itoa(1-s.ToMove()) + " " + first.String() + "\n", "line 5: illegal action"},
		{"illegal", good + itoa(s.ToMove()) + " kill\n", "line 5: illegal action"},
		{"second move illegal", good + "\n" + itoa(s.ToMove()) + " " + first.String() + "\n0 s2 1/3\n", "line 7: illegal action"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Load(strings.NewReader(tc.text))
			if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// A reader that fails is not a line's fault: the error says the record
// could not be read, wraps the reader's error and names no line (there is
// no line 0).
func TestRecordLoadReadErrors(t *testing.T) {
	errDisk := errors.New("disk on fire")
	for _, tc := range []struct {
		name string
		r    io.Reader
		want string
	}{
		{"fails at once", iotest.ErrReader(errDisk), "bad record: cannot read it after 0 lines: disk on fire"},
		{"fails after the header", io.MultiReader(strings.NewReader("arlington record 1\nplayers 2\n"), iotest.ErrReader(errDisk)),
			"bad record: cannot read it after 2 lines: disk on fire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Load(tc.r)
			if !errors.Is(err, ErrBadRecord) || !errors.Is(err, errDisk) || err.Error() != tc.want {
				t.Fatalf("got %v, want %q wrapping the reader's error", err, tc.want)
			}
		})
	}
}

// A line over MaxRecordLine is named with the limit, however long (past the
// scanner's buffer or within it); one of exactly the limit loads.
func TestRecordLoadLongLine(t *testing.T) {
	good := "arlington record 1\nplayers 2\ntarget 32\nseed 5\n"
	atLimit := "#" + strings.Repeat("x", MaxRecordLine-1)
	for _, text := range []string{good + atLimit + "\n", good + atLimit + "\r\n", good + atLimit} {
		if _, _, err := Load(strings.NewReader(text)); err != nil {
			t.Errorf("a line of %d bytes: %v", MaxRecordLine, err)
		}
	}
	for name, text := range map[string]string{
		"one over":        good + "\n" + atLimit + "x\n0 pass\n",
		"one over, crlf":  good + "\n" + atLimit + "x\r\n",
		"two over":        good + "\n" + atLimit + "xx\n",
		"over 1 MB":       good + "\n# " + strings.Repeat("x", 1<<20) + "\n",
		"over 1 MB, last": good + "\n# " + strings.Repeat("x", 1<<20),
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := Load(strings.NewReader(text))
			if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "line 6: longer than 65536 bytes, the limit") {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

func TestActionNotation(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"lead 7h", "lead 7H"},
		{"LEAD h7", "lead 7H"},
		{"play 10D", "play TD"},
		{"set multiples 7H JK", "set multiples 7H JK"},
		{"set Multiple {JK, H7}", "set multiples 7H JK"},
		{"set DQ DK", "set KD QD"},
		{"set aces SA", "set aces AS"},
		{"pass", "pass"},
		{"kill", "kill"},
		{"s2 2/0", "s2 2/0"},
		{"add 7H 1/3", "add 7H 1/3"},
		{"pickup QS 0/0", "pickup QS 0/0"},
	} {
		a, err := ParseAction(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if a.String() != tc.out {
			t.Fatalf("%q: %q, want %q", tc.in, a, tc.out)
		}
	}
	for _, bad := range []string{"", "lead", "lead 7H 8H", "lead 1H", "set", "set runs", "set 7H 7H", "pass 1",
		"s2", "s2 2", "s2 9/0", "s2 -1/0", "add 7H", "add 7H x/y", "pickup 0/0", "jump", "set JK JK JK"} {
		if _, err := ParseAction(bad); !errors.Is(err, ErrBadAction) {
			t.Errorf("%q: %v, want ErrBadAction", bad, err)
		}
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"lead 7H", "set multiples 7H JK", "set {SQ, HJ}", "s2 2/0", "add TS 5/54", "pickup JK 0/0", "kill", "set aces"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			if !errors.Is(err, ErrBadAction) {
				t.Fatalf("%q: error %v does not wrap ErrBadAction", s, err)
			}
			return
		}
		b, err := ParseAction(a.String())
		if err != nil || b != a {
			t.Fatalf("%q -> %q -> %v, %v", s, a, b, err)
		}
	})
}

func FuzzParseCards(f *testing.F) {
	for _, s := range []string{"SQ HT C2 JK", "QS", "{7S, JK}", "10H JK JK", "SA SA"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		set, err := ParseCards(s)
		if err != nil {
			return
		}
		back, err := ParseCards(set.String())
		if err != nil || back != set {
			t.Fatalf("%q -> %v -> %v, %v", s, set, back, err)
		}
		info := AnalyzeSet(set)
		if info.Legal != (len(info.Spectra) > 0) || info.Legal != (info.Points > 0) {
			t.Fatalf("%v: inconsistent %+v", set, info)
		}
	})
}

func FuzzLoad(f *testing.F) {
	s := randomGame(f, 2, 3, nil)
	text := s.Record().String()
	f.Add(text[:min(len(text), 400)])
	f.Add("arlington record 1\nplayers 2\ntarget 5\nseed 0\n0 lead 7H\n")
	f.Fuzz(func(t *testing.T, text string) {
		r, st, err := Load(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "line ") {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		if err := st.CheckCards(); err != nil {
			t.Fatal(err)
		}
		again, err := Replay(r)
		if err != nil || !sameState(st, again) {
			t.Fatalf("replay: %v", err)
		}
	})
}

// The target's bounds themselves load, and keep their value.
func TestRecordLoadTargetBounds(t *testing.T) {
	for _, target := range []int{1, MaxTarget} {
		text := "arlington record 1\nplayers 2\ntarget " + strconv.Itoa(target) + "\nseed 1\n"
		r, s, err := Load(strings.NewReader(text))
		if err != nil || r.Config.Target != target || s.Config().Target != target {
			t.Errorf("target %d: %v, loaded as %d", target, err, r.Config.Target)
		}
	}
}
