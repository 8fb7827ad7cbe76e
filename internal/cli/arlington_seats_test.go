package cli

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/card"
)

// What a person types and reads counts seats and table sets from 1; the
// engine's notation counts from 0.
func TestArlSeatNotation(t *testing.T) {
	for _, tc := range []struct{ typed, engine string }{
		{"add 7H 3/1", "add 7H 2/0"},
		{"pickup QS 1/2", "pickup QS 0/1"},
		{"s2 6/10", "s2 5/9"},
		{"lead 7H", "lead 7H"},
		{"set runs 9H 8H 7H", "set runs 9H 8H 7H"},
	} {
		t.Run(tc.typed, func(t *testing.T) {
			a, err := arlParseAction(tc.typed, 0)
			if err != nil || a.String() != tc.engine {
				t.Fatalf("read as %q, %v; want %q", a.String(), err, tc.engine)
			}
			if got := arlActionText(a); got != tc.typed {
				t.Errorf("shown as %q", got)
			}
		})
	}
	for _, bad := range []string{"add 7H 0/1", "add 7H 3/0", "add 7H 7/1", "s2 2/x", "s2 1/2/3", "add 7H -1/1"} {
		if a, err := arlParseAction(bad, 0); err == nil {
			t.Errorf("%q read as %v", bad, a)
		} else if strings.Contains(err.Error(), "2/0") {
			t.Errorf("%q: the error speaks the engine's numbering: %v", bad, err)
		}
	}
	// An engine error quotes what was typed, not the translation.
	if _, err := arlParseAction("fly 3/1", 0); err == nil || strings.Contains(err.Error(), "2/0") {
		t.Errorf("%v", err)
	}
}

func TestArlWinners(t *testing.T) {
	names := []string{"Ann", "medium", "hard"}
	totals := []int{33, 1, 33}
	for _, tc := range []struct {
		winners []int
		me      int
		want    string
	}{
		{[]int{0}, 1, "Ann (seat 1) with 33 points wins"},
		{[]int{1}, 1, "you (seat 2) with 1 point wins"},
		{[]int{0, 2}, 1, "Ann (seat 1) with 33 points and hard (seat 3) with 33 points share the win"},
	} {
		if got := arlWinners(tc.winners, totals, names, tc.me); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// Whatever is typed is read or refused without a panic, and an action read
// is shown as text that reads back as the same action.
func FuzzArlParseAction(f *testing.F) {
	for _, s := range []string{"add 7H 3/1", "s2 6/55", "pickup JK 1/1", "lead 7H", "kill", "add 7H 0/0", "s2 99/99", "add 7H 3//1", "set multiples 7H JK"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a, err := arlParseAction(line, 0)
		if err != nil {
			return
		}
		b, err := arlParseAction(arlActionText(a), 0)
		if err != nil || b != a {
			t.Fatalf("%q read as %v, shown as %q, read back as %v (%v)", line, a, arlActionText(a), b, err)
		}
	})
}

// TestArlParseActionKeepsSentinels: a refusal of what the player typed
// reads in the player's numbering and still wraps the rules' errors
// (errors.Is finds arlington.ErrBadAction, and card.ErrBadCard for a card
// that does not read), as the engine's own refusal does.
func TestArlParseActionKeepsSentinels(t *testing.T) {
	for _, tc := range []struct {
		typed string
		want  []error
	}{
		{"fly 3/1", []error{arlington.ErrBadAction}},
		{"add 7H 3/x", []error{arlington.ErrBadAction}},
		{"add 7H 7/1", []error{arlington.ErrBadAction}},
		{"lead 9Z", []error{arlington.ErrBadAction, card.ErrBadCard}},
		{"add 9Z 3/1", []error{arlington.ErrBadAction, card.ErrBadCard}},
	} {
		_, err := arlParseAction(tc.typed, 0)
		for _, w := range tc.want {
			if !errors.Is(err, w) {
				t.Errorf("%q: %v does not wrap %v", tc.typed, err, w)
			}
		}
		if err != nil && strings.Contains(err.Error(), "2/0") {
			t.Errorf("%q: the error speaks the engine's numbering: %v", tc.typed, err)
		}
	}
}

// TestArlLoadBadActionIsBadInput: a save whose record holds an action
// that does not read, or one the rules refuse, is bad input (exit 2)
// and its error still wraps the rules' sentinel.
func TestArlLoadBadActionIsBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, action string
		want         error
	}{
		{"unreadable", "0 fly AH", arlington.ErrBadAction},
		{"illegal", "1 lead AH", arlington.ErrIllegal}, // seat 0 has the lead
	} {
		t.Run(tc.name, func(t *testing.T) {
			save := filepath.Join(dir, tc.name+".sav")
			write(t, save, "arlington record 1\nplayers 4\ntarget 32\nseed 1\n"+tc.action+"\n")
			_, err := arlLoad(save)
			if !errors.Is(err, tc.want) || !errors.Is(err, errUsage) {
				t.Fatalf("arlLoad: %v; want it to wrap %v and be bad input", err, tc.want)
			}
			_, stderr, code := run(t, "quit\n", "arlington", "play", "--load", save)
			if code != exitUsage || !strings.HasPrefix(stderr, "cardtable: arlington play: "+save+": ") {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
		})
	}
}

// TestArlParseActionTableSize: at a table of three a seat past 3 is named
// as missing from the table. "add 7H 5/1" said "no set 1 on seat 5's
// table (it has 0)" and "9/1" "seats are 1 to 6", neither true there.
func TestArlParseActionTableSize(t *testing.T) {
	for _, typed := range []string{"add 7H 5/1", "add 7H 9/1", "s2 4/1"} {
		_, err := arlParseAction(typed, 3)
		if err == nil || !strings.Contains(err.Error(), "seats are 1 to 3 at this table") {
			t.Errorf("%q at three seats: %v, want \"seats are 1 to 3 at this table\"", typed, err)
		}
	}
	if _, err := arlParseAction("add 7H 3/1", 3); err != nil {
		t.Errorf("seat 3 of three: %v", err)
	}
}
