package cli

import (
	"io"
	"os"
)

// inputIsTerminal reports whether in is a terminal (a character device
// other than the null device): the terminal games print their "> "
// prompt only then, for a person to read; a script piped in, or a
// service or cron job given /dev/null, gets output without prompts.
func inputIsTerminal(in io.Reader) bool {
	f, ok := in.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// writesToTerminal says whether w is a terminal, as inputIsTerminal does
// for what is read.
func writesToTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && inputIsTerminal(f)
}
