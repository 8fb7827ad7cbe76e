package cli

import (
	"errors"
	"fmt"
	"syscall"
)

// The server that arlington new-table and arlington connect CODE ask:
// --server's, or for connect the address serve listens on by default.

// arlDefaultServer is the server asked for a table's code when no
// --server is given: where serve listens by default. A variable so that
// a test can name an address where nothing listens.
var arlDefaultServer = "http://" + defaultAddr

// serverRefusal adds to a first request's refused connection that the
// server may be at another address. A --server typed (given) may be
// mistyped: "stopped or restarting" alone sent a user who mistyped the
// port looking for a server that was up. Without one, the default address
// was asked, and the user is told so and to name the server.
func serverRefusal(err error, given bool) error {
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return err
	}
	if given {
		return fmt.Errorf("%w, or not at that address: check --server (serve prints its address when it starts)", err)
	}
	return fmt.Errorf("%w, or not at %s, the address asked when no --server is given: give the server's address with --server (serve prints it when it starts)", err, arlDefaultServer)
}
