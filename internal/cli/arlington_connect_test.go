package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"cardtable/arlington"
	"cardtable/card"
	"cardtable/internal/arlclient"
)

// A --log file that cannot be made is bad usage, told with the system's
// reason, and that reason stays in the error's chain for errors.Is (the
// file's directory is missing: fs.ErrNotExist). No server is needed: the
// log is opened before the seat is asked for.
func TestArlingtonConnectLogUnwritable(t *testing.T) {
	fset := pflag.NewFlagSet("connect", pflag.ContinueOnError)
	run := runArlingtonConnect(fset)
	logName := filepath.Join(t.TempDir(), "missing", "log.jsonl")
	if err := fset.Parse([]string{"--log", logName, "--identity", ""}); err != nil {
		t.Fatal(err)
	}
	env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	err := run(context.Background(), env, []string{"http://127.0.0.1:1/arlington/t/ABC"})
	if err == nil {
		t.Fatal("connect ran with a --log it cannot write")
	}
	want := "usage: connect: --log: cannot write " + logName + ": no such file or directory"
	if err.Error() != want || !errors.Is(err, errUsage) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("error %q (usage %v, not exist %v), want %q, bad usage, and fs.ErrNotExist in its chain",
			err, errors.Is(err, errUsage), errors.Is(err, fs.ErrNotExist), want)
	}
}

// The words of leaving follow the server's answer: a seat kept, marked
// away, for a game in play (its number the answer's, counted from 1), one
// opened for anyone before the start.
func TestArlLeftWords(t *testing.T) {
	for _, tc := range []struct {
		left arlclient.Left
		want string
	}{
		{arlclient.Left{Away: true, Seat: 2}, "left the table; seat 3 is still yours, marked away: the server's stand-in bot plays it until you come back (connect again with the same identity); a rematch of this game holds no seat for you unless you do"},
		{arlclient.Left{Opened: true, Seat: -1}, "left the table; seat 2 is open again for anyone"},
	} {
		if got := arlLeftWords(tc.left, 1); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.left, got, tc.want)
		}
	}
}

// A refused set whose cards are no set is told why under the server's
// reason, as in arlington play; a refusal under another rule is not,
// though the action last sent was that set.
func TestArlingtonConnectSetWhy(t *testing.T) {
	bad, err := arlington.SetOf([]card.Card{card.New(card.Queen, card.Spades), card.New(card.Ten, card.Hearts)})
	if err != nil {
		t.Fatal(err)
	}
	a := arlington.Action{Kind: arlington.PlaySet, Set: bad}
	for _, x := range []struct {
		rule string
		want bool
	}{{"Sets", true}, {"Leading a Set", false}} {
		var out bytes.Buffer
		r := &arlRemote{env: &Env{Stdout: &out}, acted: a}
		msg := &arlclient.ServerError{Class: "unprocessable", Message: "illegal action: " + bad.String() + " is not a legal set", Rule: x.rule}
		if _, err := r.handle(arlclient.Message{Type: arlclient.TypeError, Err: msg}); err != nil {
			t.Fatal(err)
		}
		why := "why: " + arlington.WhyNotSet(bad) + "\n"
		if got := strings.Contains(out.String(), why); got != x.want {
			t.Errorf("rule %q: why told %v, want %v:\n%s", x.rule, got, x.want, out.String())
		}
		if !strings.HasPrefix(out.String(), "refused, rule "+strconv.Quote(x.rule)+": "+bad.String()+" is not a legal set\n") {
			t.Errorf("rule %q: the refusal is not told first:\n%s", x.rule, out.String())
		}
	}
}
