// Package arlclient is a client of cardtable's Arlington table API: the
// HTTP calls that create, find and join a table (docs/api.md, "Arlington
// tables") and a Follower that keeps up with one table over a WebSocket, reconnecting by
// itself. It speaks the wire protocol only: it knows the rules package's
// View and notation, never the server's own packages, so a client built on
// it meets the server exactly where any other program would.
package arlclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"cardtable/arlington"
	"cardtable/internal/arlwire"
)

// Errors. An answer of the server that refuses a request is an *APIError;
// these classify the ones a caller acts on.
var (
	ErrBadLink   = errors.New("not a table link")
	ErrBadServer = errors.New("not a server address")
	// ErrUnreachable is followed by the server's address, and then often
	// by a cause that names the server itself ("the server refuses
	// connections"): it does not say "the server" too.
	ErrUnreachable = errors.New("cannot reach")
	ErrNotFound    = errors.New("no such table")
	ErrRefused     = errors.New("refused by the server")
)

// APIError is an answer of the server other than success: its status and
// the message it gave.
type APIError struct {
	Status  int
	Message string
	// retry: a table's request refused while the table is between
	// servers (503 with Retry-After, marked X-Cardtable-Moving): nothing
	// was done, ask again then.
	retry time.Duration
}

func (e *APIError) Error() string {
	return answered(e.Status, e.Message)
}

// namesServer matches words that name the server: the word, not a word
// containing it ("observer").
var namesServer = regexp.MustCompile(`(?i)\bservers?\b`)

// answered says the server answered status, with its words if it gave
// any. Words that name the server themselves ("the server's storage
// failed", "server busy or shutting down") follow the status alone, so
// that the line says "server" once.
func answered(status int, words string) string {
	switch {
	case words == "":
		return fmt.Sprintf("the server answered %d %s", status, http.StatusText(status))
	case namesServer.MatchString(words):
		return fmt.Sprintf("%d %s: %s", status, http.StatusText(status), words)
	}
	return fmt.Sprintf("the server answered %d %s: %s", status, http.StatusText(status), words)
}

// Is makes a 404 an ErrNotFound and every refusal an ErrRefused.
func (e *APIError) Is(target error) bool {
	return target == ErrRefused || target == ErrNotFound && e.Status == http.StatusNotFound
}

// Client talks to one server with one identity: the server's identity
// cookie, kept in memory for the client's life. Whoever holds it acts for
// the seat it took.
type Client struct {
	base *url.URL // scheme, host and any path before /arlington or /api
	hc   *http.Client
}

// requestTimeout bounds one HTTP call (not the WebSocket, which lives on).
const requestTimeout = 30 * time.Second

// maxAnswer bounds an HTTP answer read into memory: a summary or a record
// (a record of the longest game is a few hundred KB).
const maxAnswer = 8 << 20

// New is a client of the server at address ("http://host:port", with or
// without a trailing slash; https too).
func New(address string) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(address))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%w: %q (want http://HOST:PORT)", ErrBadServer, address)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	return &Client{base: u, hc: &http.Client{Jar: jar}}, nil
}

// FromLink reads a table's shareable link (http://HOST:PORT/arlington/t/ID)
// and returns a client of its server and the table's id.
func FromLink(link string) (*Client, string, error) {
	link = strings.TrimSpace(link)
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, "", fmt.Errorf("%w: %q (want http://HOST:PORT/arlington/t/ID)", ErrBadLink, link)
	}
	prefix, id, ok := strings.Cut(strings.TrimSuffix(u.Path, "/"), "/arlington/t/")
	if !ok || !validID(id) {
		return nil, "", fmt.Errorf("%w: %q (want http://HOST:PORT/arlington/t/ID)", ErrBadLink, link)
	}
	c, err := New(u.Scheme + "://" + u.Host + prefix)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %q: %w", ErrBadLink, link, err)
	}
	return c, id, nil
}

// validID accepts what can be a table id (the server's are 26 characters
// of base32); it keeps a mistyped link from becoming a request path.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// codeAlphabet is the characters of a table code (docs/api.md): digits
// and capitals without the look-alikes 0, O, 1, I and L.
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// NormalCode is s as a table code in its written form (capitals, no
// spaces or dashes), or "" if s cannot be one.
func NormalCode(s string) string {
	s = strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(s)))
	if len(s) != 6 || strings.Trim(s, codeAlphabet) != "" {
		return ""
	}
	return s
}

// ByCode is the id of the live table with code, the six characters the
// table page shows to invite a friend (any case; spaces and dashes
// ignored). A code no live table has is an ErrNotFound.
func (c *Client) ByCode(ctx context.Context, code string) (string, error) {
	var t Table
	if err := c.call(ctx, http.MethodGet, "/api/arlington/code/"+url.PathEscape(code), nil, &t); err != nil {
		return "", err
	}
	if !validID(t.ID) {
		return "", fmt.Errorf("GET /api/arlington/code/%s: the server's answer names no table", url.PathEscape(code))
	}
	return t.ID, nil
}

