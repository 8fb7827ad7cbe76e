package cli

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
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
