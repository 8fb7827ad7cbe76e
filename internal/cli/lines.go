package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// maxLine is the longest line of terminal input either game's play
// accepts, in bytes, as for save files (docs/formats.md, "Line length"):
// the longest real command is a few dozen bytes.
const maxLine = 64 << 10

// longLineError reports a line of input over maxLine, which was skipped.
type longLineError struct{ line int }

func (e *longLineError) Error() string {
	return fmt.Sprintf("line %d is longer than %d bytes, the limit; it was skipped", e.line, maxLine)
}

// lineReader reads terminal input a line at a time. Unlike bufio.Scanner,
// a line over maxLine does not end the input: it is read to its end and
// dropped as it comes (never held whole), and the caller is told, so that
// play goes on with the next line.
type lineReader struct {
	r *bufio.Reader
	n int // lines read so far
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReader(r)}
}

// next returns the next line without its line ending ("\n" or "\r\n").
// For a line over maxLine it returns a *longLineError, and the following call reads the line after it. At the
// end of the input it returns io.EOF (after a last line without a
// newline); any other read error is returned as it is.
func (lr *lineReader) next() (string, error) {
	var line []byte
	long, got := false, false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		got = got || len(chunk) > 0
		if !long {
			if len(line)+len(bytes.TrimSuffix(chunk, []byte("\n"))) > maxLine+1 {
				// One byte of slack for a '\r' before the '\n', trimmed
				// and measured below.
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && !got:
			return "", io.EOF
		case err != nil && err != io.EOF:
			return "", err
		}
		lr.n++
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if long || len(line) > maxLine {
			return "", &longLineError{lr.n}
		}
		return string(line), nil
	}
}

// lineFeed is terminal input for a player who may stop with Ctrl+C
// while the program waits for a line: its lines are read on arlReadLines'
// goroutine, so next returns as soon as ctx ends. The goroutine ends with
// the ctx given to newLineFeed (the command cancels it on return), at the
// end of the input or at a read error; a read blocked on a terminal lasts
// until the process ends.
type lineFeed struct {
	lines <-chan arlLine
	ended error // the error that ended the input; the goroutine is gone
}

func newLineFeed(ctx context.Context, in io.Reader) *lineFeed {
	return &lineFeed{lines: arlReadLines(ctx, in)}
}

// next is lineReader.next, or ctx's error once ctx ends.
func (f *lineFeed) next(ctx context.Context) (string, error) {
	if f.ended != nil {
		return "", f.ended
	}
	select {
	case l := <-f.lines:
		var long *longLineError
		if l.err != nil && !errors.As(l.err, &long) {
			f.ended = l.err
		}
		return l.text, l.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
