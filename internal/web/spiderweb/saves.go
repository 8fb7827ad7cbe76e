package spiderweb

// The things a player keeps besides games in play: named saves,
// statistics and settings.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"cardtable/internal/spidergame"
	"cardtable/internal/web"
	"cardtable/spider"

	"golang.org/x/text/unicode/norm"
)

type saveSummary struct {
	Name    string    `json:"name"`
	Updated time.Time `json:"updated"`
	Deal    string    `json:"deal"` // "" for a custom position
	Variant string    `json:"variant"`
	Suits   int       `json:"suits"`
	Moves   int       `json:"moves"`
	Score   int       `json:"score"`
	// GaveUp: the save's game was given up for its analysis; a game
	// opened from it plays, but its win does not count.
	GaveUp bool `json:"gaveUp,omitempty"`
	// Damaged: the save's stored row cannot be read (it was damaged on
	// the server); it cannot be opened, only deleted. Its deal is "".
	Damaged bool `json:"damaged,omitempty"`
	// SameGame: asked with ?game=ID, the save holds that game (its
	// lineage: the game itself, or a game opened from one of its saves),
	// so saving the game over it only keeps its progress.
	SameGame bool `json:"sameGame,omitempty"`
}

func summarize(s spidergame.Save) saveSummary {
	out := saveSummary{Name: s.Name, Updated: s.Updated, Variant: s.Variant, Suits: s.Suits,
		Moves: s.Moves, Score: s.Score, GaveUp: s.GaveUp, Damaged: s.Damaged}
	if s.Deal != 0 {
		out.Deal = strconv.FormatUint(s.Deal, 10)
	}
	return out
}

func (s *Handlers) listSaves(w http.ResponseWriter, r *http.Request) error {
	lineage := ""
	if id := r.URL.Query().Get("game"); id != "" {
		l, err := s.games.Lineage(r.Context(), web.Player(r), id)
		if err != nil {
			return err
		}
		lineage = l
	}
	list, err := s.db.Saves(r.Context(), web.Player(r))
	if err != nil {
		return err
	}
	out := struct {
		Saves []saveSummary `json:"saves"`
	}{[]saveSummary{}}
	for _, sv := range list {
		if sv.Damaged && s.damaged.first(damagedKey("listed", sv.Player, sv.Name)) {
			s.log.WarnContext(r.Context(), "spider: a saved game's stored row is damaged; listed for its player to delete",
				"player", sv.Player, "save", sv.Name)
		}
		sum := summarize(sv)
		sum.SameGame = lineage != "" && !sv.Damaged && sv.Lineage == lineage
		out.Saves = append(out.Saves, sum)
	}
	web.WriteJSON(w, http.StatusOK, out)
	return nil
}

// saveName checks a save's name: 1 to maxSaveName characters of printable
// UTF-8, not only spaces. Opening and deleting take it as it is, so that
// a save stored before names had to be NFC is still reached
// (newSaveName).
func saveName(r *http.Request) (string, error) {
	name := r.PathValue("name")
	if !utf8.ValidString(name) {
		// Bytes no text has (a %FF in the path): said as such, not as
		// a length.
		return "", badRequest("a save's name must be UTF-8 text; this one holds bytes that are not")
	}
	if strings.TrimSpace(name) == "" || utf8.RuneCountInString(name) > maxSaveName {
		return "", badRequest("a save's name is 1 to %d characters", maxSaveName)
	}
	for _, c := range name {
		if !unicode.IsPrint(c) {
			return "", badRequest("a save's name cannot hold control characters")
		}
	}
	return name, nil
}

// newSaveName is saveName for a save to be written: its name must also be
// in Unicode's composed form (NFC), so that a name that looks the same
// (café with é as one character, or as e and an accent) is one save, not
// two. Refused, not normalised: the name the player asked for is the one
// listed and opened (docs/api.md, "Named saved games"); the page sends
// NFC. A save of that exact name stored before the rule may be saved
// over: refusing it would leave its player no way to keep it going.
func (s *Handlers) newSaveName(r *http.Request) (string, error) {
	name, err := saveName(r)
	if err != nil {
		return "", err
	}
	if norm.NFC.IsNormalString(name) {
		return name, s.noTwin(r, name)
	}
	_, err = s.db.Save(r.Context(), web.Player(r), name)
	switch {
	case err == nil, errors.Is(err, spidergame.ErrUnreadable):
		return name, nil // it exists: damaged or not, it is saved over
	case errors.Is(err, spidergame.ErrNotFound):
		return "", badRequest("a save's name must be in Unicode's composed form (NFC): an accented letter as one character, not a letter and a combining accent")
	}
	return "", err
}

// noTwin refuses a composed name when a save stored before the rule has
// the same name written another way (e and a combining accent): saving
// beside it would make a second save that looks the same. The page saves
// over the listed one instead (after asking); another client is told.
func (s *Handlers) noTwin(r *http.Request, name string) error {
	list, err := s.db.Saves(r.Context(), web.Player(r))
	if err != nil {
		return err
	}
	for _, sv := range list {
		if sv.Name == name {
			return nil // the name is there as given: saved over
		}
	}
	for _, sv := range list {
		if norm.NFC.String(sv.Name) == name {
			return fmt.Errorf("%w: a save named %q is there already, written another way (a letter and a combining accent): save under that name to replace it, or choose another", web.ErrConflict, sv.Name)
		}
	}
	return nil
}

