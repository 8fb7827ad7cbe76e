package cli

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal for a test: what is written to master
// is read from slave as lines typed at a terminal, which is what the
// terminal games take for a person (they prompt). Echo is off, so
// nothing comes back on master. Both close when the test ends.
func openPTY(tb testing.TB) (master, slave *os.File) {
	tb.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		tb.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		tb.Fatal(err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { slave.Close() })
	// Through Control, not Fd: Fd would make reads from slave block
	// past its Close.
	rc, err := slave.SyscallConn()
	if err != nil {
		tb.Fatal(err)
	}
	if cerr := rc.Control(func(fd uintptr) {
		var tio *unix.Termios
		if tio, err = unix.IoctlGetTermios(int(fd), unix.TCGETS); err == nil {
			tio.Lflag &^= unix.ECHO
			err = unix.IoctlSetTermios(int(fd), unix.TCSETS, tio)
		}
	}); cerr != nil || err != nil {
		tb.Fatal(cerr, err)
	}
	return master, slave
}
