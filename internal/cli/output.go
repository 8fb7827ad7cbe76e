package cli

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// output is standard output as the commands write it. It keeps the first
// write error, so that output lost to a full disk (`> /dev/full`) ends
// the command as a failure, exit 1, rather than as a success whose
// answer is missing or cut short: the commands print with fmt.Fprint*
// and do not check each write. After a failed write nothing more is
// written, so that the output is a whole prefix of what the command
// meant to print, never one with a hole in it. A closed pipe (`| head -1`) never gets here: Go ends the program with
// SIGPIPE on a write to a broken pipe on standard output, as a shell's
// tools end.
type output struct {
	w io.Writer

	mu  sync.Mutex // a command may print from several goroutines
	err error      // the first write error
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		o.err = err
	}
	return n, err
}

// failed is the error a command that otherwise succeeded ends with when
// its output could not be written whole; nil when it was.
func (o *output) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		return nil
	}
	return fmt.Errorf("cannot write the output, so it is incomplete: %w", o.err)
}

// lost reports whether err is the output's own write error, as a command
// that checks its writes returns it.
func (o *output) lost(err error) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err != nil && errors.Is(err, o.err)
}