type putSaveRequest struct {
	Game string `json:"game"`
}

func (s *Handlers) putSave(w http.ResponseWriter, r *http.Request) error {
	name, err := s.newSaveName(r)
	if err != nil {
		return err
	}
	var req putSaveRequest
	if err := decodeJSON(w, r, &req, false); err != nil {
		return err
	}
	if req.Game == "" {
		return badRequest(`want {"game": ID}`)
	}
	rec, err := s.games.Saved(r.Context(), web.Player(r), req.Game)
	if err != nil {
		return err
	}
	// Milliseconds, as the store keeps it and the list gives it back.
	rec.Name, rec.Updated = name, time.UnixMilli(s.now().UnixMilli()).UTC()
	if err := s.opts.DailyBytes.Charge(r, int64(len(rec.Save)), s.now()); err != nil {
		return err
	}
	if err := s.db.PutSave(r.Context(), rec); err != nil {
		return err
	}
	s.forgetDamaged(web.Player(r), name) // a new save: logged if damaged in turn
	// The lineage's given-up mark, which the game alone does not know.
	// The save is stored: if the read fails, the answer goes without it.
	if gaveUp, err := s.db.LineageGivenUp(r.Context(), rec.Player, rec.Lineage); err == nil {
		rec.GaveUp = gaveUp
	}
	web.WriteJSON(w, http.StatusOK, summarize(rec))
	return nil
}

func (s *Handlers) openSave(w http.ResponseWriter, r *http.Request) error {
	rec, g, err := s.loadSave(r)
	if err != nil {
		return err
	}
	msg := ""
	if rec.GaveUp {
		msg = givenUpSave
	}
	return s.start(w, r, g, rec.Lineage, msg, rec.Played, false)
}

// givenUpSave is the message of a game opened from a save whose lineage
// was given up for its analysis (docs/analysis.md "The web route").
const givenUpSave = "this game was given up for its analysis, which showed its hidden cards: it stays lost in the statistics, and a win from this save does not count"

// loadSave reads the requester's save named in the path, as a game
// (counted as loaded for Spider's scoring).
func (s *Handlers) loadSave(r *http.Request) (spidergame.Save, *spider.Game, error) {
	name, err := saveName(r)
	if err != nil {
		return spidergame.Save{}, nil, err
	}
	rec, err := s.db.Save(r.Context(), web.Player(r), name)
	if errors.Is(err, spidergame.ErrUnreadable) {
		return rec, nil, s.damagedSave(r, name, err)
	}
	if err != nil {
		return rec, nil, err
	}
	g, err := spider.Load(rec.Save)
	if err != nil {
		return rec, nil, s.damagedSave(r, name, err)
	}
	g.MarkLoaded()
	return rec, g, nil
}

// damagedSave is the answer to opening save name whose stored row or text
// cannot be read (err, logged for the operator the first time): the
// player is told it is damaged and can be deleted, without the stored
// text.
func (s *Handlers) damagedSave(r *http.Request, name string, err error) error {
	if s.damaged.first(damagedKey("opened", web.Player(r), name)) {
		s.log.WarnContext(r.Context(), "spider: a saved game's stored row is damaged; refused to open",
			"player", web.Player(r), "save", name, "err", err)
	}
	return web.Errorf(web.ErrUnprocessable, "saved game %q is damaged on the server and cannot be opened; you can delete it", name)
}

// damagedKey names, for Handlers.damaged, player's damaged save name
// found when done ("listed", "opened"): each is logged once a process, so
// a page's polling cannot fill the log.
func damagedKey(done, player, name string) string {
	return done + "\x00" + player + "\x00" + name
}

// forgetDamaged drops player's save name from the damaged saves logged,
// when it is deleted or overwritten: a new save of that name damaged in
// turn is logged again.
func (s *Handlers) forgetDamaged(player, name string) {
	for _, done := range []string{"listed", "opened"} {
		s.damaged.forget(damagedKey(done, player, name))
	}
}

func (s *Handlers) deleteSave(w http.ResponseWriter, r *http.Request) error {
	name, err := saveName(r)
	if err != nil {
		return err
	}
	if err := s.db.DeleteSave(r.Context(), web.Player(r), name); err != nil {
		return err
	}
	s.forgetDamaged(web.Player(r), name)
	web.WriteJSON(w, http.StatusOK, map[string]string{"deleted": name})
	return nil
}

type statsGroup struct {
	Variant       string  `json:"variant"`
	Suits         int     `json:"suits"`
	Played        int     `json:"played"`
	Won           int     `json:"won"`
	WinRate       float64 `json:"winRate"`
	CurrentStreak int     `json:"currentStreak"`
	LongestStreak int     `json:"longestStreak"`
	BestScore     int     `json:"bestScore"`
	// BestTime and AverageTime are the shortest and the mean play time of
	// the won games that were timed (TimedWins of them), in milliseconds;
	// 0 when there are none.
	BestTime    int64          `json:"bestTime"`
	AverageTime int64          `json:"averageTime"`
	TimedWins   int            `json:"timedWins"`
	History     []statsHistory `json:"history"`
}

