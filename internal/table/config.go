// Package table runs live Arlington tables: people and bots at one game,
// each in one goroutine that owns the game's state, with a numbered public
// event log, per-receiver updates, a turn timer, chat and persistence
// through a Store. It knows no HTTP, SQL or WebSocket: the web adapter
// calls Hub and Table, the store package implements Store, and the wiring
// layer hands in the bots. docs/tables.md describes how a table works.
package table

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"cardtable/arlington"
)

// Errors, for the web layer to map in one place. Each is returned only to
// the caller whose request it refuses; none changes the table.
var (
	ErrNotFound     = errors.New("no such table")
	ErrBadConfig    = errors.New("bad table settings")
	ErrTooMany      = errors.New("too many tables")
	ErrTableFull    = errors.New("no open seat")
	ErrSeatTaken    = errors.New("seat taken")
	ErrSeatHeld     = errors.New("another seat is held for you") // at a rematch: one person, one seat
	ErrNoSeat       = errors.New("no such seat")
	ErrNotSeated    = errors.New("not seated at this table")
	ErrNotYourSeat  = errors.New("not your seat")
	ErrNotYourTurn  = errors.New("not your turn")
	ErrNotStarted   = errors.New("the game has not started")
	ErrOver         = errors.New("the game is over")
	ErrIllegal      = errors.New("illegal action") // wraps the engine's *arlington.RuleError
	ErrBadName      = errors.New("bad display name")
	ErrBadPlayer    = errors.New("bad player identity")
	ErrChat         = errors.New("bad chat message")
	ErrRateLimited  = errors.New("too many messages: wait a little")
	ErrCrowded      = errors.New("too many connections to this table")
	ErrReplaced     = errors.New("replaced by a newer connection to the same seat")
	ErrClosed       = errors.New("table closed")
	ErrSlow         = errors.New("subscriber fell behind")
	ErrStore        = errors.New("the store failed")         // a read or a write
	ErrDiskFull     = errors.New("the store's disk is full") // the store wraps it; ErrStore wraps the store's error
	ErrNotOver      = errors.New("the game is not over")
	ErrUnknownLevel = errors.New("unknown bot level")
	// ErrMoved: the store refused a write of a table because another
	// server holds it now (Claims); this server drops the table and its
	// connections reconnect, to reach it where it runs.
	ErrMoved = errors.New("the table moved to another server: reconnect")
	// ErrSeatOpen: wrapped, besides ErrCrowded, in a spectator's refusal
	// when the table has a seat open to the visitor (to anyone, or held
	// for them by a rematch), which they may still take (joining needs
	// no spectator place). The web layer tells it in a
	// field of its own (seatOpen), so a page acts on it without reading
	// the words.
	ErrSeatOpen = errors.New("a seat is open, and joining needs no spectator place")
	// ErrDamaged: a table kept in the store cannot be rebuilt (its
	// config, or one of its moves, is refused). The store holds only
	// what the server wrote, so this is the server's fault whatever the
	// cause also wraps (ErrBadConfig, the engine's ErrBadAction), never
	// the requester's.
	ErrDamaged = errors.New("stored table cannot be rebuilt")
)

// Limits. Every resource a client can grow is bounded by one of these.
const (
	MaxNameRunes  = 24              // display name length
	MaxChatRunes  = 200             // one chat message
	ChatHistory   = 50              // chat lines a table keeps (and sends on subscribe)
	ChatBurst     = 5               // messages a player may send at once ...
	ChatEvery     = 3 * time.Second // ... and then one per ChatEvery
	MaxSpectators = 32              // spectator connections to one table
	MaxSeatConns  = 4               // one seated person's connections to their table (more replace the oldest)
	MaxWatching   = 16              // spectator connections one identity holds, all tables together
	// MaxAddrWatch is the spectator places one client address takes at a
	// table: a client without a cookie gets a fresh identity on every
	// connection, so MaxWatching alone would let one address fill the
	// table's MaxSpectators.
	MaxAddrWatch = 8
	// AddrChatBurst and AddrChatEvery are one client address's chat
	// allowance at a table, besides each person's: fresh identities from
	// one address share it.
	AddrChatBurst  = 10
	AddrChatEvery  = time.Second
	SubBuffer      = 64  // updates queued for one subscriber before it is dropped
	MaxPlayerIDLen = 128 // identity string length
	MaxTarget      = 500 // a longer game would keep a table for days
	MinTurnSeconds = 5
	MaxTurnSeconds = 3600
	// DefaultTurnSeconds is the turn timer of a table with a bot, or a
	// rated one, when its settings leave the timer out.
	DefaultTurnSeconds = 60
	// DefaultStandIn is the level of the bot that plays for an absent
	// person.
	DefaultStandIn = "medium"
)

