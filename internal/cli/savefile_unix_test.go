//go:build unix

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A named pipe is refused without opening it (which would block until a
// reader came).
func TestSaveRefusesFIFO(t *testing.T) {
	for _, g := range saveGames {
		t.Run(g.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "pipe")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skip("no named pipes here:", err)
			}
			out := g.save(t, fifo)
			if want := "cannot save to " + fifo + ": it is not a regular file"; !strings.Contains(out, want) {
				t.Errorf("no %q in\n%s", want, out)
			}
			if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("the pipe is now %v, %v", fi.Mode(), err)
			}
		})
	}
}

// A device is refused and left a device. The test makes its own copy of
// /dev/full (character device 1, 7) where it may (as root), so that a
// broken save replaces that copy rather than the system's; elsewhere
// /dev/full itself is safe, as only root may replace it.
func TestSaveRefusesDevice(t *testing.T) {
	for _, g := range saveGames {
		t.Run(g.name, func(t *testing.T) {
			dev := filepath.Join(t.TempDir(), "full")
			if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(unixMkdev(1, 7))); err != nil {
				if os.Geteuid() == 0 {
					t.Skip("cannot make a device node:", err)
				}
				dev = "/dev/full"
			}
			if fi, err := os.Stat(dev); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
				t.Skip("no character device to try:", err)
			}
			out := g.save(t, dev)
			if want := "cannot save to " + dev + ": it is not a regular file"; !strings.Contains(out, want) {
				t.Errorf("no %q in\n%s", want, out)
			}
			if fi, err := os.Lstat(dev); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
				t.Errorf("%s is now %v, %v", dev, fi.Mode(), err)
			}
		})
	}
}

// unixMkdev is the device number of major and minor as Linux packs it
// (also right for these small numbers on the BSDs).
func unixMkdev(major, minor uint64) uint64 {
	return major<<8 | minor
}

// saveWriteErrorEnv makes the test binary, run again by
// TestSaveWriteError, save under a file size limit of a few bytes instead.
const saveWriteErrorEnv = "CARDTABLE_TEST_SAVE_FSIZE"