type statsHistory struct {
	At    time.Time `json:"at"`
	Won   bool      `json:"won"`
	Score int       `json:"score"`
	Time  int64     `json:"time,omitempty"` // play time in milliseconds, if timed
}

func (s *Handlers) stats(w http.ResponseWriter, r *http.Request) error {
	groups, err := s.db.Stats(r.Context(), web.Player(r))
	if err != nil {
		return err
	}
	out := struct {
		Groups []statsGroup `json:"groups"`
	}{[]statsGroup{}}
	for _, g := range groups {
		sg := statsGroup{Variant: g.Variant, Suits: g.Suits, Played: g.Played, Won: g.Won,
			WinRate: g.WinRate(), CurrentStreak: g.CurrentStreak, LongestStreak: g.LongestStreak,
			BestScore: g.BestScore, BestTime: g.BestTime.Milliseconds(), AverageTime: g.AverageTime.Milliseconds(),
			TimedWins: g.TimedWins, History: []statsHistory{}}
		for _, h := range g.History {
			sg.History = append(sg.History, statsHistory{At: h.At, Won: h.Won, Score: h.Score, Time: h.Played.Milliseconds()})
		}
		out.Groups = append(out.Groups, sg)
	}
	web.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (s *Handlers) getSettings(w http.ResponseWriter, r *http.Request) error {
	js, rev, err := s.db.SettingsRev(r.Context(), web.Player(r))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, withRev(js, rev))
	return nil
}

func (s *Handlers) putSettings(w http.ResponseWriter, r *http.Request) error {
	b, err := web.ReadBody(w, r, maxSettingsBody)
	if err != nil {
		return err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || obj == nil {
		return badRequest("settings must be a JSON object")
	}
	rev, err := settingsRev(obj["rev"])
	if err != nil {
		return err
	}
	rev = clampRev(rev, s.now())
	// The revision is kept beside the settings, not in them: stored as
	// sent less their "rev" (withRev with none).
	js := withRev(string(b), 0)
	kept, keptRev, err := s.db.PutSettingsRev(r.Context(), web.Player(r), js, rev)
	if err != nil {
		return err
	}
	// Settings may be the first thing an identity stores, in its first
	// request: record it now, or a made-up identity's settings would have
	// no record for pruning to find them by. A failure costs the request
	// nothing: its next request tries again.
	if err := s.Seen(r.Context(), web.Player(r)); err != nil {
		s.log.WarnContext(r.Context(), "spider: recording a player as seen", "err", err)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	io.WriteString(w, withRev(kept, keptRev))
	return nil
}

// revAhead is how far past the server's clock a settings write's
// revision may be (clampRev).
const revAhead = time.Minute

// clampRev bounds a write's revision to the server's time plus revAhead:
// a device whose clock runs ahead (or a hand-made revision) would
// otherwise keep its settings over every later change from the other
// devices until that time came. A little margin leaves the order of
// changes made within it, on clocks that agree, as the page made them.
func clampRev(rev int64, now time.Time) int64 {
	if rev == spidergame.NoRevision {
		return rev
	}
	return min(rev, now.Add(revAhead).UnixMilli())
}

// withRev is settings JSON js with rev, the revision kept beside it, as
// its "rev", last (none for revision 0, as settings from before
// revisions have), the rest as in js less its insignificant spaces. The
// revision kept is the one: a "rev" of js's own (a write's, or one stored
// in the JSON before the revision was kept apart) is left out.
func withRev(js string, rev int64) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(js)); err != nil {
		return js // stored before settings were checked: as it is
	}
	text := b.Bytes()
	dec := json.NewDecoder(bytes.NewReader(text))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return js // no object: as it is
	}
	out := []byte{'{'}
	for dec.More() {
		// The member runs from the end of the one before (its comma
		// included, in compact text) to the end of its value.
		from := dec.InputOffset()
		key, err := dec.Token()
		if err != nil {
			return js
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return js
		}
		if key == "rev" {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, bytes.TrimPrefix(text[from:dec.InputOffset()], []byte(","))...)
	}
	if rev != 0 {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = strconv.AppendInt(append(out, `"rev":`...), rev, 10)
	}
	return string(append(out, '}'))
}

// settingsRev reads a settings write's revision ("rev"): a whole number
// from 0 to spidergame.MaxRevision, or none (spidergame.NoRevision: a
// page from before revisions, whose write is stored whatever is kept).
func settingsRev(raw json.RawMessage) (int64, error) {
	if raw == nil {
		return spidergame.NoRevision, nil
	}
	rev, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || rev < 0 || rev > spidergame.MaxRevision {
		return 0, badRequest("settings' rev must be a whole number from 0 to %d", spidergame.MaxRevision)
	}
	return rev, nil
}
