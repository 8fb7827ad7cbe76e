package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"cardtable/arlington"
	"cardtable/arlington/bot"
	"cardtable/internal/arlclient"
)

// The loop of `arlington connect` once seated: it follows the table,
// takes its messages and sends the seat's actions (the person's commands
// are in arlington_connect_cmds.go, the words shown in
// arlington_remote_show.go).

// arlRemote plays one seat of a table on a server.
type arlRemote struct {
	env    *Env
	client *arlclient.Client
	sess   *arlclient.Follower
	id     string
	link   string
	seat   int
	log    io.Writer // every message received, a line each (nil: none)
	timer  string    // the turn timer in words, told at the start ("": none, or a bot plays)

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
	mine int
	// joined is the event count of the first view of this run (-1
	// before it): the events before it are the game so far, told on
	// joining, whose moves of this seat may be the person's own from an
	// earlier run or the stand-in's; nothing tells which.
	joined int
	// acted is the action last sent, so that a refusal of a set whose
	// cards are no set can say why, as terminal play does.
	acted    arlington.Action
	prompted bool // the table was shown for this position
	// asked: the prompt is out, waiting for a line. Anything printed
	// meanwhile (a chat line, a refusal, a note of a lost connection)
	// starts a line of its own and takes the prompt back, so that it is
	// printed again below what came. A new connection takes it back too.
	// mu guards it and the prompt's printing: the follower's notes come
	// from its own goroutine.
	mu    sync.Mutex
	asked bool
	// prompts: standard input is a terminal, so a person reads the "> "
	// prompt; a script piped in gets none in its output.
	prompts bool
	// held: a chat line was sent and its echo has not come: the prompt
	// waits for it, else it was printed and at once pushed up by the echo,
	// a bare "> " line above it.
	held  bool
	lines <-chan arlLine
	// wait: no action is sent before this time, set when the server
	// refused one for coming too fast (a bot, or a script piped in, would
	// send again at once and be refused again, until the server cut the
	// connection).
	wait time.Time
	// storeWait is the bot's wait after its last action refused because
	// the server's storage failed (0: none refused since the game last
	// moved on); storeTold: that failure was said.
	storeWait time.Duration
	storeTold bool
}

// arlRateWait is how long the client waits after an action was refused for
// coming too fast: a little over the server's time for one more message
// (arlweb.Limits.Every, 200 ms). The follower paces the messages to the
// allowance the server tells (arlclient's pacer), so this is the fallback
// for a server that does not tell it.
const arlRateWait = 250 * time.Millisecond

// arlStoreWait is the bot's first wait after an action refused because
// the server's storage failed ("unavailable"); each refusal in a row
// doubles it, up to arlStoreWaitMax, and the game moving on starts it
// again. Without it a bot would send its action again as fast as the
// pacing allows, for as long as the database is out of reach. Variables
// so that a test can shorten them.
var (
	arlStoreWait    = time.Second
	arlStoreWaitMax = 15 * time.Second
)

type arlLine struct {
	text string
	err  error
}

// out prints to standard output, below the prompt if it is out.
func (r *arlRemote) out(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endPrompt()
	fmt.Fprintf(r.env.Stdout, format, args...)
}

// note is notef below the prompt if it is out: the note (standard error)
// starts a line of its own rather than following the "> ".
func (r *arlRemote) note(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endPrompt()
	notef(r.env, format, args...)
}

// endPrompt ends the prompt's line on standard output, if the prompt is
// out, before another line is printed, and takes the prompt back: it is
// printed again once the player may type. A line the player had half
// typed is still theirs to finish: the terminal keeps it. r.mu is held.
func (r *arlRemote) endPrompt() {
	if r.asked {
		r.asked = false
		fmt.Fprintln(r.env.Stdout)
	}
}

// prompt prints "> " if the prompt is not out already and a person reads
// it.
func (r *arlRemote) prompt() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.asked && r.prompts {
		fmt.Fprint(r.env.Stdout, "> ")
		r.asked = true
	}
}

// showView prints the table as this seat sees it.
func (r *arlRemote) showView() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endPrompt()
	showView(r.env.Stdout, r.fullView())
}

// unprompt takes the prompt back without printing: a line typed at it
// ended its line on the screen.
func (r *arlRemote) unprompt() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = false
}

