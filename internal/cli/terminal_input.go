package cli

import (
	"io"
	"os"
)

// inputIsTerminal reports whether in is a terminal (a character device):
// the terminal games print their "> " prompt only then, for a person to
// read; a script piped in gets output without prompts in it.
func inputIsTerminal(in io.Reader) bool {
	f, ok := in.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
