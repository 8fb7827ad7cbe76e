package cli

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestInputIsTerminal: prompts go to a terminal only: not to a pipe, a
// file, or the null device a service manager or cron job gives (a
// character device too, like a terminal).
func TestInputIsTerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	_, slave := openPTY(t)
	for _, c := range []struct {
		name string
		in   io.Reader
		want bool
	}{
		{"a terminal", slave, true},
		{"the null device", null, false},
		{"a pipe", r, false},
		{"a reader", strings.NewReader("legal\n"), false},
	} {
		if got := inputIsTerminal(c.in); got != c.want {
			t.Errorf("%s: inputIsTerminal = %v, want %v", c.name, got, c.want)
		}
	}
}
