package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"cardtable/internal/rating"
)

// Ratings (docs/tables.md, "Ratings"): every person, by identity, and
// every bot level has a Weng-Lin rating (internal/rating). A rated
// table's end updates the ratings of everyone at it once, in the store's
// transaction that marks the table over, so no restart counts a game
// twice or loses one.

// Rating limits.
const (
	// MinRankedGames is how many rated games an entrant needs to be on
	// the leaderboard (Hub.Leaderboard).
	MinRankedGames = 5
	// LeaderboardSize bounds the leaderboard.
	LeaderboardSize = 100
)

// Rating is one entrant's rating as the store keeps it.
type Rating struct {
	// Key is "p:" and a person's identity, or "bot:" and a bot level.
	Key string
	// Name is the person's display name at their latest rated game (made
	// unique among people by the store: UniqueName), or the bot's level.
	Name  string
	Bot   bool
	Mu    float64
	Sigma float64
	Games int // rated games finished
}

// RatedEnd is what a rated game's end does to the ratings.
type RatedEnd struct {
	Keys []string // the entrants, each once
	// Update is the entrants' ratings after the game, in Keys' order,
	// from those stored (in any order; an entrant with none, or with 0
	// Games, starts afresh). It has no effects: a store may call it again
	// when it tries its transaction again. On its error the store changes
	// nothing and returns it.
	Update func(stored []Rating) ([]Rating, error)
}

// Rater keeps ratings; both stores have it. With a Store that is not a
// Rater every table plays casual.
type Rater interface {
	// FinishRated marks table id over, as FinishTable does, and in the
	// same transaction stores end.Update's ratings: only if the table was
	// open, so that a game's end is counted once.
	FinishRated(ctx context.Context, id string, at time.Time, end RatedEnd) error
	// Ratings is the stored ratings among keys, in any order. Only the
	// tables read it (a table starting, a seat taken): a store keeping a
	// share of its connections for the live tables reads it there.
	Ratings(ctx context.Context, keys []string) ([]Rating, error)
	// TopRatings is at most limit ratings with at least minGames games,
	// the highest rating.Ordinal (mu - 3 sigma) first.
	TopRatings(ctx context.Context, minGames, limit int) ([]Rating, error)
	// NameTaken reports whether a person other than key is rated under a
	// name that folds (FoldName) to folded.
	NameTaken(ctx context.Context, folded, key string) (bool, error)
}

// Ranked is an entrant as the leaderboard shows it: never an identity.
type Ranked struct {
	Name   string `json:"name"`
	Rating int    `json:"rating"` // rating.Shown
	Games  int    `json:"games"`
	Bot    bool   `json:"bot"`
}

func personKey(id string) string { return "p:" + id }
func botKey(level string) string { return "bot:" + level }

// start is an entrant's rating before their first rated game.
func start(r Rating) rating.Rating {
	if r.Bot {
		return rating.Bot(r.Name)
	}
	return rating.Default().New()
}

// Leaderboard is the entrants with at least MinRankedGames rated games,
// the highest rating first, at most LeaderboardSize; empty when the store
// keeps no ratings.
func (h *Hub) Leaderboard(ctx context.Context) ([]Ranked, error) {
	r, ok := h.o.Store.(Rater)
	if !ok {
		return []Ranked{}, nil
	}
	top, err := r.TopRatings(ctx, MinRankedGames, LeaderboardSize)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStore, err)
	}
	out := make([]Ranked, len(top))
	for i, t := range top {
		out[i] = Ranked{Name: t.Name, Rating: rating.Shown(rating.Rating{Mu: t.Mu, Sigma: t.Sigma}),
			Games: t.Games, Bot: t.Bot}
	}
	return out, nil
}

// seatKey is seat i's entrant: its bot level or its person.
func (l *loop) seatKey(i int) Rating {
	s := l.seats[i]
	if s.bot != "" {
		return Rating{Key: botKey(s.bot), Name: s.bot, Bot: true}
	}
	return Rating{Key: personKey(s.player), Name: s.name}
}

