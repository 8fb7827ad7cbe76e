package cli

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
)

// fullDisk takes room bytes of output, then refuses one write as a full
// disk does and takes every later one again, as a disk does once room is
// freed: output written after the refusal would leave a hole in the file.
type fullDisk struct {
	room    int
	refused bool
	got     bytes.Buffer
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if d.refused || d.got.Len()+len(p) <= d.room {
		return d.got.Write(p)
	}
	d.refused = true
	n := d.room - d.got.Len()
	d.got.Write(p[:n])
	return n, &writeError{syscall.ENOSPC}
}

// writeError is os.File's error for a failed write, as the command sees it.
type writeError struct{ err error }

func (e *writeError) Error() string { return "write /dev/stdout: " + e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// TestOutputLost: a command whose output could not be written whole (a
// full disk, `> /dev/full`) ends with exit 1 and says so, instead of
// exit 0 with its answer missing or cut short; and nothing is written
// after the failed write, so what reached the file is a prefix of the
// whole output.
func TestOutputLost(t *testing.T) {
	cases := []struct {
		name  string
		cmd   string // as the error line names it
		stdin string
		args  []string
	}{
		{"spider new", "spider new", "", []string{"spider", "new", "--deal", "617"}},
		{"spider play", "spider play", "move 5 6\nshow\nundo\nshow\n", []string{"spider", "play", "--deal", "617", "--suits", "2"}},
		{"arlington set", "arlington set", "", []string{"arlington", "set", "7H", "8H", "9H"}},
		{"help", "spider play", "", []string{"spider", "play", "--help"}},
		// These check their own write and fail with its error.
		{"spider new --json", "spider new", "", []string{"spider", "new", "--deal", "617", "--json"}},
		{"version", "", "", []string{"--version"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			whole, stderr, code := run(t, tc.stdin, tc.args...)
			if code != exitOK || len(whole) < 40 {
				t.Fatalf("with room for all: exit %d, %d bytes of output, stderr %q", code, len(whole), stderr)
			}
			for _, room := range []int{0, 30} {
				d := &fullDisk{room: room}
				var errb bytes.Buffer
				code := Run(context.Background(), tc.args, strings.NewReader(tc.stdin), d, &errb)
				want := "cardtable: " + tc.cmd + ": cannot write the output, so it is incomplete: write /dev/stdout: no space left on device\n"
				if tc.cmd == "" {
					want = "cardtable: cannot write the output, so it is incomplete: write /dev/stdout: no space left on device\n"
				}
				if code != exitFail || errb.String() != want {
					t.Errorf("room %d: exit %d, stderr %q; want exit %d, %q", room, code, errb.String(), exitFail, want)
				}
				if got := d.got.String(); got != whole[:room] {
					t.Errorf("room %d: written %q, want the first %d bytes of the output, %q", room, got, room, whole[:room])
				}
			}
		})
	}
}

// TestOutputLostAfterError: a command that fails for its own reason
// ends with its own error, not the output's.
func TestOutputLostAfterError(t *testing.T) {
	d := &fullDisk{}
	var errb bytes.Buffer
	code := Run(context.Background(), []string{"spider", "play", "--suits", "3"}, strings.NewReader(""), d, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "--suits: bad suit count") || strings.Contains(errb.String(), "cannot write") {
		t.Errorf("exit %d, stderr %q; want exit %d and the --suits error alone", code, errb.String(), exitUsage)
	}
}
