package solver

import (
	"strings"

	"cardtable/spider"
)

// A relaxed loss proof (docs/analysis.md, "Merged suits"): a 4-suit
// position is lost when the same position with its suits merged two by
// two (clubs with spades and diamonds with hearts, say) is lost. Every
// move of the real game stays legal in the merged one: a run of one
// suit is a run of one merged suit, the rank rules do not look at suits,
// a K-A run of one suit is one of a merged suit, and dealing and turning
// cards do not depend on suits. So every line of the real game is a line
// of the merged game, and a real win is a merged win (every card in a
// complete run). The merged game has more runs, so more moves, but fewer
// distinct positions: two cards of one rank and merged suit are the same
// card there. Its proof follows the real rules (a complete run is removed
// only as a move of its own, prover.keep), as a merged complete run need
// not be a real one.

// pairings are the three ways to merge four suits two by two, as the
// merged suit (S or H) of clubs, diamonds, hearts and spades.
var pairings = [3]string{"SHHS", "HHSS", "HSHS"}

// merged is p with its suits merged by pairing (an entry of pairings):
// a 2-suit position. It is nil unless p has 4 suits.
func merged(p *spider.Position, pairing string) *spider.Position {
	if p.Suits() != 4 {
		return nil
	}
	lines := strings.Split(p.FormatLayout(), "\n")
	for i, ln := range lines {
		key, val, ok := strings.Cut(ln, ":")
		if !ok {
			continue
		}
		fs := strings.Fields(val)
		for j, f := range fs {
			if key == "completed" {
				fs[j] = string(mergeSuit(f[0], pairing))
				continue
			}
			b := []byte(f)
			b[len(b)-1] = mergeSuit(b[len(b)-1], pairing)
			fs[j] = string(b)
		}
		lines[i] = key + ": " + strings.Join(fs, " ")
	}
	q, err := spider.ParseLayout(strings.Join(lines, "\n"), spider.Rules{Suits: 2, Relaxed: p.Relaxed()})
	if err != nil {
		return nil // not reached: the layout of a valid position
	}
	return q
}

// mergeSuit is the merged suit letter of suit letter s.
func mergeSuit(s byte, pairing string) byte {
	switch s {
	case 'C':
		return pairing[0]
	case 'D':
		return pairing[1]
	case 'H':
		return pairing[2]
	case 'S':
		return pairing[3]
	}
	return s
}