// loadRatings looks up the shown rating of every taken seat (or of seat
// only, if seat >= 0), for the lobby: a bot level not rated yet shows its
// starting rating, a person not rated yet none. A store error leaves the
// ratings unshown.
func (l *loop) loadRatings(seat int) {
	r, ok := l.h.o.Store.(Rater)
	if !ok {
		return
	}
	want := map[string]Rating{}
	for i, s := range l.seats {
		if (seat >= 0 && i != seat) || (s.bot == "" && s.player == "") {
			continue
		}
		k := l.seatKey(i)
		want[k.Key] = k
	}
	if len(want) == 0 {
		return
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	ctx, cancel := context.WithTimeout(l.ctx, storeTimeout)
	defer cancel()
	stored, err := r.Ratings(ctx, keys)
	if err != nil {
		l.h.o.Logf("table %s: reading ratings: %v", l.t.id, err)
		return
	}
	shown := map[string]int{}
	for k, e := range want {
		if e.Bot {
			shown[k] = rating.Shown(start(e))
		}
	}
	for _, s := range stored {
		shown[s.Key] = rating.Shown(rating.Rating{Mu: s.Mu, Sigma: s.Sigma})
	}
	l.showRatings(shown)
}

// showRatings sets each taken seat's shown rating from shown, by key.
func (l *loop) showRatings(shown map[string]int) {
	for i, s := range l.seats {
		if s.bot == "" && s.player == "" {
			continue
		}
		if v, ok := shown[l.seatKey(i).Key]; ok {
			l.seats[i].rating = v
			l.dirty = true
		}
	}
}

// ratedEnd is the ratings' update for this game's end: each seat plays as
// one player, placed by its final total; an entrant at several seats (a
// bot level) takes the mean of its seats' new ratings, and counts one
// game.
func (l *loop) ratedEnd() RatedEnd {
	ranks := rating.Ranks(l.st.Totals())
	var keys []string
	seatKeys := make([]string, len(l.seats)) // Update may run on the store's goroutine: no loop state in it
	seatsOf := map[string][]int{}
	entrant := map[string]Rating{}
	for i := range l.seats {
		k := l.seatKey(i)
		seatKeys[i] = k.Key
		if _, ok := seatsOf[k.Key]; !ok {
			keys = append(keys, k.Key)
			entrant[k.Key] = k
		}
		seatsOf[k.Key] = append(seatsOf[k.Key], i)
	}
	update := func(stored []Rating) ([]Rating, error) {
		games := map[string]int{}
		cur := map[string]rating.Rating{}
		for _, k := range keys {
			cur[k] = start(entrant[k])
		}
		for _, o := range stored {
			if _, ok := cur[o.Key]; ok && o.Games > 0 && o.Sigma > 0 {
				cur[o.Key] = rating.Rating{Mu: o.Mu, Sigma: o.Sigma}
				games[o.Key] = o.Games
			}
		}
		teams := make([][]rating.Rating, len(seatKeys))
		for i, k := range seatKeys {
			teams[i] = []rating.Rating{cur[k]}
		}
		after, err := rating.Default().Rate(teams, ranks)
		if err != nil {
			return nil, err
		}
		out := make([]Rating, len(keys))
		for i, k := range keys {
			var mu, sigma float64
			for _, s := range seatsOf[k] {
				mu += after[s][0].Mu
				sigma += after[s][0].Sigma
			}
			n := float64(len(seatsOf[k]))
			e := entrant[k]
			out[i] = Rating{Key: k, Name: e.Name, Bot: e.Bot, Mu: mu / n, Sigma: sigma / n, Games: games[k] + 1}
		}
		return out, nil
	}
	return RatedEnd{Keys: keys, Update: update}
}

// finishRated marks a rated table over and updates the ratings; it
// reports whether it could (the store rates), and then the error. A
// result the ratings cannot take (rating.ErrRanks) is logged and the
// game ends unrated: trying again would fail the same way, and the table
// would stay open, replayed at every restart.
func (l *loop) finishRated(ctx context.Context, at time.Time) (bool, error) {
	r, ok := l.h.o.Store.(Rater)
	if !ok || !l.cfg.Rated {
		return false, nil
	}
	end := l.ratedEnd()
	var before, after []Rating
	update := end.Update
	end.Update = func(old []Rating) ([]Rating, error) {
		var err error
		before = old
		after, err = update(old)
		return after, err
	}
	if err := r.FinishRated(ctx, l.t.id, at, end); errors.Is(err, rating.ErrRanks) {
		l.h.o.Logf("table %s: not rated: %v", l.t.id, err)
		return false, nil
	} else if err != nil {
		return true, err
	}
	if after != nil { // nil: the game was counted before a restart
		shown := map[string]int{}
		for _, a := range after {
			shown[a.Key] = rating.Shown(rating.Rating{Mu: a.Mu, Sigma: a.Sigma})
		}
		l.showRatings(shown)
		l.showChanges(before, shown)
	}
	return true, nil
}

// showChanges sets each seat's rating change from this game's rated
// end: its new shown rating less the one it had in the store as this
// game was rated (before), so no other table's end in between counts. A
// bot level not rated before moved from its starting rating; a person's
// first rated game had no rating, so no change.
func (l *loop) showChanges(before []Rating, shown map[string]int) {
	was := map[string]int{}
	for _, o := range before {
		if o.Games > 0 && o.Sigma > 0 { // as ratedEnd's update reads them
			was[o.Key] = rating.Shown(rating.Rating{Mu: o.Mu, Sigma: o.Sigma})
		}
	}
	for i := range l.seats {
		k := l.seatKey(i)
		now, ok := shown[k.Key]
		if !ok {
			continue
		}
		old, ok := was[k.Key]
		if !ok && k.Bot {
			old, ok = rating.Shown(start(k)), true
		}
		if ok {
			l.seats[i].ratingChange = now - old
			l.dirty = true
		}
	}
}

// playsOut is called when a table nobody is connected to would close
// idle. A rated game still on is played to its end instead, every
// person's seat by the stand-in, and rated then: leaving must not spare
// a losing player their rating. It reports whether it does so.
func (l *loop) playsOut() bool {
	if _, ok := l.h.o.Store.(Rater); !ok || !l.cfg.Rated || !l.started() || l.st.Terminal() {
		return false
	}
	for i := range l.seats {
		if l.seats[i].bot == "" {
			l.seats[i].away = true
		}
	}
	l.playingOut, l.dirty = true, true
	return true
}

// checkRated refuses, at a table's creation, a rated table with no seat
// for a person (bots playing bots would move the bot levels' ratings,
// against which people are rated, with nobody playing) or with the turn
// timer off (a losing person could hold the game unfinished, and so
// unrated, for ever). Only at creation: a table stored so before still
// restores.
func (c Config) checkRated() error {
	switch {
	case !c.Rated:
		return nil
	case !slices.Contains(c.Bots, ""):
		return fmt.Errorf("%w: a rated table needs a seat for a person", ErrBadConfig)
	case c.TurnSeconds < 0:
		return fmt.Errorf("%w: a rated table needs a turn timer", ErrBadConfig)
	}
	return nil
}
