package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestLineReader(t *testing.T) {
	exact := strings.Repeat("a", maxLine)
	over := strings.Repeat("b", maxLine+1)
	huge := strings.Repeat("c", 4*maxLine) // many reads of the buffer
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
// count. Before, a line over 1 MB ended Spider play in the terminal (the game lost)
// and one over 64 KB ended an Arlington one.
func TestPlayLongLine(t *testing.T) {
	for size, long := range map[string]string{
		"just over":  strings.Repeat("x", maxLine+1),
		"over 1 MiB": "move " + strings.Repeat("1", 1<<20), // the old Spider limit
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
			if strings.Count(out, "auto: seat 1 (you) ") != 2 || !strings.Contains(after, "auto: seat 1 (you) ") {
				t.Errorf("the action after the long line was not taken:\n%.2000s", out)
			}
		})
	}
}

// A save file with a line over the limit does not load; the error names
// the file, the line and the limit, and play goes on with its game.
func TestLoadLongLine(t *testing.T) {
	dir := t.TempDir()
	long := "# " + strings.Repeat("x", 1<<20) + "\n"
	spiderSave := filepath.Join(dir, "spider.txt")
	arlSave := filepath.Join(dir, "arl.txt")
	write(t, spiderSave, "cardtable spider 1\nvariant: arachnid\n"+long+"suits: 4\ndeal: 1\nmoves: 0\n")
	write(t, arlSave, "arlington record 1\nplayers 2\n"+long+"target 32\nseed 5\n")
	want := func(file, sentinel string) string {
		return file + ": " + sentinel + ": line 3: longer than 65536 bytes, the limit"
	}

	_, errOut, code := run(t, "", "spider", "play", "--load", spiderSave)
	if code == 0 || !strings.Contains(errOut, want(spiderSave, "bad format")) {
		t.Errorf("spider play --load: exit %d, %q", code, errOut)
	}
	out, _, code := run(t, "deal\nload "+spiderSave+"\ndeal\nquit\n", "spider", "play", "--deal", "1")
	if code != 0 || !strings.Contains(out, "refused: "+want(spiderSave, "bad format")) || !strings.Contains(out, "stock 30") {
		t.Errorf("spider load in play: exit %d\n%s", code, out)
	}
	_, errOut, code = arlRun(t, "", "arlington", "play", "--load", arlSave)
	if code != 2 || !strings.Contains(errOut, want(arlSave, "bad record")) {
		t.Errorf("arlington play --load: exit %d, %q", code, errOut)
	}
}

// A Spider save file over maxSpiderSave is refused from its size, before
// reading it. (A device or pipe is read up to the limit, so that load
// /dev/zero ends; that path is not tested here, as reading 16 MiB takes
// seconds under the race detector.)
func TestLoadSpiderTooLarge(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.txt")
	write(t, big, "cardtable spider 1\n")
	if err := os.Truncate(big, maxSpiderSave+1); err != nil {
		t.Fatal(err)
	}
	out, _, _ := run(t, "load "+big+"\nquit\n", "spider", "play", "--deal", "1")
	if !strings.Contains(out, "refused: cannot read "+big+": larger than 16777216 bytes, the limit for a Spider save file") {
		t.Errorf("no refusal in\n%.2000s", out)
	}
}

func write(tb testing.TB, name, text string) {
	tb.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// FuzzLineReader checks lineReader against splitting the whole input:
// the same lines, a line over maxLine refused with its number, nothing
// lost after it.
func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"", "\n", "show\nquit", "a\r\nb\r\n", "x\r", "\r\n\r\n", strings.Repeat("y", maxLine+1) + "\nz\n", strings.Repeat("y", maxLine) + "\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var want []string
		if in != "" {
			pieces := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
			for i, p := range pieces {
				p = strings.TrimSuffix(p, "\r")
				if len(p) > maxLine {
					p = "!" + strconv.Itoa(i+1)
				}
				want = append(want, p)
			}
		}
		lr := newLineReader(strings.NewReader(in))
		var got []string
		for {
			line, err := lr.next()
			if err == io.EOF {
				break
			}
			var long *longLineError
			if errors.As(err, &long) {
				line = "!" + strconv.Itoa(long.line)
			} else if err != nil {
				t.Fatal(err)
			}
			got = append(got, line)
		}
		if strings.Join(got, "\n|") != strings.Join(want, "\n|") || len(got) != len(want) {
			t.Fatalf("got %.200q, want %.200q", got, want)
		}
	})
}