// Config is a table's settings, chosen in the lobby.
type Config struct {
	Players int `json:"players"` // 2 to 6
	Target  int `json:"target"`  // 0 means 32
	// Bots names, for each seat, the level of the bot that sits there, or
	// "" for a seat open to a person. Its length is Players (shorter: the
	// rest are open).
	Bots []string `json:"bots"`
	// TurnSeconds is the turn timer: how long a person may take while
	// someone else is waiting before a bot plays for them. 0 means the
	// default (DefaultTurnSeconds with a bot at the table or when rated,
	// off without); -1 is off (refused when rated).
	TurnSeconds int `json:"turnSeconds"`
	// StandIn is the level of the bot that plays for an absent person
	// ("" means DefaultStandIn).
	StandIn string `json:"standIn"`
	// Rated: the game's end updates the ratings of everyone at the table
	// (docs/tables.md, "Ratings"); false is a casual game.
	Rated bool `json:"rated,omitempty"`
}

// UnmarshalJSON reads a config strictly (an unknown key is an error), with
// the keys of the previous release too: turn_seconds and stand_in, which
// configs stored by that release hold. They are read for one release and
// never written.
func (c *Config) UnmarshalJSON(b []byte) error {
	type plain Config // without this method
	var j struct {
		plain
		OldTurnSeconds *int    `json:"turn_seconds"`
		OldStandIn     *string `json:"stand_in"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	if k, ok := foldedOldKey(b); ok {
		return fmt.Errorf("json: unknown field %q", k)
	}
	*c = Config(j.plain)
	if j.OldTurnSeconds != nil && c.TurnSeconds == 0 {
		c.TurnSeconds = *j.OldTurnSeconds
	}
	if j.OldStandIn != nil && c.StandIn == "" {
		c.StandIn = *j.OldStandIn
	}
	return nil
}

// oldKeys are the previous release's keys UnmarshalJSON still reads.
var oldKeys = []string{"turn_seconds", "stand_in"}

// foldedOldKey finds a key of the object b that encoding/json reads as one
// of oldKeys by Unicode case folding only ("turn_ſeconds", a long s): the
// keys are read in ASCII case only, as the current ones are (web.CheckKeys,
// which sees the current fields alone).
func foldedOldKey(b []byte) (string, bool) {
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) != nil {
		return "", false
	}
	for k := range keys {
		for _, old := range oldKeys {
			// A key that folds to old and has old's length is old in
			// ASCII case: old is ASCII, and the only non-ASCII runes
			// that fold to ASCII ones (ſ, the Kelvin sign) take more
			// bytes than the letter they fold to, so a key holding one
			// is longer than old.
			if strings.EqualFold(k, old) && len(k) != len(old) {
				return k, true
			}
		}
	}
	return "", false
}

// normalize checks c and fills in its defaults; validLevel says whether a
// bot level exists.
func (c Config) normalize(validLevel func(string) bool) (Config, error) {
	if c.Players < 2 || c.Players > arlington.MaxSeats {
		return c, fmt.Errorf("%w: 2 to %d seats, not %d", ErrBadConfig, arlington.MaxSeats, c.Players)
	}
	if c.Target == 0 {
		c.Target = arlington.DefaultTarget
	}
	if c.Target < 1 || c.Target > MaxTarget {
		return c, fmt.Errorf("%w: target %d is not from 1 to %d", ErrBadConfig, c.Target, MaxTarget)
	}
	if len(c.Bots) > c.Players {
		return c, fmt.Errorf("%w: %d seats' bots for %d seats", ErrBadConfig, len(c.Bots), c.Players)
	}
	bots := make([]string, c.Players)
	copy(bots, c.Bots)
	people := 0
	for i, b := range bots {
		b = strings.ToLower(strings.TrimSpace(b))
		bots[i] = b
		if b == "" {
			people++
		} else if !validLevel(b) {
			// Counted from 1, as the new-table form and the page show seats.
			return c, fmt.Errorf("%w: seat %d: %w %q", ErrBadConfig, i+1, ErrUnknownLevel, b)
		}
	}
	c.Bots = bots
	c.StandIn = strings.ToLower(strings.TrimSpace(c.StandIn))
	if c.StandIn == "" {
		c.StandIn = DefaultStandIn
	}
	if !validLevel(c.StandIn) {
		return c, fmt.Errorf("%w: stand-in: %w %q", ErrBadConfig, ErrUnknownLevel, c.StandIn)
	}
	switch {
	case c.TurnSeconds == 0 && (people < c.Players || c.Rated):
		c.TurnSeconds = DefaultTurnSeconds
	case c.TurnSeconds == 0:
		c.TurnSeconds = -1
	case c.TurnSeconds == -1:
	case c.TurnSeconds < MinTurnSeconds || c.TurnSeconds > MaxTurnSeconds:
		// Any other negative number too: -1 is the one way to say off,
		// so a slip of the keyboard is not taken silently as off.
		return c, fmt.Errorf("%w: turn timer %d s is not from %d to %d s (or -1 for none, 0 for the default)", ErrBadConfig, c.TurnSeconds, MinTurnSeconds, MaxTurnSeconds)
	}
	return c, nil
}

func (c Config) turn() time.Duration {
	if c.TurnSeconds <= 0 {
		return 0
	}
	return time.Duration(c.TurnSeconds) * time.Second
}

// Player is a person: the identity string the server gave their browser
// (a secret: whoever holds it acts for the seat) and the display name they
// picked. Only the name is ever shown to others.
type Player struct {
	ID   string
	Name string
	// Addr is the client's address key ("" when there is none, as for
	// a bot): the bounds by address count it.
	Addr string
}

func checkID(id string) error {
	if id == "" || len(id) > MaxPlayerIDLen {
		return fmt.Errorf("%w: %d bytes", ErrBadPlayer, len(id))
	}
	// The chat allowances key an address after a NUL (addrBucket), so an
	// identity holding one could pass for an address.
	if strings.ContainsRune(id, 0) {
		return fmt.Errorf("%w: holds a NUL byte", ErrBadPlayer)
	}
	return nil
}

// cleanName trims a display name and refuses one that is empty, too long,
// holds control or invisible formatting characters, or shows nothing (only
// characters FoldName drops, such as a Hangul filler).
func cleanName(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("%w: empty", ErrBadName)
	}
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxNameRunes {
		return "", fmt.Errorf("%w: at most %d characters", ErrBadName, MaxNameRunes)
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return "", fmt.Errorf("%w: control characters", ErrBadName)
		}
	}
	f := FoldName(s)
	if f == "" {
		return "", fmt.Errorf("%w: no visible characters", ErrBadName)
	}
	if labelName.MatchString(f) {
		return "", fmt.Errorf("%w: %q reads as the table's own words for a bot (\"Bot 2 (medium)\"), an open seat (\"Seat 3\") or a watcher (\"Ann (watching)\", \"Spectator 2\"); choose another", ErrBadName, s)
	}
	if cardName(s) {
		return "", fmt.Errorf("%w: %q reads as a card (\"7♠\", \"seven of spades\", \"joker\"), which the table's words would mistake it for; choose another", ErrBadName, s)
	}
	return s, nil
}

// cardToken is a card as the table writes it ("7♠", "10♥", "joker"),
// maybe in brackets, quotes or before a stop, as the page reads one;
// cardWords is one in words ("seven of spades", "7 of spades"). Both
// match folds of names whose curly double quotes are made straight
// (cardQuotes).
var (
	cardToken = regexp.MustCompile(`^[(\["]*(?:(?:10|[2-9ajqk])[♠♥♦♣]|joker)[)\]",.;:!?]*$`)
	cardWords = regexp.MustCompile(`^(?:10|[2-9ajqk]|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of (?:spades|hearts|diamonds|clubs)$`)
)

// cardQuotes makes the page's curly double quotes straight before the
// fold, which turns each into two apostrophes: the page reads "“7♠”" as
// a card, as it does "\"7♠\"", and the fold alone let it through.
var cardQuotes = strings.NewReplacer("“", `"`, "”", `"`)

// cardName reports whether the name reads as a card or a row of cards:
// the page speaks a name as written and cards in words, so a player
// named "7♠" stopped the seven of spades being said, and one named
// "seven of spades" could not be told from the card by ear.
func cardName(name string) bool {
	f := FoldName(cardQuotes.Replace(name))
	if cardWords.MatchString(strings.Trim(f, `()[]".,;:!?`)) {
		return true
	}
	for _, w := range strings.Fields(f) {
		if !cardToken.MatchString(w) {
			return false
		}
	}
	return true
}

// labelName matches the fold of a name that would pass for one of the
// labels the table shows for what is not a person in a seat: a bot
// ("Bot 2", "Bot 2 (medium)": seats 1 to 6, and "B0t 2", a zero for the
// o, as the fold keeps digits), an open seat ("Seat 1" to "Seat 6") or a
// spectator's chat name ("Ann (watching)", and "Spectator 2", the name
// of one who gave none: anonOf). Names the table never shows,
// such as "Bot2000", "Seat 0" or "Spectator 0", pass.
var labelName = regexp.MustCompile(`^b[o0]t ?[1-6]([^0-9\pL]|$)|^seat ?[1-6]$|^spectator ?[1-9][0-9]*$|\( ?watching ?\)$`)
