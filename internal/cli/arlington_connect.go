package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/arlclient"
)

// runArlingtonConnect joins a table on a server and plays one seat, from
// the terminal or with a local bot, to the end of the game.
func runArlingtonConnect(fs *pflag.FlagSet) runFunc {
	name := fs.String("name", "", "your display `name` at the table, up to 24 characters (default: Terminal; with --bot, LEVEL bot, such as \"greedy bot\")")
	seat := fs.Int("seat", 0, "the `seat` to take, counting from 1 (default: the first open one)")
	level := fs.String("bot", "", "let a bot of this `level` play the seat ("+strings.Join(bot.Names, ", ")+"); standard input is not read")
	logName := fs.String("log", "", "write every message received from the server to `file`, one JSON object a line")
	server := fs.String("server", "", "with a table's code: the server's `url`, as http://HOST:PORT (default: http://"+defaultAddr+", where serve listens by default)")
	identity := fs.String("identity", "", "keep your player identity for each server in `file`, so later runs are the same player, with the same rating, name and seats (default: cardtable/"+identityFileName+" in your config directory; with --bot, none); --identity \"\" keeps it only for this run")
	return func(ctx context.Context, env *Env, pos []string) error {
		if err := connectArgs(pos, *seat, fs.Changed("seat")); err != nil {
			return err
		}
		c, id, err := arlTableArg(ctx, pos[0], *server, fs.Changed("server"))
		if err != nil {
			return err
		}
		r := &arlRemote{env: env, client: c, id: id, link: c.Link(id), at: -1, sent: -1, mine: -1, joined: -1,
			prompts: inputIsTerminal(env.Stdin)}
		if err := r.choosePlayer(*level, name); err != nil {
			return err
		}
		idFile := connectIdentityFile(env, *identity, fs.Changed("identity"), r.bot != nil)
		kept, err := restoreIdentity(c, idFile)
		if err != nil {
			return usageErr("connect: %w", err)
		}
		// The log is opened once the identity is known to be usable, so a
		// refused file does not cost an earlier run's log.
		if *logName != "" {
			f, err := os.Create(*logName)
			if err != nil {
				return usageErr("connect: --log: cannot write %s: %w", *logName, osReason(err))
			}
			defer f.Close()
			r.log = f
		}
		r.seat, err = c.Join(ctx, id, *name, *seat-1) // the wire counts from 0; -1: any seat
		if err != nil {
			if e := arlSeatPastTable(ctx, c, id, *seat, err); e != nil {
				return e
			}
			return arlJoinError(err, r.link, idFile, kept != "")
		}
		keepIdentity(env, c, idFile, kept)
		if r.bot == nil {
			// A person is told the turn timer (the page says it on each
			// turn): a turn left too long is played by the server's
			// stand-in. Without the table's settings play goes on unsaid.
			if t, err := c.Table(ctx, id); err == nil && t.TurnSeconds > 0 {
				r.timer = arlTimerWords(t.TurnSeconds, t.Rated)
			}
		}
		return r.run(ctx)
	}
}

// connectArgs checks connect's arguments and --seat (seat as given,
// counting from 1; changed: given at all).
func connectArgs(pos []string, seat int, changed bool) error {
	switch {
	case len(pos) == 0:
		return usageErr("connect: give the table's link (http://HOST:PORT/arlington/t/ID) or its code, " +
			"the six characters its page shows (with --server URL for a server other than http://" + defaultAddr + ")")
	case len(pos) > 1:
		return usageErr("connect: unexpected argument %q", pos[1])
	case seat < 0 || seat > arlington.MaxSeats || changed && seat == 0: // 0 given is no seat, not "any"
		return flagErr("connect: %s: want 1 to %d", flagValue("seat", seat), arlington.MaxSeats)
	}
	return nil
}

