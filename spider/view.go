package spider

import "cardtable/card"

// View is what a player may see of a game, ready to encode as JSON. It is
// the one shape the command line and the web page show.
type View struct {
	Deal       uint64     `json:"deal"` // 0 for a custom position
	Variant    string     `json:"variant"`
	Suits      int        `json:"suits"`
	Open       bool       `json:"open"`
	Relaxed    bool       `json:"relaxed"`
	AutoRemove bool       `json:"autoRemove"`
	Cheat      string     `json:"cheat"`
	Piles      []PileView `json:"piles"`
	Stock      int        `json:"stock"`              // cards left in the stock
	StockRows  [][]string `json:"stockRows,omitzero"` // with reveal only
	Completed  []string   `json:"completed"`          // suits removed, in order
	Score      int        `json:"score"`              // the score that counts
	Breakdown  GameScore  `json:"breakdown"`
	Moves      int        `json:"moves"` // moves played
	Won        bool       `json:"won"`
	Stuck      bool       `json:"stuck"` // no move left but null ones
	CanUndo    bool       `json:"canUndo"`
	CanRedo    bool       `json:"canRedo"`
}

// PileView is one pile as the player sees it.
type PileView struct {
	Down   int      `json:"down"`            // face-down cards
	Up     []string `json:"up"`              // face-up cards, underneath first, bottom card last
	Hidden []string `json:"hidden,omitzero"` // the face-down cards, first dealt first: with reveal, or in the open variant
}

// View returns what the player sees. reveal adds every hidden card and the
// stock, for analysis and tests; without it, face-down cards appear only in
// the open variant, and the stock's order never.
func (g *Game) View(reveal bool) View {
	p := &g.pos
	v := View{
		Deal: g.deal, Variant: g.opts.Variant.String(), Suits: g.opts.Suits,
		Open: g.opts.Open, Relaxed: g.opts.Relaxed, AutoRemove: g.opts.AutoRemove,
		Cheat: g.opts.Cheat.String(), Stock: p.StockLen(), Completed: []string{},
		Moves: g.cursor, Won: p.Won(), Stuck: p.Stuck(),
		CanUndo: g.CanUndo(), CanRedo: g.CanRedo(),
	}
	v.Breakdown = g.Score()
	v.Score = v.Breakdown.Counted
	for k := range p.piles {
		pl := &p.piles[k]
		pv := PileView{Down: int(pl.down), Up: names(pl.cards[pl.down:pl.n])}
		if reveal || g.opts.Open {
			pv.Hidden = names(pl.cards[:pl.down])
		}
		v.Piles = append(v.Piles, pv)
	}
	for _, s := range p.removed[:p.nRemoved] {
		v.Completed = append(v.Completed, s.String())
	}
	if reveal {
		st := p.Stock(nil)
		v.StockRows = [][]string{}
		for r := 0; r*10 < len(st); r++ {
			v.StockRows = append(v.StockRows, names(st[r*10:r*10+10]))
		}
	}
	return v
}

func names(cs []card.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}
