package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/arlclient"
)

// Turn timer bounds of a live table (the server's, docs/tables.md).
const (
	arlMinTurn = 5 * time.Second
	arlMaxTurn = time.Hour
)

// runArlingtonNewTable creates a table on a server and prints its link.
func runArlingtonNewTable(fs *pflag.FlagSet) runFunc {
	server := fs.String("server", "", "the server's address, as http://HOST:PORT (required)")
	seats := fs.String("seats", "", "one entry a seat, comma-separated: 'human' for a seat open to a person,\n"+
		"or a bot level ("+strings.Join(bot.Names, ", ")+"); 2 to 6 seats (required)")
	target := fs.Int("target", arlington.DefaultTarget, fmt.Sprintf("total score that ends the game, 1 to %d", arlMaxTarget))
	timer := fs.String("turn-timer", "", "how long a person may take before the stand-in bot plays for them,\n"+
		"5s to 1h, or 'off' (default: the server's, 60s at a table with a bot, off without)")
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("new-table: unexpected argument %q", pos[0])
		}
		if *server == "" {
			return usageErr("new-table: --server is required (http://HOST:PORT)")
		}
		c, err := arlclient.New(*server)
		if err != nil {
			return usageErr("new-table: %v", err)
		}
		bots, err := arlParseSeats(*seats)
		if err != nil {
			return err
		}
		if err := arlCheckTarget(*target); err != nil {
			return err
		}
		turn, err := arlParseTurnTimer(*timer)
		if err != nil {
			return err
		}
		t, err := c.Create(ctx, arlclient.TableConfig{Players: len(bots), Bots: bots, Target: *target, TurnSeconds: turn})
		var api *arlclient.APIError
		if errors.As(err, &api) && api.Status == http.StatusBadRequest {
			return usageErr("new-table: %v", err) // the server found the settings wrong
		}
		if err != nil {
			return fmt.Errorf("new-table: %w", err)
		}
		fmt.Fprintln(env.Stdout, c.Link(t.ID))
		return nil
	}
}

// arlParseSeats reads --seats: "human" (a seat open to a person) or a bot
// level per seat. It returns the server's bots list ("" for a person).
func arlParseSeats(spec string) ([]string, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, usageErr("new-table: --seats is required, such as human,human,medium")
	}
	items := strings.Split(spec, ",")
	if len(items) < 2 || len(items) > arlington.MaxSeats {
		return nil, usageErr("new-table: --seats lists %d seats; a table has 2 to %d", len(items), arlington.MaxSeats)
	}
	out := make([]string, len(items))
	for i, it := range items {
		it = strings.ToLower(strings.TrimSpace(it))
		switch {
		case it == "human":
			out[i] = ""
		case it == "":
			return nil, usageErr("new-table: --seats: seat %d is empty (want human or a bot level)", i)
		default:
			if !arlOfferedLevel(it) {
				return nil, usageErr("new-table: --seats: seat %d: %q is neither human nor a bot level (%s)", i, it, strings.Join(bot.Names, ", "))
			}
			out[i] = it
		}
	}
	return out, nil
}

// arlOfferedLevel reports whether level is one the lobby offers (bot.Names).
func arlOfferedLevel(level string) bool {
	return slices.Contains(bot.Names, level)
}

// arlParseTurnTimer reads --turn-timer: "" the server's default (0),
// "off" (-1), or a whole number of seconds from 5 s to an hour.
func arlParseTurnTimer(s string) (int, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return 0, nil
	case "off", "0", "0s":
		return -1, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, usageErr("new-table: --turn-timer %q: want a duration such as 30s or 2m, or off", s)
	}
	if d < arlMinTurn || d > arlMaxTurn || d%time.Second != 0 {
		return 0, usageErr("new-table: --turn-timer %v: want whole seconds from %v to %v, or off", d, arlMinTurn, arlMaxTurn)
	}
	return int(d / time.Second), nil
}
