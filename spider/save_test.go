package spider

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cardtable/card"
)

func TestLoadErrors(t *testing.T) {
	g := mustGame(t, 617, Options{Variant: Arachnid, Cheat: CheatNewCards})
	for _, m := range []string{"move 1 2 1", "deal"} {
		mv, _ := ParseMove(m)
		_ = g.Play(mv) // whichever are legal on this deal
	}
	good := g.Save()
	if _, err := Load(good); err != nil {
		t.Fatalf("good save: %v\n%s", err, good)
	}
	for _, tc := range []struct {
		name, text, want string
	}{
		{"empty", "", "empty"},
		{"not a save", "hello\n", "line 1"},
		{"future version", strings.Replace(good, SaveHeader, "cardtable spider 9", 1), "version"},
		{"truncated", good[:strings.Index(good, "moves:")], "cut short"},
		{"cut at a line", good[:strings.LastIndex(strings.TrimSuffix(good, "\n"), "\n")+1], "cut short"},
		{"missing variant", strings.Replace(good, "variant: arachnid\n", "", 1), "line 13: end of file: missing \"variant:\""},
		{"stopped in arachnid", strings.Replace(good, "stopped: no", "Stopped:  500 ", 1), `line 10: "Stopped:  500": a frozen score applies only to the spider variant`},
		{"bad count", strings.Replace(good, "moves: 1", "moves: x", 1), "number of move lines"},
		{"bad variant", strings.Replace(good, "variant: arachnid", "variant: klondike", 1), "line 2"},
		{"bad suits", strings.Replace(good, "suits: 4", "suits: 3", 1), "line 3"},
		{"bad deal", strings.Replace(good, "deal: 617", "deal: 0", 1), "line 8"},
		{"unknown key", strings.Replace(good, "cheated: no", "color: red", 1), "unknown key"},
		{"twice", strings.Replace(good, "open: no", "suits: 4", 1), "twice"},
		{"bad move", withMove(good, "move 1 2 x"), "line 14: count"},
		{"illegal move", withMove(good, "move 1 1 1"), "line 14: move 1 1 1: a pile cannot move onto itself"},
		{"position past end", strings.Replace(good, "position: ", "position: 9", 1), "line 11: position 91 is past"},
		{"no deal", strings.Replace(good, "deal: 617\n", "", 1), "deal"},
		{"layout and deal", strings.Replace(good, "deal: 617\n", "deal: 617\npile1: KS\n", 1), "not both"},
		{"long line", strings.Replace(good, "open: no\n", "open: no\n"+strings.Repeat(" ", MaxSaveLine+1)+"\n", 1), "line 5: longer than 65536 bytes, the limit"},
		{"long comment over 1 MB", strings.Replace(good, "open: no\n", "open: no\n#"+strings.Repeat("x", 1<<20)+"\n", 1), "line 5: longer than 65536 bytes, the limit"},
		{"long first line", strings.Repeat("#", MaxSaveLine+1), "line 1: longer than 65536 bytes, the limit"},
		{"long last line", good + strings.Repeat("#", MaxSaveLine+1), "line 14: longer than 65536 bytes, the limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Load(tc.text)
			if err == nil || got != nil {
				t.Fatalf("loaded a bad file (error %v)", err)
			}
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrIllegal) && !strings.Contains(err.Error(), "deal") {
				t.Errorf("error %v wraps no sentinel", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

// TestLoadHandWritten: a save edited by hand loads whatever the case of
// its keys and values and however its "moves:" line is spaced, as the
// other keys do ("Moves:1" was refused as an unknown key "moves"); move
// lines with no "moves:" line above them are refused with the fix, not
// with "want key: value".
func TestLoadHandWritten(t *testing.T) {
	good := dealtSave(t)
	for _, edit := range [][2]string{
		{"moves: 1", "moves:1"},
		{"moves: 1", "Moves: 1"},
		{"moves: 1", "MOVES :1"},
		{"moves: 1", "moves:"},
		{"variant: arachnid", "Variant: Arachnid"},
		{"open: no", "open: No"},
		{"cheat: none", "cheat: NONE"},
	} {
		text := strings.Replace(good, edit[0]+"\n", edit[1]+"\n", 1)
		if text == good {
			t.Fatalf("%q is not in the save:\n%s", edit[0], good)
		}
		got, err := Load(text)
		if err != nil {
			t.Errorf("%q for %q: %v", edit[1], edit[0], err)
			continue
		}
		if got.Save() != good {
			t.Errorf("%q for %q loads as\n%s\nwant\n%s", edit[1], edit[0], got.Save(), good)
		}
	}
	_, err := Load(strings.Replace(good, "moves: 1\n", "", 1))
	if err == nil || !strings.Contains(err.Error(), `line 12: "deal" is a move, but moves come after a "moves:" line: put one above the first move`) {
		t.Errorf("a move with no moves: line above it: %v", err)
	}
}

// TestLoadQuotesAsWritten: a hand-edited save's bad value is quoted in its
// error as the file writes it (capitals and all), so that the player can
// find it; before, the value was lowered first ("Spyder" was quoted
// "spyder", "61X" as "61x").
func TestLoadQuotesAsWritten(t *testing.T) {
	good := mustGame(t, 617, Options{Variant: Arachnid, Suits: 4}).Save()
	for _, tc := range [][3]string{
		{"variant: arachnid", "variant: Spyder", `not "Spyder"`},
		{"suits: 4", "suits: X", `"X" is not a whole number`},
		{"deal: 617", "deal: 61X", `"61X"`},
		{"open: no", "open: Nope", `got "Nope"`},
		{"cheat: none", "cheat: Some", `not "Some"`},
	} {
		text := strings.Replace(good, tc[0]+"\n", tc[1]+"\n", 1)
		if text == good {
			t.Fatalf("%q is not in the save:\n%s", tc[0], good)
		}
		if _, err := Load(text); err == nil || !strings.Contains(err.Error(), tc[2]) {
			t.Errorf("%q: error %v, want it to quote %s", tc[1], err, tc[2])
		}
	}
}

// TestASCIICaseOnly: keys, values, variants, cheat levels, verbs and moves
// are read in any ASCII case, and only so: a letter of another script that
// Unicode maps or folds to a Latin one (İ to i, ſ to s) is not taken for
// it. Before, "moveſ: 1" loaded as "moves: 1", "SPİDER" as a variant and
// a save's "pile9: Aſ" as an ace of spades.
func TestASCIICaseOnly(t *testing.T) {
	good := dealtSave(t)
	for _, edit := range [][2]string{
		{"moves: 1", "moveſ: 1"},
		{"variant: arachnid", "variant: arachnİd"},
		{"variant: arachnid", "varİant: arachnid"},
	} {
		text := strings.Replace(good, edit[0]+"\n", edit[1]+"\n", 1)
		if text == good {
			t.Fatalf("%q is not in the save:\n%s", edit[0], good)
		}
		if _, err := Load(text); err == nil {
			t.Errorf("%q for %q loaded", edit[1], edit[0])
		}
	}
	// A save's pile line is read as a layout's is: "Aſ" is no ace of spades.
	at, err := NewGameAt(mustLayout(t, nearWin, 4), Options{Suits: 4})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(at.Save(), "pile9: AS\n", "pile9: Aſ\n", 1)
	if _, err := Load(text); !errors.Is(err, card.ErrBadCard) {
		t.Errorf("a save with pile9: Aſ: error %v, want a bad card", err)
	}
	if _, err := ParseVariant("SPİDER"); err == nil {
		t.Error(`ParseVariant("SPİDER") took it for spider`)
	}
	if c, err := ParseCheatLevel("NewCards"); err != nil || c != CheatNewCards {
		t.Errorf(`ParseCheatLevel("NewCards") = %v, %v`, c, err)
	}
	if v, err := ParseVariant("SPIDER"); err != nil || v != Spider {
		t.Errorf(`ParseVariant("SPIDER") = %v, %v`, v, err)
	}
	if _, err := ParseCommand("DEAL"); err != nil {
		t.Errorf(`ParseCommand("DEAL"): %v`, err)
	}
	if _, err := ParseMove("Remove 1"); err != nil {
		t.Errorf(`ParseMove("Remove 1"): %v`, err)
	}
}

// TestLoadByteOrderMark: a save with a UTF-8 byte-order mark before its
// header (an editor's "UTF-8 with BOM") loads as the same game; a mark
// anywhere else is still refused.
func TestLoadByteOrderMark(t *testing.T) {
	g := mustGame(t, 617, Options{})
	_ = g.Play(Cards(5, 0, 1))
	h, err := Load("\ufeff" + g.Save())
	if err != nil {
		t.Fatalf("a save with a byte-order mark: %v", err)
	}
	if h.Save() != g.Save() {
		t.Fatal("a save with a byte-order mark loads as another game")
	}
	if _, err := Load("\ufeff\ufeff" + g.Save()); !errors.Is(err, ErrFormat) {
		t.Fatalf("two byte-order marks: %v, want ErrFormat", err)
	}
}

// TestParseLayoutByteOrderMark: a layout saved with a leading UTF-8
// byte-order mark reads as the same position, as a save does; one
// anywhere else is refused.
func TestParseLayoutByteOrderMark(t *testing.T) {
	p, _ := NewDeal(617, Spider, Rules{Suits: 2})
	q, err := ParseLayout("\ufeff"+p.FormatLayout(), Rules{Suits: 2})
	if err != nil {
		t.Fatalf("a layout with a byte-order mark: %v", err)
	}
	if q.FormatLayout() != p.FormatLayout() {
		t.Fatal("a layout with a byte-order mark reads as another position")
	}
	if _, err := ParseLayout("\ufeff\ufeff"+p.FormatLayout(), Rules{Suits: 2}); err == nil {
		t.Fatal("two byte-order marks were taken")
	}
}

// A line of exactly MaxSaveLine bytes, with or without a '\r', loads.
func TestLoadLineAtLimit(t *testing.T) {
	g := mustGame(t, 617, Options{})
	comment := "#" + strings.Repeat("x", MaxSaveLine-1)
	for _, text := range []string{
		strings.Replace(g.Save(), "open: no\n", "open: no\n"+comment+"\n", 1),
		strings.Replace(g.Save(), "open: no\n", "open: no\n"+comment+"\r\n", 1),
		g.Save() + comment,
	} {
		if _, err := Load(text); err != nil {
			t.Errorf("a line of %d bytes: %v", MaxSaveLine, err)
		}
	}
}

// withMove appends a move line to a save and raises its move count.
func withMove(save, move string) string {
	i := strings.Index(save, "moves: ")
	j := i + strings.IndexByte(save[i:], '\n')
	n, _ := strconv.Atoi(save[i+len("moves: ") : j])
	return save[:i] + "moves: " + strconv.Itoa(n+1) + save[j:] + move + "\n"
}

func TestCustomPositionScore(t *testing.T) {
	// More than 44 face-down cards: turning one up still scores 10.
	text := complete(t, []string{"9C", "|5D 8D", "TS", "", "", "", "", "", "", ""}, "", 5, 1)
	p := mustLayout(t, text, 4)
	if p.FaceDown() <= 44 {
		t.Fatalf("layout has %d face-down cards", p.FaceDown())
	}
	before := p.Score().Turned
	if _, err := p.Play(Cards(1, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if got := p.Score().Turned - before; got != 10 {
		t.Errorf("turning a card up scored %d, want 10", got)
	}
}

func TestCustomPositionSave(t *testing.T) {
	p := mustLayout(t, nearWin, 4)
	g, err := NewGameAt(p, Options{Suits: 4, Variant: Spider})
	if err != nil {
		t.Fatal(err)
	}
	text := g.Save()
	if !strings.Contains(text, "pile8: KS QS") || strings.Contains(text, "deal:") {
		t.Fatalf("custom save:\n%s", text)
	}
	h, err := Load(withMove(strings.Replace(text, "position: 0", "position: 1", 1), "move 9 8 1"))
	if err != nil {
		t.Fatal(err)
	}
	if !h.Won() || h.Score().Total != 1000 {
		t.Errorf("loaded near-win did not win: %+v", h.Score())
	}
}

func TestLayoutErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"missing pile", "pile1: KS\n", "missing"},
		{"down after up", strings.Replace(nearWin, "pile9: AS", "pile9: AS |2S", 1), "face-down card |2S after"},
		{"all down", strings.Replace(nearWin, "pile9: AS", "pile9: |AS", 1), "need a face-up"},
		{"bad card", strings.Replace(nearWin, "pile9: AS", "pile9: 1S", 1), "not a card"},
		{"joker", strings.Replace(nearWin, "pile9: AS", "pile9: JK", 1), "not a card"},
		{"too many", strings.Replace(nearWin, "pile9: AS", "pile9: AS AS", 1), "appears 3 times"},
		{"short row", nearWin + "row1: AS\n", "want 10"},
		{"row gap", nearWin + "row2: AS AS AS AS AS AS AS AS AS AS\n", "row1 is missing"},
		{"bad suit", nearWin + "completed: X\n", "not a suit"},
		{"pile11", nearWin + "pile11: AS\n", "pile11"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLayout(tc.text, Rules{Suits: 4})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestParseMove(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"move 3 7 2", "move 3 7 2"}, {"m 10 1 13", "move 10 1 13"}, {"deal", "deal"},
		{"  remove 4 ", "remove 4"}, {"MOVE 1 2 1", "move 1 2 1"},
	} {
		m, err := ParseMove(tc.in)
		if err != nil || m.String() != tc.want {
			t.Errorf("ParseMove(%q) = %v, %v", tc.in, m, err)
		}
	}
	for _, bad := range []string{"", "move", "move 1 2", "move 0 2 1", "move 1 11 1", "move 1 2 0",
		"move 1 2 14", "deal 3", "remove", "remove 12", "jump 1 2 3", "move 1 2 3 4"} {
		if m, err := ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) = %v, want error", bad, m)
		}
	}
}

func FuzzLoad(f *testing.F) {
	g, _ := NewGame(1, Options{Variant: Spider})
	_ = g.Play(Cards(5, 0, 1))
	f.Add(g.Save())
	p, _ := ParseLayout(nearWin, Rules{Suits: 4})
	h, _ := NewGameAt(p, Options{Suits: 4})
	f.Add(h.Save())
	f.Add("cardtable spider 1\nvariant: spider\nsuits: 1\ndeal: 5\nmoves:\ndeal\n")
	f.Fuzz(func(t *testing.T, text string) {
		g, err := Load(text)
		if err != nil {
			if g != nil {
				t.Fatal("game with error")
			}
			// The web answers an uploaded file's every refusal 400 by
			// this sentinel.
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("%v does not wrap %v", err, ErrFormat)
			}
			return
		}
		pos := g.Position()
		if err := pos.Check(); err != nil {
			t.Fatalf("loaded game breaks card count: %v", err)
		}
		again, err := Load(g.Save())
		if err != nil {
			t.Fatalf("re-load of saved game: %v", err)
		}
		if again.Save() != g.Save() {
			t.Fatal("save is not stable")
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"move 3 7 2", "deal", "remove 4", "move 10 1 13", "m 1 2 3", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			return
		}
		back, err := ParseMove(m.String())
		if err != nil || back != m {
			t.Fatalf("%q -> %v does not round-trip", s, m)
		}
		p, _ := NewDeal(1, Spider, Rules{Suits: 4})
		before := *p
		if _, err := p.Play(m); err != nil && *p != before {
			t.Fatal("refused move changed the position")
		}
	})
}

// FuzzParseLayout reads any text as a layout of any suit count: the parser
// takes 1, 2 or 4 and refuses every other count by card.ErrBadSuits; a
// layout read holds the right cards and reads back the same.
func FuzzParseLayout(f *testing.F) {
	f.Add(nearWin, uint8(4))
	p, _ := NewDeal(3, Arachnid, Rules{Suits: 2})
	f.Add(p.FormatLayout(), uint8(2))
	p, _ = NewDeal(5, Spider, Rules{Suits: 1})
	f.Add(p.FormatLayout(), uint8(1))
	f.Add(nearWin, uint8(3))
	f.Fuzz(func(t *testing.T, text string, suits uint8) {
		r := Rules{Suits: int(suits)}
		p, err := ParseLayout(text, r)
		if err != nil {
			if p != nil {
				t.Fatal("position with error")
			}
			if card.CheckSuits(r.Suits) != nil {
				if !errors.Is(err, card.ErrBadSuits) {
					t.Fatalf("suits %d: %v does not wrap %v", suits, err, card.ErrBadSuits)
				}
			} else if !errors.Is(err, ErrFormat) {
				t.Fatalf("%v does not wrap %v", err, ErrFormat)
			}
			return
		}
		if err := card.CheckSuits(r.Suits); err != nil {
			t.Fatalf("suits %d read: %v", suits, err)
		}
		if err := p.Check(); err != nil {
			t.Fatal(err)
		}
		q, err := ParseLayout(p.FormatLayout(), r)
		if err != nil || !q.Equal(p) {
			t.Fatalf("layout does not round-trip: %v", err)
		}
	})
}

// BenchmarkLegalDoUndo measures move generation with apply and undo over
// random games: one op is one Legal call plus Do and Undo of every move.
func BenchmarkLegalDoUndo(b *testing.B) {
	var positions []Position
	for n := uint64(1); len(positions) < 64; n++ {
		g, _ := NewGame(n, Options{Variant: Spider})
		var buf [256]Move
		for i := 0; i < 40; i++ {
			ms := g.pos.Legal(buf[:0])
			if len(ms) == 0 {
				break
			}
			_ = g.Play(ms[(i*7+int(n))%len(ms)])
			positions = append(positions, g.pos)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	var buf [256]Move
	moves := 0
	for i := 0; b.Loop(); i++ {
		p := &positions[i%len(positions)]
		ms := p.Legal(buf[:0])
		for _, m := range ms {
			u := p.Do(m)
			p.Undo(m, u)
		}
		moves += len(ms)
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// Counts of one are singular in messages ("1 card", not "1 cards").
func TestMessagesCountOne(t *testing.T) {
	g := mustGame(t, 617, Options{})
	_ = g.Play(DealMove)
	save := g.Save() // one move line
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"run", errRun(0, 1, 2), "is 1 card, not 2"},
		{"auto", errNoAuto(0, 1), "no legal place for the 1 card at"},
		{"count", loadErr(strings.Replace(save, "moves: 1", "moves: 2", 1)), "1 move line, but line"},
		{"position", loadErr(strings.Replace(save, "position: 1", "position: 2", 1)), "position 2 is past the 1 move"},
		{"row", loadErr(oneCardRow(layoutSave(t))), "row1 has 1 card, want 10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) || pluralOne.MatchString(tc.err.Error()) {
				t.Errorf("got %v, want %q", tc.err, tc.want)
			}
		})
	}
}

// pluralOne matches a count of one with a plural noun.
var pluralOne = regexp.MustCompile(`(^|[^0-9])1 (card|move|move line|time|suit|kind)s\b`)

func loadErr(text string) error {
	_, err := Load(text)
	return err
}

// layoutSave is a save of a custom position with a stock.
func layoutSave(tb testing.TB) string {
	tb.Helper()
	g := mustGame(tb, 617, Options{})
	p := g.Position()
	h, err := NewGameAt(&p, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return h.Save()
}

// oneCardRow cuts a layout's first stock row to one card.
func oneCardRow(save string) string {
	i := strings.Index(save, "row1: ")
	j := i + strings.IndexByte(save[i:], '\n')
	return save[:i] + "row1: KS" + save[j:]
}

// dealtSave is the save of Arachnid deal 617 after a row dealt: every
// key a save has, and one move under its "moves:" line.
func dealtSave(tb testing.TB) string {
	tb.Helper()
	g := mustGame(tb, 617, Options{Variant: Arachnid})
	mv, _ := ParseMove("deal")
	if err := g.Play(mv); err != nil {
		tb.Fatal(err)
	}
	return g.Save()
}
