package spidergame

// Play time (docs/api.md, "Play time"): the server counts the time a game
// is played, from its commands. The time between two commands (or between
// the start and the first one) counts in full up to IdleCap; a longer pause
// counts as IdleCap, since the player most likely stepped away. The page
// shows the same count running, and statistics keep the time of each won
// game.

import "time"

// IdleCap is the most a pause between two commands adds to a game's play
// time.
const IdleCap = 2 * time.Minute

// activeGap is what the pause from last to now adds to the play time.
func activeGap(last, now time.Time) time.Duration {
	return min(max(now.Sub(last), 0), IdleCap)
}

// Clock is a game's play time as an answer carries it. The page shows
// Played + min(Since + the time since the answer came, Cap) while Running:
// the time the server would record for a command made at that moment.
type Clock struct {
	// Played is the play time up to the latest command (or the start), in
	// milliseconds.
	Played int64 `json:"played"`
	// Since is how long before the answer that command came, in
	// milliseconds.
	Since int64 `json:"since"`
	// Cap is IdleCap, in milliseconds.
	Cap int64 `json:"cap"`
	// Running: the game is not over (not won, not stuck, not given up
	// for its analysis), so its clock runs until the next pause longer
	// than Cap. A given-up game takes no more commands: its clock stands
	// at its last command, as a won game's stands at the winning move.
	Running bool `json:"running"`
}

// clockOf is e's (locked) clock at now.
func clockOf(e *entry, now time.Time) Clock {
	over, _ := e.g.Outcome()
	return Clock{Played: e.played.Milliseconds(), Since: max(now.Sub(e.last), 0).Milliseconds(),
		Cap: IdleCap.Milliseconds(), Running: !over && !e.gaveUp}
}
