package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"cardtable/arlington"
)

// ErrChatNotStored: a chat line the store could not write, so sent to
// no one. It wraps ErrStore; the web layer tells its sender that their
// message was not sent, rather than speaking of the table.
var ErrChatNotStored = fmt.Errorf("chat line not stored: %w", ErrStore)

// ChatLine is one chat message as everyone sees it.
type ChatLine struct {
	N    int       `json:"n"`    // its number at the table, from 1
	Seat int       `json:"seat"` // -1: a spectator
	Name string    `json:"name"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// bucket is a chat allowance: a person's (ChatBurst messages, refilled at
// one per ChatEvery) or an address's at a table (AddrChatBurst,
// AddrChatEvery).
type bucket struct {
	tokens float64
	at     time.Time
	burst  float64 // its size
}

// maxBuckets bounds the chat allowances a table remembers; full ones are
// forgotten first (forgetting a full bucket changes nothing).
const maxBuckets = 4 * (MaxSpectators + arlington.MaxSeats*MaxSeatConns)

// allowChat takes a chat token from the person's bucket and their
// address's, or from neither.
func (l *loop) allowChat(p Player, now time.Time) bool {
	pb := l.bucketOf(p.ID, ChatBurst, now)
	if pb == nil || pb.refill(now, ChatBurst, ChatEvery) < 1 {
		return false
	}
	if p.Addr != "" {
		ab := l.bucketOf(addrBucket+p.Addr, AddrChatBurst, now)
		if ab == nil || ab.refill(now, AddrChatBurst, AddrChatEvery) < 1 {
			return false
		}
		ab.tokens--
	}
	pb.tokens--
	return true
}

// addrBucket prefixes an address's key among the buckets: identities
// never hold a NUL.
const addrBucket = "\x00addr:"

// bucketOf is key's bucket, a full one when new; nil when the table
// remembers maxBuckets that are not full.
func (l *loop) bucketOf(key string, burst float64, now time.Time) *bucket {
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			for id, o := range l.buckets {
				if o.full(now) {
					delete(l.buckets, id)
				}
			}
			if len(l.buckets) >= maxBuckets {
				return nil
			}
		}
		b = &bucket{tokens: burst, at: now, burst: burst}
		l.buckets[key] = b
	}
	return b
}

func (b *bucket) refill(now time.Time, burst float64, every time.Duration) float64 {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(burst, b.tokens+float64(d)/float64(every))
		b.at = now
	}
	return b.tokens
}

// full says whether b would be full at now (forgetting it changes
// nothing); the slowest refill of the two kinds, so never too early.
func (b *bucket) full(now time.Time) bool {
	return b.tokens+float64(now.Sub(b.at))/float64(ChatEvery) >= b.burst
}

// cleanChat trims a message and turns line breaks and other control
// characters into spaces; an empty or too long message is refused.
func cleanChat(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%w: not UTF-8", ErrChat)
	}
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return ' '
		}
		return r
	}, s))
	if s == "" {
		return "", fmt.Errorf("%w: empty", ErrChat)
	}
	if utf8.RuneCountInString(s) > MaxChatRunes {
		return "", fmt.Errorf("%w: at most %d characters", ErrChat, MaxChatRunes)
	}
	return s, nil
}

func (l *loop) chat(p Player, text string) error {
	if err := checkID(p.ID); err != nil {
		return err
	}
	seat := l.seatOf(p.ID)
	name, anon := "", 0
	if seat >= 0 {
		name = l.seats[seat].name
	} else if strings.TrimSpace(p.Name) == "" {
		// Only named here: the number is given once the line is stored.
		anon = l.anonOf(p.ID)
		name = anonPrefix + strconv.Itoa(anon)
	} else {
		var err error
		if name, err = cleanName(p.Name); err != nil {
			return err
		}
	}
	text, err := cleanChat(text)
	if err != nil {
		return err
	}
	// Milliseconds, as the store keeps it: a line read back after a
	// restart is the line sent before.
	now := l.h.o.Clock.Now().UTC().Truncate(time.Millisecond)
	if !l.allowChat(p, now) {
		return ErrRateLimited
	}
	line := ChatLine{N: l.chatN + 1, Seat: seat, Name: name, Text: text, At: now}
	// Stored before anyone sees it, so a restarted table (or the server
	// that takes it over) has the same chat.
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	if err := l.h.o.Store.AppendChat(ctx, l.t.id, line, ChatHistory); err != nil {
		// Moved: the table stops here, as for a move.
		if errors.Is(l.checkMoved(err), ErrMoved) || !l.rereadChat(line) {
			return fmt.Errorf("%w: %w", ErrChatNotStored, err)
		}
		// The write committed and only its answer was lost: the line
		// was sent to everyone with the reread, so its sender is told so.
		l.keepAnon(p.ID, anon)
		return nil
	}
	l.keepAnon(p.ID, anon)
	l.addChat(line)
	l.dirty = true
	return nil
}

// rereadChat takes the lines the store has beyond this table's last
// after a refused write, and reports whether line is among them: the
// write may have committed with its answer lost, and the store then
// refuses every later number but the next one. Those lines are sent as
// any other; a store that cannot be read changes nothing (and answers
// no). Its own time: the refused write may have used all of its own.
func (l *loop) rereadChat(line ChatLine) bool {
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	s, err := l.h.loadLive(ctx, l.t.id)
	if err != nil || len(s.Chat) == 0 || s.Chat[len(s.Chat)-1].N <= l.chatN {
		return false
	}
	l.restoreChat(s.Chat)
	l.dirty = true
	i := slices.IndexFunc(s.Chat, func(c ChatLine) bool { return c.N == line.N })
	return i >= 0 && sameChat(s.Chat[i], line)
}

// sameChat reports whether a and b are one line: a store may give its
// time back in another location.
func sameChat(a, b ChatLine) bool {
	return a.N == b.N && a.Seat == b.Seat && a.Name == b.Name && a.Text == b.Text && a.At.Equal(b.At)
}

// anonOf is the number of the name a spectator who gave none chats
// under, "Spectator N": N is given in the order such spectators first
// have a line accepted at this table, so that two of them are told apart
// and one person's lines read as one person's. It says nothing of who
// they are but that order. anonOf only reads: keepAnon gives the number
// once the line is stored, so a refused line uses none up.
func (l *loop) anonOf(id string) int {
	if n, ok := l.anon[id]; ok {
		return n
	}
	return l.anonN + 1
}

// keepAnon has id keep number n (0: a line not under such a name). A
// number is never given twice at a table, not even after a restart
// (restoreChat); the identities remembered are bounded by maxAnon, all
// forgotten at once when it is reached (a person forgotten takes a new
// number at their next line), and a restart forgets them all.
func (l *loop) keepAnon(id string, n int) {
	if n == 0 {
		return
	}
	if _, ok := l.anon[id]; !ok && (l.anon == nil || len(l.anon) >= maxAnon) {
		l.anon = make(map[string]int)
	}
	l.anon[id] = n
	l.anonN = max(l.anonN, n)
}

// anonPrefix begins the name of a spectator who gave none; cleanName
// refuses names that read as one (labelName).
const anonPrefix = "Spectator "

// maxAnon bounds the nameless spectators' numbers a table remembers.
const maxAnon = maxBuckets

// addChat keeps line, the table's newest, and forgets the lines beyond
// ChatHistory.
func (l *loop) addChat(line ChatLine) {
	l.chatN = line.N
	if n, ok := strings.CutPrefix(line.Name, anonPrefix); ok && line.Seat < 0 {
		if k, err := strconv.Atoi(n); err == nil && k > l.anonN {
			l.anonN = k
		}
	}
	l.chatLines = append(l.chatLines, line)
	if len(l.chatLines) > ChatHistory {
		// A new array, so that no update sent holds a slice of this one.
		l.chatLines = append([]ChatLine(nil), l.chatLines[len(l.chatLines)-ChatHistory:]...)
	}
}

// startChat takes the chat lines of a stored table being started,
// oldest first. The nameless spectators' numbers go on past every number
// given, though the lines that bore some are forgotten: a stored line
// gives at most one new number, in order, so those given in the lines
// before the first kept (number F+1) are at most F. The table then
// numbers from past F, a gap in the numbers but never one given twice.
func (l *loop) startChat(lines []ChatLine) {
	if len(lines) > 0 {
		l.anonN = max(l.anonN, lines[0].N-1)
	}
	l.restoreChat(lines)
}

// restoreChat takes the chat lines a stored table kept, oldest first: the
// numbering goes on from the last.
func (l *loop) restoreChat(lines []ChatLine) {
	for _, line := range lines {
		if line.N > l.chatN {
			l.addChat(line)
		}
	}
}

// chatSince is a copy of the lines after number n that are still kept.
func (l *loop) chatSince(n int) []ChatLine {
	first := l.chatN - len(l.chatLines) // the number before the first kept
	i := max(0, n-first)
	if i >= len(l.chatLines) {
		return nil
	}
	return append([]ChatLine(nil), l.chatLines[i:]...)
}