// choosePlayer sets who plays r's seat: a bot of level, or ("") the
// person at the terminal, with the helpers for 'auto' and 'hint'; and
// *name, if not given, to the bot's or the terminal's.
func (r *arlRemote) choosePlayer(level string, name *string) error {
	seedBase, _ := arlSeed("", "")
	if level != "" {
		lv := strings.ToLower(strings.TrimSpace(level))
		if !arlOfferedLevel(lv) {
			return flagErr("connect: %s: want one of %s", flagValue("bot", level), strings.Join(bot.Names, ", "))
		}
		r.bot, _ = bot.New(lv, bot.SeatSeed(seedBase, 0))
		r.level = lv
		if *name == "" {
			*name = lv + " bot"
		}
	}
	if *name == "" {
		*name = "Terminal"
	}
	hard, _ := bot.LevelNamed("hard")
	r.helper = bot.NewGreedy(bot.SeatSeed(seedBase, 1))
	r.hinter = bot.NewSearch(hard, bot.SeatSeed(seedBase, 2))
	return nil
}

// connectIdentityFile is the file keeping this run's identity: --identity
// as given (changed), or by default a person's in the config directory
// and none for a bot ("": kept for this run only).
func connectIdentityFile(env *Env, given string, changed, isBot bool) string {
	if changed || isBot {
		// A person keeps their identity by default; a bot's run is a
		// program, often one of several started at once, which would
		// otherwise share one seat (docs/arlington-client.md).
		return given
	}
	p, err := defaultIdentityPath()
	if err != nil {
		notef(env, "%v; this run's identity is kept for this run only", err)
		return ""
	}
	return p
}

// arlTableArg is the client and table id of connect's argument: a table's
// link, or its code (as the table page shows it) looked up on server
// ("": the address serve listens on by default). --server goes with a
// code only: a link names its own server, and a second one could only
// disagree with it.
func arlTableArg(ctx context.Context, arg, server string, serverGiven bool) (*arlclient.Client, string, error) {
	code := arlclient.NormalCode(arg)
	if code == "" {
		if !strings.Contains(arg, "://") {
			if codeShaped(arg) {
				return nil, "", usageErr("connect: %q is not a table's code: a code never has 0, O, 1, I or L "+
					"(its page shows it; a link is http://HOST:PORT/arlington/t/ID)", arg)
			}
			return nil, "", usageErr("connect: %q is neither a table's link (http://HOST:PORT/arlington/t/ID) "+
				"nor its code (six letters and digits, never 0, O, 1, I or L, as the table's page shows it)", arg)
		}
		if serverGiven {
			return nil, "", flagErr("connect: --server goes with a table's code; the link %s names its server already", arg)
		}
		c, id, err := arlclient.FromLink(arg)
		if err != nil {
			return nil, "", usageErr("connect: %w", err)
		}
		return c, id, nil
	}
	if server == "" {
		server = arlDefaultServer
	}
	c, err := arlclient.New(server)
	if err != nil {
		return nil, "", flagErr("connect: %w", err) // names the address given and the form wanted
	}
	if u, _ := url.Parse(strings.TrimSpace(server)); strings.Contains(u.Path+"/", "/arlington/") {
		// A page's address pasted from the browser. Any other path is
		// taken as the server's prefix, as the part of a table's link
		// before /arlington/t/ is.
		return nil, "", flagErr("connect: --server %q is a page's address: want the server's, http://HOST:PORT", server)
	}
	id, err := c.ByCode(ctx, code)
	var api *arlclient.APIError
	switch {
	case errors.As(err, &api) && (api.Status == http.StatusNotFound || api.Status == http.StatusConflict) && api.Message != "":
		return nil, "", fmt.Errorf("connect: %s says: %s", c.Origin(), api.Message)
	case err != nil:
		return nil, "", fmt.Errorf("connect: the code %s: %w", code, serverRefusal(err, serverGiven))
	}
	return c, id, nil
}

