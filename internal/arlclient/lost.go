package arlclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/coder/websocket"
)

// lost is why a connection to the table ended or could not be made, in
// words for the person at the terminal: the WebSocket library's own
// ("failed to get reader: failed to read frame header: EOF", "expected
// handshake response status code 101 but got 503") tell them nothing.
// errors.Is and errors.As still find what it wraps.
type lost struct{ err error }

func (l lost) Unwrap() error { return l.err }

func (l lost) Error() string {
	err := l.err
	if code := websocket.CloseStatus(err); code != -1 {
		var ce websocket.CloseError
		errors.As(err, &ce)
		switch {
		case code == websocket.StatusServiceRestart && ce.Reason == "restarting":
			return "the server is restarting"
		case code == websocket.StatusMessageTooBig:
			// The reason is the library's ("read limited at 4097 bytes").
			return "the server closed it: a message this client sent was too long for it"
		case ce.Reason != "":
			return "the server closed it: " + Clean(ce.Reason)
		}
		return fmt.Sprintf("the server closed it (WebSocket status %d)", int(code))
	}
	var answer answerError
	if errors.As(err, &answer) {
		return answer.Error()
	}
	var silent noAnswer
	if errors.As(err, &silent) {
		return silent.Error()
	}
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns):
		return fmt.Sprintf("the host %s is not known", dns.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the server refuses connections: it is stopped or restarting"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return "the connection was cut"
	case errors.Is(err, context.DeadlineExceeded):
		return "the server did not answer in time"
	}
	return err.Error()
}

// answerError is a WebSocket request the server answered with a status
// other than the upgrade (and other than those that end the follower);
// reason is the server's own words for it (its JSON answer's "error"),
// "" if it gave none.
type answerError struct {
	code   int
	reason string
	err    error
}

func (e answerError) Unwrap() error { return e.err }

func (e answerError) Error() string {
	switch {
	case e.code == http.StatusServiceUnavailable && e.reason != "":
		// The server's words: a 503 is also its database out of reach.
		return "503 Service Unavailable: " + e.reason
	case e.code == http.StatusServiceUnavailable:
		return "the server cannot take it now (503): it is stopping, or the table is moving to another"
	case e.code == http.StatusTooManyRequests:
		return "the server refuses more connections from this address now (429)"
	}
	return answered(e.code, e.reason)
}

// refusedBody is as much of a refused handshake's answer as
// websocket.Dial keeps (the first 1024 bytes): the server's own words
// are far shorter (a sentence), a longer JSON answer is cut short.
const refusedBody = 1024

// answerReason is the "error" of a JSON answer (the server's errors are
// {"error": "..."}), on one line, bounded, and with its control and
// format characters (terminal escapes, bell, right-to-left overrides)
// made spaces, as the server does to names and chat, so that it cannot
// act on the terminal it is printed to; "" for any other body (a
// proxy's HTML page says nothing to the person).
func answerReason(body io.Reader) string {
	if body == nil {
		return ""
	}
	var a struct {
		Error string `json:"error"`
	}
	b, _ := io.ReadAll(io.LimitReader(body, refusedBody))
	if json.Unmarshal(b, &a) != nil {
		if len(b) == refusedBody && bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) {
			return "(its explanation, over 1 KiB, cut short and not shown)"
		}
		return ""
	}
	r := strings.Join(strings.Fields(Clean(a.Error)), " ")
	if rs := []rune(r); len(rs) > 200 {
		r = string(rs[:200]) + "..."
	}
	return r
}

// Clean is text from the server as the terminal may print it: its control
// and format characters (escape sequences, bell, right-to-left overrides)
// made spaces, as the server does to names and chat, so that a server
// that does not (another program, a hostile one: connect goes to any link)
// cannot act on the terminal. Line breaks are kept only by CleanLines.
func Clean(s string) string { return cleanKeep(s, false) }

// CleanLines is Clean for a text of several lines (a record): its line
// breaks stay.
func CleanLines(s string) string { return cleanKeep(s, true) }

func cleanKeep(s string, lines bool) string {
	return strings.Map(func(r rune) rune {
		if lines && r == '\n' {
			return r
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return ' '
		}
		return r
	}, s)
}

// noAnswer is a WebSocket opening given up: the server (or a proxy)
// took the connection and did not answer the upgrade within the
// follower's OpenTimeout.
type noAnswer struct {
	within time.Duration
	err    error
}

func (e noAnswer) Unwrap() error { return e.err }

func (e noAnswer) Error() string {
	return fmt.Sprintf("no answer from the server within %v", e.within)
}