// Link is the shareable address of table id on this client's server.
func (c *Client) Link(id string) string {
	return c.base.String() + "/arlington/t/" + id
}

// TableConfig is a new table's settings (POST /api/arlington/tables).
type TableConfig struct {
	Players int `json:"players"`
	// Bots names each seat's bot level, "" for a seat open to a person.
	Bots []string `json:"bots"`
	// Target is the score that ends the game (0: the server's default, 32).
	Target int `json:"target"`
	// TurnSeconds is the turn timer: 0 the server's default, -1 off.
	TurnSeconds int `json:"turnSeconds"`
	// Rated: the game's end updates the players' ratings (false: casual).
	Rated bool `json:"rated,omitempty"`
}

// Table is a table as the server describes it (a Summary).
type Table struct {
	ID          string `json:"id"`
	Link        string `json:"link"` // the path; Client.Link makes the address
	Players     int    `json:"players"`
	Target      int    `json:"target"`
	TurnSeconds int    `json:"turnSeconds"`
	Rated       bool   `json:"rated"`
	Seats       []Seat `json:"seats"`
	OpenSeats   int    `json:"openSeats"`
	Status      string `json:"status"` // "open" or "over"
	Started     bool   `json:"started"`
	Hand        int    `json:"hand"`
	Totals      []int  `json:"totals"`
}