func (r *arlRemote) run(ctx context.Context) error {
	who := "you play it from here; type 'help' for commands"
	if r.bot != nil {
		who = "the " + r.level + " bot plays it"
	}
	r.out("Arlington at %s: you are seat %d; %s.\n", r.link, arlSeat(r.seat), who)
	if r.timer != "" {
		r.out("%s\n", r.timer)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.sess = r.client.Open(ctx, r.id, arlclient.FollowOptions{Notef: r.note})
	defer r.sess.Close()
	if r.bot == nil {
		r.lines = arlReadLines(ctx, r.env.Stdin)
	}
	for {
		var wake <-chan time.Time
		paused := false
		if d := time.Until(r.wait); d > 0 {
			wake, paused = time.After(d), true
		}
		lines, typed := r.awaitLine(paused)
		if typed != nil {
			r.unprompt()
			stop, err := r.line(ctx, *typed)
			if err != nil || stop {
				return err
			}
			continue
		}
		select {
		case <-ctx.Done():
			r.leaveUnstarted(ctx)
			return ctx.Err()
		case m, ok := <-r.sess.Messages():
			if !ok {
				if ctx.Err() != nil {
					// Ctrl+C closes the messages too; either case may
					// be chosen, and both must leave an unstarted seat.
					r.leaveUnstarted(ctx)
					return ctx.Err()
				}
				return fmt.Errorf("connect: %w", r.sess.Err())
			}
			done, err := r.handle(m)
			if err != nil {
				return err
			}
			if done {
				return r.leaveOver(ctx)
			}
		case l := <-lines:
			r.unprompt()
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

// awaitLine readies the person's turn: lines is where their next line
// comes from (nil when it is not their turn to type), typed a line typed
// before the turn came.
func (r *arlRemote) awaitLine(paused bool) (lines <-chan arlLine, typed *arlLine) {
	if r.bot != nil || !r.myTurn() || r.sent >= 0 || paused {
		return nil, nil
	}
	if !r.prompted {
		r.showView()
		r.prompted = true
	}
	select {
	case l := <-r.lines:
		// Typed before the turn came: answered at once, with no prompt
		// printed before it (it read "> > ").
		return r.lines, &l
	default:
		if !r.held {
			r.prompt()
		}
	}
	return r.lines, nil
}

// leaveUnstarted gives up the seat of a game that has not started, as the
// program ends on an interrupt: else the game would start with this
// player absent, and at a table without a turn timer the others would
// wait for ever. A game in play keeps the seat (docs/arlington-client.md,
// "Ctrl-C"). The leave has a few seconds of its own, ctx being over.
func (r *arlRemote) leaveUnstarted(ctx context.Context) {
	if r.last != nil && r.last.View != nil {
		return
	}
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), arlLeaveWait)
	defer cancel()
	left, err := r.client.Leave(lctx, r.id)
	if err != nil {
		r.note("leaving the table before the game started failed (%v): the seat may stay yours until you leave it", err)
		return
	}
	r.out("%s\n", arlLeftWords(left, r.seat))
}

// arlLeaveWait bounds the leave on an interrupt: the person asked the
// program to stop.
const arlLeaveWait = 5 * time.Second

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
	// Whatever the server says, the chat line's echo or not, the prompt
	// waits no longer.
	r.held = false
	if m.Raw != nil && r.log != nil {
		if _, err := fmt.Fprintf(r.log, "%s\n", m.Raw); err != nil {
			return false, fmt.Errorf("connect: --log: %w", err)
		}
	}
	switch {
	case m.Type == arlclient.TypeConnected:
		// Until the first view on this connection the last one may be
		// stale, and an action sent on the lost one may never have
		// arrived: act again only on what the new one shows. The prompt
		// is asked again then, below the notes of the loss.
		r.fresh, r.sent = false, -1
		r.unprompt()
	case m.Err != nil:
		r.sent = -1
		if m.Err.Class == "unavailable" && r.bot != nil {
			r.storeFailed(m.Err)
			return false, nil
		}
		if m.Err.Rule != "" {
			r.out("refused, rule %q: %s\n", m.Err.Rule, arlReason(m.Err))
			if why := arlSetWhy(r.acted); why != "" && m.Err.Rule == "Sets" {
				r.out("why: %s\n", why)
			}
		} else {
			r.out("refused: %s\n", arlReason(m.Err))
		}
		if m.Err.Class == "too_many" {
			r.wait = time.Now().Add(arlRateWait)
		}
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
	if r.joined < 0 {
		r.joined = v.EventCount
	}
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
		r.movedOn(v.EventCount)
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

// movedOn starts the position after the game moved on to count events:
// a new prompt, a new numbered list, and the answer to an action sent
// has come.
func (r *arlRemote) movedOn(count int) {
	r.at, r.prompted, r.legal, r.sent = count, false, nil, -1
	r.takePrompt()
	r.storeWait, r.storeTold = 0, false // the table stores again
}

// takePrompt ends the prompt's line, if it is out, without printing
// more: the next position prompts again. It holds r.mu for that alone,
// as the follower's notes read and end the prompt too (from their own
// goroutine).
func (r *arlRemote) takePrompt() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endPrompt()
}

// leaveOver leaves the finished table as the program ends (decision,
// docs/arlington-client.md): nobody is left at it to take a seat a
// rematch would hold, so the rematch holds none and its seat is open to
// anyone. A table already gone (closed, or taken over by another server
// that no longer has it) has nothing to leave. Any other failure (too
// many requests, the server unreachable) is a warning, not a failing
// exit: the game finished and was recorded either way.
func (r *arlRemote) leaveOver(ctx context.Context) error {
	_, err := r.client.Leave(ctx, r.id)
	switch {
	case err == nil:
		r.out("left the table: a rematch of this game holds no seat for you (to play again, join the rematch or a new table)\n")
	case errors.Is(err, arlclient.ErrNotFound):
	default:
		r.note("warning: the game is over, but leaving the table failed (%v): a rematch of it may hold a seat for you until its timer gives it up", err)
	}
	return nil
}

// storeFailed holds the bot's next action back after the server refused
// one because its storage failed (the table changed nothing): for
// arlStoreWait, doubling on each refusal in a row up to arlStoreWaitMax.
// The failure is said once, not at every try; a person at the terminal
// reads the refusal and tries again when they choose.
func (r *arlRemote) storeFailed(e *arlclient.ServerError) {
	r.storeWait = min(max(2*r.storeWait, arlStoreWait), arlStoreWaitMax)
	r.wait = time.Now().Add(r.storeWait)
	if !r.storeTold {
		r.storeTold = true
		r.out("refused: %s\n", arlReason(e))
		r.out("the server's storage is failing: the bot tries again in %v, then less often (up to every %v) until it works\n",
			r.storeWait, arlStoreWaitMax)
	}
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
		r.acted = a
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		// The connection is going; the follower reconnects and the next
		// view says whether it is still this seat's turn.
		r.fresh = false
	}
	return nil
}
