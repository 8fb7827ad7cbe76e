package cli

import (
	"strings"
	"testing"
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
			a, err := arlParseAction(tc.typed)
			if err != nil || a.String() != tc.engine {
				t.Fatalf("read as %q, %v; want %q", a.String(), err, tc.engine)
			}
			if got := arlActionText(a); got != tc.typed {
				t.Errorf("shown as %q", got)
			}
		})
	}
	for _, bad := range []string{"add 7H 0/1", "add 7H 3/0", "add 7H 7/1", "s2 2/x", "s2 1/2/3", "add 7H -1/1"} {
		if a, err := arlParseAction(bad); err == nil {
			t.Errorf("%q read as %v", bad, a)
		} else if strings.Contains(err.Error(), "2/0") {
			t.Errorf("%q: the error speaks the engine's numbering: %v", bad, err)
		}
	}
	// An engine error quotes what was typed, not the translation.
	if _, err := arlParseAction("fly 3/1"); err == nil || strings.Contains(err.Error(), "2/0") {
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
		a, err := arlParseAction(line)
		if err != nil {
			return
		}
		b, err := arlParseAction(arlActionText(a))
		if err != nil || b != a {
			t.Fatalf("%q read as %v, shown as %q, read back as %v (%v)", line, a, arlActionText(a), b, err)
		}
	})
}