// UnmarshalJSON reads a table, with the keys of the previous release too
// (turn_seconds, open_seats): a client may meet an older server. They are
// read for one release.
func (t *Table) UnmarshalJSON(b []byte) error {
	type plain Table // without this method
	var j struct {
		plain
		OldTurnSeconds *int `json:"turn_seconds"`
		OldOpenSeats   *int `json:"open_seats"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*t = Table(j.plain)
	if j.OldTurnSeconds != nil && t.TurnSeconds == 0 {
		t.TurnSeconds = *j.OldTurnSeconds
	}
	if j.OldOpenSeats != nil && t.OpenSeats == 0 {
		t.OpenSeats = *j.OldOpenSeats
	}
	return nil
}

// Seat is a seat as everyone sees it.
type Seat struct {
	Seat    int    `json:"seat"`
	Bot     string `json:"bot,omitempty"`
	Name    string `json:"name,omitempty"`
	Open    bool   `json:"open,omitempty"`
	Present bool   `json:"present,omitempty"`
	Away    bool   `json:"away,omitempty"`
}

// Lobby is the server's list answer: its tables and the bot levels it
// offers.
type Lobby struct {
	Tables []Table  `json:"tables"`
	Levels []string `json:"levels"`
}

// Lobby lists the server's tables and bot levels.
func (c *Client) Lobby(ctx context.Context) (Lobby, error) {
	var l Lobby
	return l, c.call(ctx, http.MethodGet, "/api/arlington/tables", nil, &l)
}

// Create makes a table; nobody is seated at it yet.
func (c *Client) Create(ctx context.Context, cfg TableConfig) (Table, error) {
	var t Table
	err := c.call(ctx, http.MethodPost, "/api/arlington/tables", cfg, &t)
	t.clean()
	return t, err
}

// Table describes table id.
func (c *Client) Table(ctx context.Context, id string) (Table, error) {
	var t Table
	err := c.call(ctx, http.MethodGet, "/api/arlington/tables/"+id, nil, &t)
	t.clean()
	return t, err
}

// clean makes the table's words fit for a terminal (Clean): its id
// (new-table prints a link made from it), link, status and its seats'
// names and bot levels.
func (t *Table) clean() {
	t.ID, t.Link, t.Status = Clean(t.ID), Clean(t.Link), Clean(t.Status)
	cleanSeats(t.Seats)
}

// Join takes a seat at table id under name: seat, or the first open one
// for seat -1. Joining again with the same identity returns the same seat.
func (c *Client) Join(ctx context.Context, id, name string, seat int) (int, error) {
	req := struct {
		Name string `json:"name"`
		Seat *int   `json:"seat,omitempty"`
	}{Name: name}
	if seat >= 0 {
		req.Seat = &seat
	}
	var ans struct {
		Seat int `json:"seat"`
	}
	if err := c.call(ctx, http.MethodPost, "/api/arlington/tables/"+id+"/join", req, &ans); err != nil {
		return -1, err
	}
	return ans.Seat, nil
}

// Left is the server's answer to leaving a seat (docs/api.md).
type Left struct {
	// Opened: the game had not started, and the seat is open for anyone.
	Opened bool `json:"opened"`
	// Away: the game is in play, and the seat stays this player's,
	// marked away: the server's stand-in bot plays it until they return.
	Away bool `json:"away"`
	Seat int  `json:"seat"` // the seat kept, counted from 0; -1 when it opened
}

// Leave gives up the seat: before the start it opens again; after it the
// server's stand-in bot plays it until this identity returns. The answer
// says which.
func (c *Client) Leave(ctx context.Context, id string) (Left, error) {
	var left Left
	err := c.call(ctx, http.MethodPost, "/api/arlington/tables/"+id+"/leave", struct{}{}, &left)
	return left, err
}

// Record is table id's game record in the engine's format (the seed only
// once the game is over).
func (c *Client) Record(ctx context.Context, id string) (string, error) {
	var b bytes.Buffer
	err := c.call(ctx, http.MethodGet, "/api/arlington/tables/"+id+"/record", nil, &b)
	return b.String(), err
}

// call sends one request and decodes the answer into out (a *bytes.Buffer
// takes the body as it is). A refusal is an *APIError; a failure to reach
// the server wraps ErrUnreachable.
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	for tries := 1; ; tries++ {
		err := c.callOnce(ctx, method, path, in, out)
		var ae *APIError
		if !errors.As(err, &ae) || ae.retry <= 0 || tries >= movingRetries {
			return err
		}
		t := time.NewTimer(ae.retry)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return err
		}
	}
}

// movingRetries bounds the askings of a table's request while the table
// is between servers (its server stopped or died; another takes it within
// seconds): about 8 s at Retry-After: 1.
const movingRetries = 8

// retryUnit is a second of Retry-After (tests shorten it).
var retryUnit = time.Second

// movingWait is how long to wait before asking again a request answered
// resp, or 0: not a table between servers.
func movingWait(path string, resp *http.Response) time.Duration {
	// The server marks a table between servers (arlwire.MovingHeader); a
	// 503 with Retry-After alone (a database too busy) is shown.
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.HasPrefix(path, "/api/arlington/tables/") ||
		resp.Header.Get(arlwire.MovingHeader) != "1" {
		return 0
	}
	secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || secs < 0 {
		return 0
	}
	return time.Duration(min(max(secs, 1), 2)) * retryUnit
}

func (c *Client) callOnce(ctx context.Context, method, path string, in, out any) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
			return ctx.Err()
		}
		return fmt.Errorf("%w %s: %w", ErrUnreachable, c.base, lost{errors.Unwrap(err)})
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return fmt.Errorf("%w %s: reading the answer: %w", ErrUnreachable, c.base, err)
	}
	if len(b) > maxAnswer {
		return fmt.Errorf("%s %s: answer longer than %d bytes", method, path, maxAnswer)
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(b, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(b))
			if len(e.Error) > 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
				e.Error = "" // a page, not a message
			}
		}
		return &APIError{Status: resp.StatusCode, Message: Clean(e.Error), retry: movingWait(path, resp)}
	}
	switch o := out.(type) {
	case nil:
		return nil
	case *bytes.Buffer:
		o.WriteString(CleanLines(string(b))) // a record, printed as it is
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s %s: the server's answer is not what this client reads: %w", method, path, err)
	}
	return nil
}

// The WebSocket's messages (docs/api.md, "WebSocket").

// Update is one "view" message: the table as this client's identity sees
// it.
type Update struct {
	Table  string `json:"table"`
	Seat   int    `json:"seat"` // this client's seat, -1 watching
	Status string `json:"status"`
	Seats  []Seat `json:"seats"`
	// View is nil until every seat is taken. Its Events are the ones from
	// View.EventsFrom to View.EventCount.
	View  *arlington.View `json:"view"`
	Legal []string        `json:"legal"`
	Chat  []ChatLine      `json:"chat"`
	// Log is the table's words for each of View's events, in order, and
	// Names each seat's name in them: the sentences the page shows.
	Log   []string `json:"log"`
	Names []string `json:"names"`
	// Limits is what this connection may send, on the first view after a
	// hello (nil on the others, and from a server that does not tell).
	Limits *Limits `json:"limits"`
}

// Limits is the server's allowance for one connection: Burst messages at
// once, then one every EveryMs milliseconds; past it each message is
// refused ("too_many") and a flood ends the connection.
type Limits struct {
	Burst   int `json:"burst"`
	EveryMs int `json:"everyMs"`
}

// Over reports whether the update shows the game over.
func (u *Update) Over() bool {
	return u.Status == "over" || u.View != nil && u.View.Phase == arlington.PhaseOver
}

// ChatLine is one line of the table's chat.
type ChatLine struct {
	N    int    `json:"n"`
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Text string `json:"text"`
}

// ServerError is an "error" message: the server refused this client's
// last message; nothing changed at the table.
type ServerError struct {
	Class   string `json:"class"`
	Message string `json:"error"`
	Rule    string `json:"rule"`
	Ref     string `json:"ref"` // the refused chat message's ref, if it had one
}

func (e *ServerError) Error() string {
	if e.Rule != "" {
		return fmt.Sprintf("rule %q: %s", e.Rule, e.Message)
	}
	return e.Message
}