// A write that fails part way (here the file size limit, as a full disk
// would) is reported, and the previous save is left whole. The limit is
// set in a child process, since it holds for a whole process.
func TestSaveWriteError(t *testing.T) {
	if file := os.Getenv(saveWriteErrorEnv); file != "" {
		var old syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			t.Skip("cannot read the file size limit:", err)
		}
		// Only the soft limit, so that it can be raised again for the
		// test binary's own files at exit (coverage).
		lim := syscall.Rlimit{Cur: 16, Max: old.Max}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Skip("cannot limit the file size:", err)
		}
		for _, g := range saveGames {
			os.Stdout.WriteString(g.save(t, file))
		}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			t.Fatal(err)
		}
		return
	}
	file := filepath.Join(t.TempDir(), "game.txt")
	old := "the previous save, left whole\n"
	if err := os.WriteFile(file, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSaveWriteError$", "-test.v")
	cmd.Env = append(os.Environ(), saveWriteErrorEnv+"="+file)
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "SKIP") {
		t.Skip(string(out))
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := "cannot save to " + file + ": file too large"; strings.Count(string(out), want) != len(saveGames) {
		t.Errorf("want %q once for each game in\n%s", want, out)
	}
	if b, _ := os.ReadFile(file); string(b) != old {
		t.Errorf("the previous save is now %q", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 1 {
		t.Errorf("files left in the directory: %v", entries)
	}
}

// Loading from a named pipe (or any file not a regular one) is refused at
// once, as saving to one is: opening a pipe would wait for a writer for
// ever, deaf to Ctrl-C. Every file a command reads goes the same way, with
// the same exit status (2, bad input).
func TestLoadRefusesFIFO(t *testing.T) {
	tests := []struct {
		name, stdin string
		args        []string
		code        int
	}{
		{"spider --load", "", []string{"spider", "play", "--load", "FIFO"}, exitUsage},
		{"spider load", "load FIFO\nquit\n", []string{"spider", "play", "--deal", "1"}, exitOK},
		{"arlington --load", "", []string{"arlington", "play", "--load", "FIFO"}, exitUsage},
		{"solve --layout", "", []string{"spider", "solve", "--layout", "FIFO"}, exitUsage},
		{"autoplay --layout", "", []string{"spider", "autoplay", "--layout", "FIFO"}, exitUsage},
		{"solve --load", "", []string{"spider", "solve", "--load", "FIFO"}, exitUsage},
		{"analyze --load", "", []string{"spider", "analyze", "--load", "FIFO"}, exitUsage},
		{"value-train --data-in", "", []string{"spider", "value-train", "--data-in", "FIFO", "--deals", "1001-1001", "--held", "3001-3001"}, exitUsage},
		{"serve --tls-cert", "", []string{"serve", "--addr", "127.0.0.1:0", "--db", "DB", "--tls-cert", "FIFO", "--tls-key", "FIFO"}, exitUsage},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "pipe")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skip("no named pipes here:", err)
			}
			args := append([]string(nil), tc.args...)
			for i, a := range args {
				switch a {
				case "FIFO":
					args[i] = fifo
				case "DB": // never the user's own database
					args[i] = filepath.Join(t.TempDir(), "cardtable.db")
				}
			}
			stdin := strings.ReplaceAll(tc.stdin, "FIFO", fifo)
			type result struct {
				out, errOut string
				code        int
			}
			done := make(chan result, 1)
			go func() {
				out, errOut, code := run(t, stdin, args...)
				done <- result{out, errOut, code}
			}()
			r := waitUnlessPipeRead(t, fifo, done)
			if r.code != tc.code || !strings.Contains(r.out+r.errOut, "cannot read "+fifo+": it is not a regular file") {
				t.Fatalf("exit %d, out %q, err %q", r.code, r.out, r.errOut)
			}
		})
	}
}

// waitUnlessPipeRead waits for the command's result on done. Once it has
// taken 10 s it looks, every 100 ms, whether the command holds fifo open
// to read (a writer's non-blocking open succeeds only then): if so the
// load waits on the pipe, which is the failure; the writer's open lets
// the command go on, so the test ends either way. A command that is only
// slow (a loaded machine) is waited for.
func waitUnlessPipeRead[R any](t testing.TB, fifo string, done <-chan R) R {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(10 * time.Second):
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			return r
		case <-tick.C:
			w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
			if err != nil {
				continue // ENXIO: nobody reads the pipe
			}
			w.Close()
			<-done
			t.Fatal("the load waited on the pipe")
		}
	}
}

// A device that never ends (/dev/zero) is refused before a byte is read,
// and a regular file over its format's limit is refused without being
// parsed: neither fills memory.
func TestInputFileBounds(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(big, []byte(strings.Repeat("#\n", maxLayout/2+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"spider", "solve", "--layout", "/dev/zero"}, "cannot read /dev/zero: it is not a regular file"},
		{[]string{"spider", "autoplay", "--layout", "/dev/zero"}, "cannot read /dev/zero: it is not a regular file"},
		{[]string{"arlington", "play", "--load", "/dev/zero"}, "cannot read /dev/zero: it is not a regular file"},
		{[]string{"spider", "solve", "--layout", big}, fmt.Sprintf("cannot read %s: larger than %d bytes, the limit for a layout file", big, maxLayout)},
		{[]string{"spider", "solve", "--layout", filepath.Join(t.TempDir(), "none")}, "no such file or directory"},
	} {
		t.Run(strings.Join(tc.args[:3], " "), func(t *testing.T) {
			out, errOut, code := run(t, "quit\n", tc.args...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, out %q, err %q; want exit 2 and %q", code, out, errOut, tc.want)
			}
		})
	}
}
