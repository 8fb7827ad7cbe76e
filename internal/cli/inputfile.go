package cli

import (
	"fmt"
	"io"
)

// Size limits of the files a user names for a command to read. Each is the
// format's real maximum with room to spare, so that a file that is not
// what it claims (/dev/zero behind a link, a log) ends with an error
// instead of filling memory.
const (
	// maxSpiderSave: a save holds at most 100,000 moves, about 1.2 MB.
	maxSpiderSave = 16 << 20
	// maxArlSave: an Arlington record is a header and one short line an
	// action; the longest real game is far below 1 MB.
	maxArlSave = 16 << 20
	// maxLayout: a layout holds 104 cards, about 500 bytes; the rest is
	// room for comments. One layout line may be 64 KiB (MaxSaveLine).
	maxLayout = 1 << 20
	// maxPEM: a certificate chain or key is a few KB.
	maxPEM = 1 << 20
	// maxValueData: spider value-train's labelled positions (--data-in),
	// about 125 bytes a position; a training set of 40 deals is 2 MB, and
	// 128 MiB is a million positions, some 2,500 deals' labelling.
	maxValueData = 128 << 20
)

// readInputFile reads the file name a user gave for a command to read (a
// save, a layout, a certificate), what names the kind of file in errors.
// The rule for every such file (docs/cli.md, "Files a command reads"):
// anything but a regular file is refused at once, without opening it for
// long (a FIFO would wait for a writer for ever, a device may never end);
// a file over limit is refused. Both, and a file that is missing, are bad
// input (exit status 2); an error while reading a file that opened is a
// failure (exit 1).
func readInputFile(name string, limit int64, what string) ([]byte, error) {
	b, bad, err := readLimited(name, limit, what)
	if bad {
		return nil, badInput(err)
	}
	return b, err
}

// readLimited is readInputFile without the usage mark, for a file read
// again while serving (a renewed certificate), where no command line is
// at fault: bad says the error is one readInputFile marks as bad input.
func readLimited(name string, limit int64, what string) (b []byte, bad bool, err error) {
	f, err := openSaveFile(name)
	if err != nil {
		return nil, true, err
	}
	defer f.Close()
	tooBig := fmt.Errorf("cannot read %s: larger than %d bytes, the limit for %s", name, limit, what)
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, true, tooBig
	}
	// The file may grow while read: read at most the limit.
	b, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, fmt.Errorf("cannot read %s: %w", name, osReason(err))
	}
	if int64(len(b)) > limit {
		return nil, true, tooBig
	}
	return b, false, nil
}
