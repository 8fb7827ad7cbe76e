package cli

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestLineReader(t *testing.T) {
	exact := strings.Repeat("a", maxLine)
	over := strings.Repeat("b", maxLine+1)
	huge := strings.Repeat("c", 3<<20)
	for _, tc := range []struct {
		name, in string
		want     []string // "!N" for a refused line N
	}{
		{"empty", "", nil},
		{"last line without newline", "show\nquit", []string{"show", "quit"}},
		{"crlf", "show\r\nquit\r\n", []string{"show", "quit"}},
		{"blank lines", "\n\nx\n", []string{"", "", "x"}},
		{"exactly the limit", exact + "\n" + exact + "\r\nz\n", []string{exact, exact, "z"}},
		{"one over", "x\n" + over + "\ny\n", []string{"x", "!2", "y"}},
		{"one over with crlf", over + "\r\ny", []string{"!1", "y"}},
		{"huge, then more", "x\n" + huge + "\n" + huge + "\ny", []string{"x", "!2", "!3", "y"}},
		{"huge at the end", huge, []string{"!1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lr := newLineReader(strings.NewReader(tc.in))
			var got []string
			for {
				line, err := lr.next()
				if err == io.EOF {
					break
				}
				var long *longLineError
				switch {
				case errors.As(err, &long):
					line = "!" + strings.Fields(err.Error())[1]
					if !strings.Contains(err.Error(), "longer than 65536 bytes, the limit") {
						t.Errorf("message %q does not give the limit", err)
					}
				case err != nil:
					t.Fatal(err)
				}
				got = append(got, line)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %.80q, want %.80q", got, tc.want)
			}
		})
	}
}

// An input line over the limit is refused with a message naming the line
// and the limit, and the game goes on: the moves before and after it
// count. Before, a line over 1 MB ended a Spider session (the game lost)
// and one over 64 KB ended an Arlington one.
func TestPlayLongLine(t *testing.T) {
	for size, long := range map[string]string{
		"just over": strings.Repeat("x", maxLine+1),
		"2 MiB":     "move " + strings.Repeat("1", 2<<20),
	} {
		t.Run("spider/"+size, func(t *testing.T) {
			out, errOut, code := run(t, "deal\n"+long+"\ndeal\nquit\n", "spider", "play", "--deal", "1")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out, "refused: line 2 is longer than 65536 bytes, the limit; it was skipped") {
				t.Errorf("no refusal in\n%.2000s", out)
			}
			// Two rows dealt of five: the stock is 30, after the long line.
			if !strings.Contains(out, "stock 30") {
				t.Errorf("the second deal did not happen:\n%.2000s", out)
			}
		})
		t.Run("arlington/"+size, func(t *testing.T) {
			out, errOut, code := arlRun(t, "auto\n"+long+"\nauto\nquit\n", "arlington", "play", "--players", "2", "--seed", "3")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out, "line 2 is longer than 65536 bytes, the limit; it was skipped") {
				t.Errorf("no refusal in\n%.2000s", out)
			}
			_, after, _ := strings.Cut(out, "the limit")
			if strings.Count(out, "you (auto)") != 2 || !strings.Contains(after, "you (auto)") {
				t.Errorf("the action after the long line was not taken:\n%.2000s", out)
			}
		})
	}
}
