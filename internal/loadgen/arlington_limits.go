package loadgen

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// AddressLimitError is a server's bound on one client address refusing
// the load test with 429 Too Many Requests: a new table past the live
// tables one address may have open (Tables), or a WebSocket past the
// connections one address may have open. Every simulated person comes
// from this machine's address unless ArlConfig.ForwardedFor gives them
// others.
type AddressLimitError struct {
	Tables bool   // a new table was refused (not a WebSocket)
	Count  int    // the tables this run had made (Tables), else the WebSockets it had open
	Server string // what the server said, if anything
}

func (e *AddressLimitError) Error() string {
	var s string
	if e.Tables {
		s = fmt.Sprintf("the server's limit of live tables from one address was reached: "+
			"it refused a new table (429 Too Many Requests) after this load test had made %d", e.Count)
	} else {
		s = fmt.Sprintf("the server's limit of WebSocket connections from one address was reached: "+
			"it refused one (429 Too Many Requests) while this load test had %d open", e.Count)
	}
	if e.Server != "" {
		s += fmt.Sprintf(" (the server said %q)", e.Server)
	}
	return s
}

// refused is the AddressLimitError of a refused dial's answer.
func refused(resp *http.Response, open int) error {
	e := &AddressLimitError{Count: open}
	if resp.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		e.Server = serverSaid(b)
	}
	return e
}

// TableLimitError is a server refusing the load test a new table with
// 429 Too Many Requests for a bound that is not its address's: the live
// tables the server allows in all (cardtable serve --max-tables, less
// the last places it keeps for players with no table open).
type TableLimitError struct {
	Count  int    // the tables this run had made
	Server string // what the server said, if anything
}

func (e *TableLimitError) Error() string {
	s := fmt.Sprintf("the server's limit of live tables was reached: "+
		"it refused a new table (429 Too Many Requests) after this load test had made %d", e.Count)
	if e.Server != "" {
		s += fmt.Sprintf(" (the server said %q)", e.Server)
	}
	return s
}

// tableRefused is the error of a table creation's final 429 (body, its
// answer): an AddressLimitError when the server says the bound is its
// address's, else a TableLimitError. Count is the caller's to set: the
// tables made are only known once the creations under way have ended.
func tableRefused(body []byte) error {
	said := serverSaid(body)
	if strings.Contains(said, "from your address") {
		return &AddressLimitError{Tables: true, Server: said}
	}
	return &TableLimitError{Server: said}
}

// statusError is a request answered with another status than the one
// wanted.
type statusError struct {
	path   string
	status string // as "429 Too Many Requests"
	code   int
	body   []byte
}

func (e *statusError) Error() string {
	return fmt.Sprintf("POST %s: %s: %s", e.path, e.status, strings.TrimSpace(string(e.body)))
}

// serverSaid is the error message of a JSON error answer, or the
// answer's text.
func serverSaid(b []byte) string {
	var msg struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(b, &msg) == nil && msg.Error != "" {
		return msg.Error
	}
	return strings.TrimSpace(string(b))
}
