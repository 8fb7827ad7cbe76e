package pgstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// connectWords is err in one line when it is pgx's failure to connect.
// pgx writes a line for each address and each TLS attempt (sslmode
// prefer, the default, tries TLS and then plain), so a wrong password
// against a server without TLS read "tls error: server refused TLS
// connection" first and the cause on the line after. The line kept is
// pgx's first words (the user and database it tried) and the cause: the
// server's own message, else the network's. Other errors are returned
// as they are.
func connectWords(err error) error {
	var ce *pgconn.ConnectError
	if !errors.As(err, &ce) {
		return err
	}
	return connectError{user: ce.Config.User, db: ce.Config.Database, reason: connectReason(err), err: err}
}

// connectError is a failure to connect told in one line; errors.As still
// finds pgx's errors through it.
type connectError struct {
	user, db, reason string
	err              error
}

func (e connectError) Error() string {
	return fmt.Sprintf("failed to connect to `user=%s database=%s`: %s", e.user, e.db, e.reason)
}

func (e connectError) Unwrap() error { return e.err }

// connectReason says why no connection was made, in words an operator
// acts on.
func connectReason(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Message // password authentication failed for user "u", database "x" does not exist
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Sprintf("the host %s is not known (%s)", dns.Name, dns.Err)
	}
	// The network's words, without the connection's own local port
	// (read tcp 127.0.0.1:57328->...), so that each failure of the same
	// kind reads the same and a log can tell it repeats.
	var op *net.OpError
	if errors.As(err, &op) {
		switch {
		case errors.Is(err, syscall.ECONNREFUSED) && op.Addr != nil:
			return fmt.Sprintf("nothing listens at %s (connection refused): is PostgreSQL running there?", op.Addr)
		case op.Timeout() && op.Addr != nil:
			return fmt.Sprintf("%s did not answer in time", op.Addr)
		case errors.Is(err, syscall.ECONNRESET):
			// The same words as a close (below): which of the two the
			// peer's close becomes depends on timing.
			return "the connection was closed before PostgreSQL answered"
		}
		return op.Err.Error()
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "the connection was closed before PostgreSQL answered"
	}
	if strings.Contains(err.Error(), "server refused TLS connection") {
		return "the server offers no TLS, which the URL's sslmode asks for"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "the server did not answer in time (connect_timeout)"
	}
	// Else the last attempt's own words, after pgx's "ADDR (HOST): ".
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if _, after, ok := strings.Cut(last, "): "); ok {
		last = after
	}
	return last
}
