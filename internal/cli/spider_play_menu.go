package cli

import (
	"fmt"
	"math/rand/v2"

	"cardtable/card"
	"cardtable/spider"
)

// The commands of terminal play that carry the Amiga Arachnid's menu
// items (Arachnid.help 1.13-1.15) under their names: New, Replay, Save
// without a name, and Cheat Level, and the breakdown of its score (1.8).
// Where each item is on the page: docs/rules-spider.md.

// cheatWords says what each level counts as cheating, as the page's
// Cheat level dialog does. Restart (replay) takes every move back, so it
// counts as undoing them all (docs/rules-spider.md #8).
var cheatWords = map[spider.CheatLevel]string{
	spider.CheatNone:     "none (any undo or restart is safe)",
	spider.CheatNewCards: "newcards (undoing a move that turned a card up, or a deal, halves the score, and so does a restart after one; with the tableau open, only a deal)",
	spider.CheatFull:     "full (any undo or restart halves the score)",
}

// newGame starts another game with this game's options (and the cheat
// level chosen for new games): the deal given, else a random one, from
// the proven-winnable deals if play began with --winnable. The game left
// is gone, as the Amiga's New aborts it: save it first to keep it. The
// new game has no file yet, so a bare save asks for a name instead of
// writing over the file of the game left.
func (s *spiderSession) newGame(args []string) (extra map[string]any, text []string, err error) {
	if len(args) > 1 {
		return nil, nil, fmt.Errorf("%w: new takes at most one deal number", spider.ErrFormat)
	}
	o := s.g.Options()
	o.Cheat = s.cheat
	var n uint64
	switch {
	case len(args) == 1:
		if n, err = card.ParseDeal(args[0]); err != nil {
			return nil, nil, err
		}
	case s.winnable:
		if n, err = winnableDeal(o, rand.Uint64()); err != nil {
			return nil, nil, err
		}
	default:
		n = randomDeal()
	}
	g, err := spider.NewGame(n, o)
	if err != nil {
		return nil, nil, err
	}
	s.g, s.file = g, ""
	return map[string]any{"message": fmt.Sprintf("new game: deal %d", n)}, []string{fmt.Sprintf("new game: deal %d", n)}, nil
}

// cheatLevel shows this game's cheat detection, or with a level sets it
// for the games that `new` starts. A game's level is part of its rules
// (docs/page.md, "Cheat level"): changing it in play would let a player
// turn it off to undo, so the page's Cards menu does the same.
func (s *spiderSession) cheatLevel(args []string) (extra map[string]any, text []string, err error) {
	if len(args) > 1 {
		return nil, nil, fmt.Errorf("%w: cheat takes at most one level: none, newcards or full", spider.ErrFormat)
	}
	if len(args) == 1 {
		if s.cheat, err = spider.ParseCheatLevel(args[0]); err != nil {
			return nil, nil, err
		}
	}
	cur := s.g.Options().Cheat
	lines := []string{"cheat detection in this game: " + cheatWords[cur]}
	next := "for new games (new): " + s.cheat.String()
	if s.g.Options().Variant == spider.Spider {
		lines[0] = "cheat detection in this game: none (in the Spider variant an undo, restart or load stops the score instead)"
		next += ", which the Spider variant ignores"
	}
	if len(args) == 1 || s.cheat != cur {
		lines = append(lines, next)
	}
	return map[string]any{"newGamesCheat": s.cheat.String()}, lines, nil
}

// scoreLines breaks the score down as the Arachnid count forms it
// (Arachnid.help 1.8, docs/rules-spider.md), in the words of the page's
// end screen, for the score command.
func (s *spiderSession) scoreLines() (extra map[string]any, text []string, err error) {
	b := s.g.Score()
	text = []string{
		fmt.Sprintf("cards turned up (10 each)                %4d", b.Turned),
		fmt.Sprintf("piles with no face-down cards (15 each)  %4d", b.Columns),
		fmt.Sprintf("same-suit builds (2 each)                %4d", b.Builds),
		fmt.Sprintf("complete suits (50 each)                 %4d", b.Complete),
	}
	if b.StandingWin > 0 {
		text = append(text, fmt.Sprintf("suits left standing beyond three (2 each)%4d", b.StandingWin))
	}
	text = append(text, fmt.Sprintf("total                                    %4d", b.Total))
	switch {
	case b.Stopped:
		text = append(text, fmt.Sprintf("scoring stopped at (undo, restart, load) %4d", b.Counted))
	case b.Cheated:
		text = append(text, fmt.Sprintf("cheating detected: halved                %4d", b.Counted))
	}
	return nil, text, nil
}
