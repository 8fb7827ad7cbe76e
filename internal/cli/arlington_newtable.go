package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/arlclient"
	"cardtable/internal/table"
)

// Turn timer bounds of a live table (the server's, docs/tables.md).
const (
	arlMinTurn = table.MinTurnSeconds * time.Second
	arlMaxTurn = table.MaxTurnSeconds * time.Second
)

// runArlingtonNewTable creates a table on a server and prints its link.
func runArlingtonNewTable(fs *pflag.FlagSet) runFunc {
	server := fs.String("server", "", "the server's `url`, as http://HOST:PORT (default: http://"+defaultAddr+", where serve listens by default)")
	seats := fs.String("seats", "", "`list` of the seats, comma-separated: 'human' for a seat open to a person,\n"+
		"or a bot level ("+strings.Join(bot.Names, ", ")+"); 2 to 6 seats (required)")
	target := fs.Int("target", arlington.DefaultTarget, fmt.Sprintf("total score that ends the game, 1 to %d (a live table's limit)", table.MaxTarget))
	timer := fs.String("turn-timer", "", fmt.Sprintf("how long a person may take before the stand-in bot plays for them,\n"+
		"%s to %s, or 'off' (default: %ds at a table with a bot or a rated one, off without)", shortDur(arlMinTurn), shortDur(arlMaxTurn), table.DefaultTurnSeconds))
	rated := fs.Bool("rated", false, "a rated table: the game's end updates every player's rating (default: casual)")
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		if len(pos) > 0 {
			return usageErr("new-table: unexpected argument %q", pos[0])
		}
		if *server == "" {
			// As connect's: the server of a player trying a table on
			// their own machine.
			*server = arlDefaultServer
		}
		c, err := arlclient.New(*server)
		if err != nil {
			return flagErr("new-table: %w", err)
		}
		if u, _ := url.Parse(strings.TrimSpace(*server)); strings.Trim(u.Path, "/") != "" {
			// a page's address (the lobby's, pasted from the browser) would
			// put the API under it and get the server's 404 or 405
			return flagErr("new-table: --server %q: want the server's address alone, http://HOST:PORT, without a path", *server)
		}
		bots, err := arlParseSeats(*seats)
		if err != nil {
			return err
		}
		if *target < 1 || *target > table.MaxTarget {
			return flagErr("new-table: %s: want 1 to %d (a live table's limit)", flagValue("target", *target), table.MaxTarget)
		}
		turn, err := arlParseTurnTimer(*timer)
		if err != nil {
			return err
		}
		t, err := c.Create(ctx, arlclient.TableConfig{Players: len(bots), Bots: bots, Target: *target, TurnSeconds: turn, Rated: *rated})
		var api *arlclient.APIError
		if errors.As(err, &api) && api.Status == http.StatusBadRequest {
			return usageErr("new-table: %w", err) // the server found the settings wrong
		}
		if err != nil {
			return fmt.Errorf("new-table: %w", serverRefusal(err, fs.Changed("server")))
		}
		fmt.Fprintln(env.Stdout, c.Link(t.ID))
		return nil
	}
}

// arlParseSeats reads --seats: "human" (a seat open to a person) or a bot
// level per seat. It returns the server's bots list ("" for a person).
func arlParseSeats(spec string) ([]string, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, flagErr("new-table: --seats is required, such as human,human,medium")
	}
	items := strings.Split(spec, ",")
	if len(items) < 2 || len(items) > arlington.MaxSeats {
		return nil, flagErr("new-table: %s lists %s; a table has 2 to %d", flagValue("seats", spec), plural(len(items), "seat"), arlington.MaxSeats)
	}
	out := make([]string, len(items))
	for i, it := range items {
		typed := strings.TrimSpace(it)
		switch level := strings.ToLower(typed); {
		case level == "human":
			out[i] = ""
		case level == "":
			return nil, flagErr("new-table: %s: seat %d is empty (want human or a bot level)", flagValue("seats", spec), arlSeat(i))
		default:
			if !arlOfferedLevel(level) {
				return nil, flagErr("new-table: %s: seat %d is %q: want human or a bot level (%s)", flagValue("seats", spec), arlSeat(i), typed, strings.Join(bot.Names, ", "))
			}
			out[i] = level
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
		return 0, flagErr("new-table: %s: want a duration such as 30s or 2m, or off", flagValue("turn-timer", s))
	}
	if d < arlMinTurn || d > arlMaxTurn || d%time.Second != 0 {
		return 0, flagErr("new-table: %s: want whole seconds from %s to %s, or off", flagValue("turn-timer", s), shortDur(arlMinTurn), shortDur(arlMaxTurn))
	}
	return int(d / time.Second), nil
}

// shortDur is d as people write it: "1h", not "1h0m0s".
func shortDur(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