// codeShaped: s, spaces and dashes aside, is six letters and digits,
// as a table's code is, though not one.
func codeShaped(s string) bool {
	s = strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(s))
	if len(s) != 6 {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// restoreIdentity gives c the identity the file at path keeps for its
// server, and returns it ("" none; path "": no file).
func restoreIdentity(c *arlclient.Client, path string) (string, error) {
	if path == "" {
		return "", nil
	}
	m, err := loadIdentities(path)
	if err != nil {
		return "", err
	}
	token := m[c.Origin()]
	if token != "" {
		if err := c.SetIdentity(token); err != nil { // parseIdentities checked it
			return "", fmt.Errorf("%w %s: %w", errIdentityFile, path, err)
		}
	}
	return token, nil
}

// keepIdentity saves the identity the server knows c by, once a join has
// shown the server took it (or issued a new one in place of kept). A
// failure is told and play goes on: the seat is taken, and only the next
// run would be a new player.
func keepIdentity(env *Env, c *arlclient.Client, path, kept string) {
	token := c.Identity()
	if path == "" || token == "" || token == kept {
		return
	}
	if err := saveIdentity(path, c.Origin(), kept, token); err != nil {
		notef(env, "your identity at %s is not kept for later runs: %v", c.Origin(), err)
		return
	}
	if kept != "" {
		notef(env, "%s did not accept the identity kept in %s and gave a new one, kept in its place", c.Origin(), path)
	} else {
		notef(env, "your identity at %s is kept in %s, so later runs are the same player (--identity \"\" not to keep it)", c.Origin(), path)
	}
}

// arlSeatPastTable is the error of a --seat past the table's seats, which
// the server refused as a seat it does not have (its words count seats
// from 0, as its API does; docs/cli.md): said counting from 1, as the
// flag does, with the seats the table has. nil for any other refusal.
func arlSeatPastTable(ctx context.Context, c *arlclient.Client, id string, seat int, err error) error {
	var api *arlclient.APIError
	if seat < 1 || !errors.As(err, &api) || api.Status != http.StatusBadRequest || !strings.HasPrefix(api.Message, "no such seat") {
		return nil
	}
	t, terr := c.Table(ctx, id)
	if terr != nil || t.Players < 1 || seat <= t.Players {
		return flagErr("connect: %s: the table has no such seat", flagValue("seat", seat))
	}
	return flagErr("connect: %s: the table has %d seats: want 1 to %d", flagValue("seat", seat), t.Players, t.Players)
}

// arlJoinError says why a seat could not be taken; idFile is where this
// run's identity is kept ("": nowhere).
func arlJoinError(err error, link, idFile string, known bool) error {
	var api *arlclient.APIError
	switch {
	case errors.Is(err, arlclient.ErrNotFound):
		return fmt.Errorf("connect: no table at %s (a mistyped link, or the table has closed)", link)
	case errors.As(err, &api) && api.Status == http.StatusConflict && strings.HasPrefix(api.Message, "display name taken"):
		// The default name (Terminal, or the bot's) may be someone's. A
		// name this person was rated under in an earlier run is taken too
		// when that run's identity was not kept (--identity "", another
		// file, another machine): to the server that was another player.
		why := ""
		if strings.Contains(api.Message, "rated player") {
			switch {
			case idFile == "":
				why = " (this run keeps no identity, so it is a new player and a name rated in an earlier run is taken too; --identity FILE keeps one)"
			case !known:
				why = " (this run is a new player to this server: " + idFile + " held no identity for it, so a name rated in an earlier run is taken too)"
			default:
				why = " (this run's identity is the one kept in " + idFile + "; the name was rated under another: a run with --identity \"\", another file or another machine)"
			}
		}
		return fmt.Errorf("connect: cannot sit at %s: %s with --name%s", link, api.Message, why)
	case errors.As(err, &api) && api.Status == http.StatusConflict:
		return fmt.Errorf("connect: cannot sit at %s: %s", link, api.Message)
	case errors.As(err, &api) && api.Status == http.StatusBadRequest:
		return usageErr("connect: %s", api.Message)
	}
	return fmt.Errorf("connect: %w", err)
}

// arlTimerWords tells a person at the terminal the table's turn timer of
// seconds: at a rated table it runs always, else only while someone
// else is connected (docs/tables.md, "Turn timer").
func arlTimerWords(seconds int, rated bool) string {
	when := "if others are waiting, "
	if rated {
		when = "this game is rated: "
	}
	d := fmt.Sprintf("%d s", seconds)
	if seconds >= 60 {
		d = fmt.Sprintf("%d min", seconds/60)
		if seconds%60 != 0 {
			d += fmt.Sprintf(" %d s", seconds%60)
		}
	}
	return fmt.Sprintf("turn timer: %safter %s the server's stand-in bot plays a turn you have not played.", when, d)
}
