package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"cardtable/arlington"
	"cardtable/internal/arlclient"
	"cardtable/internal/table"
)

// The terminal player's commands at an online table.

const arlConnectHelp = `commands (one a line, read when it is your turn):
  help              this list
  show              the table, your hand and whose turn it is
  legal             list your legal actions, numbered
  N                 take legal action number N from the last 'legal' list
  hint              what the hard bot would do in your place (it thinks
                    for up to half a second, on your own view)
  auto              let the greedy bot take this action for you
  record            print the table's game record so far (the server
                    shows its seed only once the game is over)
  say TEXT          send TEXT to the table's chat
  quit, q           leave the table: the server's stand-in bot plays
                    your seat from now on
` + arlActionsHelp

// line handles one line of the terminal player's; stop ends play.
func (r *arlRemote) line(ctx context.Context, l arlLine) (stop bool, err error) {
	var long *longLineError
	switch {
	case errors.As(l.err, &long):
		r.out("%v\n", l.err)
		return false, nil
	case l.err != nil:
		r.out("\ninput ended before the game did\n")
		if err := r.leave(ctx); err != nil {
			return true, err
		}
		if l.err == io.EOF {
			return true, nil
		}
		return true, l.err
	}
	line := strings.TrimSpace(l.text)
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch w := strings.ToLower(word); w {
	case "":
		return false, nil
	case "help", "?", "show", "legal", "hint", "auto", "record", "quit", "q", "exit":
		if rest != "" {
			r.out("%s takes no arguments\n", word)
			return false, nil
		}
		return r.command(ctx, w)
	case "say":
		// The line as the table will keep it (its control and format
		// characters made spaces, then trimmed), counted so: the server
		// counts what comes, and a line over its limit is refused here,
		// since past 4 KiB the server does not read the message and
		// closes the connection instead of answering.
		text := strings.TrimSpace(arlclient.Clean(rest))
		if text == "" {
			r.out("usage: say TEXT\n")
			return false, nil
		}
		if n := utf8.RuneCountInString(text); n > table.MaxChatRunes {
			r.out("not sent: a chat line is at most %d characters, this one has %d\n", table.MaxChatRunes, n)
			return false, nil
		}
		err := r.sess.Chat(ctx, text)
		r.held = err == nil
		if err != nil {
			if ctx.Err() != nil {
				return true, ctx.Err()
			}
			// The connection is going (the follower reconnects): the
			// WebSocket library's words would tell the player nothing.
			r.out("not sent: the connection to the table is down; say it again once it is back\n")
		}
		return false, nil
	case "save":
		r.out("save is for games against local bots: this game lives on the server; 'record' prints its record\n")
		return false, nil
	}
	var a arlington.Action
	if k, err := strconv.Atoi(line); err == nil {
		if k < 1 || k > len(r.legal) {
			r.out("no action %d: type 'legal' for the numbered list\n", k)
			return false, nil
		}
		a = r.legal[k-1]
	} else if a, err = arlParseAction(line, r.players()); err != nil {
		r.out("%v\ntype 'help' for commands\n", err)
		return false, nil
	}
	return false, r.act(ctx, a)
}

// command answers one of the words that take no argument.
func (r *arlRemote) command(ctx context.Context, w string) (stop bool, err error) {
	switch w {
	case "help", "?":
		r.out("%s\n", arlConnectHelp)
	case "show":
		r.showView()
	case "legal":
		r.legal = r.last.View.Legal()
		for i, a := range r.legal {
			r.out("%3d  %s\n", i+1, arlActionText(a))
		}
	case "hint":
		a, err := r.hinter.Act(ctx, r.fullView())
		if err != nil {
			return true, err
		}
		r.out("the %s bot would play: %s\n", r.hinter.Name(), arlActionText(a))
	case "auto":
		a, err := r.helper.Act(ctx, r.fullView())
		if err != nil {
			return true, err
		}
		return false, r.act(ctx, a)
	case "record":
		text, err := r.client.Record(ctx, r.id)
		if err != nil {
			r.out("no record: %v\n", err)
			return false, nil
		}
		r.out("%s%s", recordNote, text)
	case "quit", "q", "exit":
		if err := r.leave(ctx); err != nil {
			return true, err
		}
		return true, nil
	}
	return false, nil
}

// leave gives the seat to the server's stand-in bot, so that nobody waits
// for a player who has gone, and says what the server did with it.
func (r *arlRemote) leave(ctx context.Context) error {
	left, err := r.client.Leave(ctx, r.id)
	if err != nil {
		return fmt.Errorf("connect: leaving the table: %w", err)
	}
	r.out("%s\n", arlLeftWords(left, r.seat))
	return nil
}

// arlLeftWords says the server's answer to leaving seat (counted from 0):
// in a game in play the seat is kept, marked away, and the stand-in plays
// it; before the start it opened for anyone.
func arlLeftWords(left arlclient.Left, seat int) string {
	switch {
	case left.Away:
		return fmt.Sprintf("left the table; seat %d is still yours, marked away: the server's stand-in bot plays it "+
			"until you come back (connect again with the same identity); a rematch of this game holds no seat for you unless you do", arlSeat(left.Seat))
	case left.Opened:
		return fmt.Sprintf("left the table; seat %d is open again for anyone", arlSeat(seat))
	}
	return "left the table"
}

// arlReason is a refusal's message as terminal play words it: without the
// class words servers before the shared classifier put before it
// ("unprocessable: illegal action:"), the engine's "illegal action: ",
// and the rule it names at the end, which the caller shows first.
func arlReason(e *arlclient.ServerError) string {
	msg := e.Message
	for again := true; again; {
		again = false
		for _, p := range []string{"unprocessable: ", "illegal action: ", "conflict: ", "forbidden: ", "bad request: "} {
			if rest, ok := strings.CutPrefix(msg, p); ok {
				msg, again = rest, true
			}
		}
	}
	if e.Rule != "" {
		msg = strings.TrimSuffix(msg, fmt.Sprintf(" (rule %q)", e.Rule))
	}
	return msg
}

// players is the table's number of seats, once a view has told it (0
// before).
func (r *arlRemote) players() int {
	if r.last == nil {
		return 0
	}
	return len(r.last.Seats)
}
