package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

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
	identity := fs.String("identity", "", "keep your player identity for each server in `file`, so later runs are the same player, with the same rating, name and seats (default: cardtable/"+identityFileName+" in your config directory; with --bot, none); --identity \"\" keeps it only for this run")
	return func(ctx context.Context, env *Env, pos []string) error {
		var err error
		switch {
		case len(pos) == 0:
			return usageErr("connect: the table's link is required (http://HOST:PORT/arlington/t/ID)")
		case len(pos) > 1:
			return usageErr("connect: unexpected argument %q", pos[1])
		case *seat < 0 || *seat > arlington.MaxSeats || fs.Changed("seat") && *seat == 0: // 0 given is no seat, not "any"
			return usageErr("connect: --seat must be 1 to %d, not %d", arlington.MaxSeats, *seat)
		}
		c, id, err := arlclient.FromLink(pos[0])
		if err != nil {
			return usageErr("connect: %v", err)
		}
		r := &arlRemote{env: env, client: c, id: id, link: c.Link(id), at: -1, sent: -1, mine: -1}
		seedBase, _ := arlSeed("")
		if *level != "" {
			lv := strings.ToLower(strings.TrimSpace(*level))
			if !arlOfferedLevel(lv) {
				return usageErr("connect: --bot %q: want one of %s", *level, strings.Join(bot.Names, ", "))
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
		idFile := *identity
		if !fs.Changed("identity") && r.bot == nil {
			// A person keeps their identity by default; a bot's run is a
			// program, often one of several started at once, which would
			// otherwise share one seat (docs/arlington-client.md).
			if idFile, err = defaultIdentityPath(); err != nil {
				fmt.Fprintf(env.Stderr, "connect: %v; this run's identity is kept for this run only\n", err)
				idFile = ""
			}
		}
		kept, err := restoreIdentity(c, idFile)
		if err != nil {
			return usageErr("connect: %v", err)
		}
		// The log is opened once the identity is known to be usable, so a
		// refused file does not cost an earlier run's log.
		if *logName != "" {
			f, err := os.Create(*logName)
			if err != nil {
				return usageErr("connect: --log: cannot write %s: %v", *logName, osReason(err))
			}
			defer f.Close()
			r.log = f
		}
		r.seat, err = c.Join(ctx, id, *name, *seat-1) // the wire counts from 0; -1: any seat
		if err != nil {
			return arlJoinError(err, r.link, idFile, kept != "")
		}
		keepIdentity(env, c, idFile, kept)
		return r.run(ctx)
	}
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
		fmt.Fprintf(env.Stderr, "cardtable: connect: your identity at %s is not kept for later runs: %v\n", c.Origin(), err)
		return
	}
	if kept != "" {
		fmt.Fprintf(env.Stderr, "cardtable: connect: %s did not accept the identity kept in %s and gave a new one, kept in its place\n", c.Origin(), path)
	} else {
		fmt.Fprintf(env.Stderr, "cardtable: connect: your identity at %s is kept in %s, so later runs are the same player (--identity \"\" not to keep it)\n", c.Origin(), path)
	}
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

// arlRemote plays one seat of a table on a server.
type arlRemote struct {
	env    *Env
	client *arlclient.Client
	sess   *arlclient.Follower
	id     string
	link   string
	seat   int
	log    io.Writer // every message received, a line each (nil: none)

	bot    bot.Bot // plays the seat; nil: the person at the terminal
	level  string  // the bot's level, as the lobby names it
	helper bot.Bot // plays 'auto'
	hinter bot.Bot // answers 'hint'

	last   *arlclient.Update   // the latest view
	fresh  bool                // last came on the current connection
	events []arlington.Event   // the public log so far, from event 0
	have   int                 // len(events)
	at     int                 // the event count of the latest view
	totals []int               // running totals from the score events seen
	nar    *arlington.Narrator // tells the events in words; nil until the first
	seats  string              // the seats line last shown
	legal  []arlington.Action  // the last 'legal' list
	// sent is the event count at which this seat last sent an action, -1
	// when none is waiting for its answer: no second action goes out on
	// the same position.
	sent int
	// mine is the event count at which this client last sent an action
	// (-1: none): a move of this seat numbered so is its own, any other
	// the stand-in's.
	mine     int
	prompted bool // the table was shown for this position
	asked    bool // the prompt is out, waiting for a line
	lines    <-chan arlLine
	// wait: no action is sent before this time, set when the server
	// refused one for coming too fast (a bot, or a script piped in, would
	// send again at once and be refused again, until the server cut the
	// connection).
	wait time.Time
}

// arlRateWait is how long the client waits after an action was refused for
// coming too fast: a little over the server's time for one more message
// (arlweb.Limits.Every, 200 ms).
const arlRateWait = 250 * time.Millisecond

type arlLine struct {
	text string
	err  error
}

func (r *arlRemote) out(format string, args ...any) { fmt.Fprintf(r.env.Stdout, format, args...) }

func (r *arlRemote) run(ctx context.Context) error {
	who := "you play it from here; type 'help' for commands"
	if r.bot != nil {
		who = "the " + r.level + " bot plays it"
	}
	r.out("Arlington at %s: you are seat %d; %s.\n", r.link, arlSeat(r.seat), who)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.sess = r.client.Open(ctx, r.id, arlclient.FollowOptions{Notef: func(format string, args ...any) {
		fmt.Fprintf(r.env.Stderr, "cardtable: "+format+"\n", args...)
	}})
	defer r.sess.Close()
	if r.bot == nil {
		r.lines = arlReadLines(ctx, r.env.Stdin)
	}
	for {
		var lines <-chan arlLine
		var wake <-chan time.Time
		paused := false
		if d := time.Until(r.wait); d > 0 {
			wake, paused = time.After(d), true
		}
		if r.bot == nil && r.myTurn() && r.sent < 0 && !paused {
			if !r.prompted {
				showView(r.env.Stdout, r.fullView())
				r.prompted = true
			}
			if !r.asked {
				r.out("> ")
				r.asked = true
			}
			lines = r.lines
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m, ok := <-r.sess.Messages():
			if !ok {
				return fmt.Errorf("connect: %w", r.sess.Err())
			}
			done, err := r.handle(m)
			if err != nil || done {
				return err
			}
		case l := <-lines:
			r.asked = false
			stop, err := r.line(ctx, l)
			if err != nil || stop {
				return err
			}
		case <-wake:
		}
		if r.bot != nil && r.myTurn() && r.sent < 0 && !time.Now().Before(r.wait) {
			if err := r.botAct(ctx); err != nil {
				return err
			}
		}
	}
}

// arlReadLines reads standard input a line at a time for the terminal
// player. Its goroutine exits at the end of the input or a read error
// (sent last), or when ctx ends while a line waits to be taken; a read
// that blocks on a terminal lasts until the process ends.
func arlReadLines(ctx context.Context, in io.Reader) <-chan arlLine {
	ch := make(chan arlLine)
	go func() {
		lr := newLineReader(in)
		for {
			text, err := lr.next()
			select {
			case ch <- arlLine{text, err}:
			case <-ctx.Done():
				return
			}
			var long *longLineError
			if err != nil && !errors.As(err, &long) {
				return
			}
		}
	}()
	return ch
}

// myTurn reports whether the latest view, from the current connection,
// has this seat to act.
func (r *arlRemote) myTurn() bool {
	return r.fresh && r.last != nil && r.last.View != nil && r.last.Seat >= 0 &&
		r.last.View.ToMove == r.last.Seat && !r.last.Over()
}

// fullView is the latest view with the whole event log.
func (r *arlRemote) fullView() arlington.View {
	v := *r.last.View
	v.Events, v.EventsFrom = r.events, 0
	return v
}

// handle takes one message; done is set at the game's end.
func (r *arlRemote) handle(m arlclient.Message) (done bool, err error) {
	if m.Raw != nil && r.log != nil {
		if _, err := fmt.Fprintf(r.log, "%s\n", m.Raw); err != nil {
			return false, fmt.Errorf("connect: --log: %w", err)
		}
	}
	switch {
	case m.Type == arlclient.TypeConnected:
		// Until the first view on this connection the last one may be
		// stale, and an action sent on the lost one may never have
		// arrived: act again only on what the new one shows.
		r.fresh, r.sent = false, -1
	case m.Err != nil:
		if m.Err.Rule != "" {
			r.out("refused, rule %q: %s\n", m.Err.Rule, arlReason(m.Err))
		} else {
			r.out("refused: %s\n", arlReason(m.Err))
		}
		if m.Err.Class == "too_many" {
			r.wait = time.Now().Add(arlRateWait)
		}
		r.sent = -1
	case m.Update != nil:
		return r.update(m.Update)
	}
	return false, nil
}

// update shows what changed and reports the game's end.
func (r *arlRemote) update(u *arlclient.Update) (bool, error) {
	if u.Seat < 0 {
		return false, fmt.Errorf("connect: the table no longer seats this player (%s)", r.link)
	}
	r.last, r.fresh = u, true
	for _, c := range u.Chat {
		r.out("%s\n", chatLine(c))
	}
	if s := arlSeatsLine(u.Seats); s != r.seats && u.View == nil {
		r.seats = s
		r.out("waiting for every seat to be taken: %s\n", s)
	}
	if u.View == nil {
		return false, nil
	}
	v := u.View
	if v.EventsFrom > r.have {
		// The follower asked again from what it has; this view is current
		// all the same, and the missing events follow.
		r.out("(events %d to %d missed; asking again)\n", r.have, v.EventsFrom-1)
	} else {
		for _, e := range v.Events {
			if e.N < r.have {
				continue
			}
			r.events = append(r.events, e)
			r.have++
			r.show(u, e)
		}
	}
	if v.EventCount != r.at {
		// The game moved on: a new prompt, a new numbered list, and the
		// answer to an action sent has come.
		r.at, r.prompted, r.legal, r.sent, r.asked = v.EventCount, false, nil, -1, false
	}
	if u.Over() {
		r.out("game over after %s. totals: %s\n", plural(v.HandNumber, "hand"), arlInts(v.Totals))
		names := make([]string, len(u.Seats))
		for i := range names {
			names[i] = arlSeatName(u.Seats, i)
		}
		r.out("%s\n", arlWinners(v.Winners, v.Totals, names, r.seat))
		return true, nil
	}
	return false, nil
}

// show prints one public event in the words of the table page's log and
// of `arlington play` (arlington.Narrator), which follows the game from
// its first event (events arrive in order, from 0). A move of this seat
// that this client did not send is marked: the server's stand-in bot
// played it while the seat was away or its turn timer ran out. A scored
// hand is followed by the totals.
func (r *arlRemote) show(u *arlclient.Update, e arlington.Event) {
	names := r.seatNames(u.Seats)
	if r.nar == nil {
		r.nar = arlington.NewNarrator(names)
	}
	r.nar.SetNames(names)
	mark := ""
	if e.Kind == arlington.EventMove && e.Seat == r.seat && e.N != r.mine {
		mark = "stand-in: "
	}
	r.out("%s%s\n", mark, r.nar.Tell(e))
	if e.Kind == arlington.EventScore {
		if r.totals == nil {
			r.totals = make([]int, len(e.Scores))
		}
		for i, s := range e.Scores {
			if i < len(r.totals) {
				r.totals[i] += s
			}
		}
		r.out("totals after hand %d: %s\n", e.Hand, arlInts(r.totals))
	}
}

// seatNames are the seats as the narration names them: numbered from 1,
// as the commands number them, with "you", the person's name or the
// bot's level.
func (r *arlRemote) seatNames(seats []arlclient.Seat) []string {
	names := make([]string, len(seats))
	for i := range seats {
		if i == r.seat {
			names[i] = fmt.Sprintf("seat %d (you)", arlSeat(i))
		} else {
			names[i] = fmt.Sprintf("seat %d (%s)", arlSeat(i), arlSeatName(seats, i))
		}
	}
	return names
}

// arlSeatName is how a seat is named in the play by play.
func arlSeatName(seats []arlclient.Seat, i int) string {
	if i < 0 || i >= len(seats) {
		return "?"
	}
	s := seats[i]
	switch {
	case s.Bot != "":
		return s.Bot
	case s.Away:
		return s.Name + ", away: stand-in"
	}
	return s.Name
}

func arlSeatsLine(seats []arlclient.Seat) string {
	parts := make([]string, len(seats))
	for i, s := range seats {
		switch {
		case s.Bot != "":
			parts[i] = fmt.Sprintf("%d %s bot", arlSeat(i), s.Bot)
		case s.Open:
			parts[i] = fmt.Sprintf("%d open", arlSeat(i))
		default:
			parts[i] = fmt.Sprintf("%d %s", arlSeat(i), s.Name)
		}
	}
	return strings.Join(parts, ", ")
}

// botAct has the seat's bot choose and sends its choice.
func (r *arlRemote) botAct(ctx context.Context) error {
	a, err := r.bot.Act(ctx, r.fullView())
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("connect: the %s bot: %w", r.level, err)
	}
	return r.act(ctx, a)
}

// act sends a for this seat; the answer (a view or a refusal) comes as a
// message.
func (r *arlRemote) act(ctx context.Context, a arlington.Action) error {
	err := r.sess.Act(ctx, a.String())
	switch {
	case err == nil:
		r.sent = r.last.View.EventCount
		r.mine = r.sent
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		// The connection is going; the follower reconnects and the next
		// view says whether it is still this seat's turn.
		r.fresh = false
	}
	return nil
}

// chatLine is one chat line as the terminal shows it. A spectator's line
// says so: a spectator's name is not checked, so it must not pass for a
// seated player's.
func chatLine(c arlclient.ChatLine) string {
	if c.Seat < 0 {
		return fmt.Sprintf("chat %s (watching): %s", c.Name, c.Text)
	}
	return fmt.Sprintf("chat %s: %s", c.Name, c.Text)
}
