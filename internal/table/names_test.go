package table_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"cardtable/internal/table"
)

// TestNameTaken: a person may not sit under another rated person's name
// or a bot level's, whatever the case; their own rated name is theirs.
// Someone already seated (or held a seat) under a name that another
// person was rated under since keeps it at that table.
func TestNameTaken(t *testing.T) {
	ctx := context.Background()
	h := newHub(t, openStore(t), newFakeClock())
	ratedAs := func(id, name string) {
		t.Helper()
		tb := mustCreate(t, h, id, table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}, Rated: true})
		if _, err := tb.Join(ctx, table.Player{ID: id, Name: name}, 0); err != nil {
			t.Fatal(err)
		}
		playOut(t, tb, map[int]string{0: id})
		roundTrip(t, h, tb)
	}
	casual := mustCreate(t, h, "c", table.Config{Players: 4, Bots: []string{"", "", "", "random"}})
	join := func(id, name string) error {
		_, err := casual.Join(ctx, table.Player{ID: id, Name: name}, -1)
		return err
	}
	if err := join("c", "Cy"); err != nil {
		t.Fatal(err)
	}
	ratedAs("a", "Ann")
	ratedAs("d", "cy") // free: c sits under it, but is not rated
	for _, name := range []string{"Ann", "aNN", " ANN ", "Random", "EXPERT", "cY"} {
		if err := join("b", name); !errors.Is(err, table.ErrNameTaken) {
			t.Errorf("b sits as %q: %v, want ErrNameTaken", name, err)
		}
	}
	if err := join("c", "CY"); err != nil {
		t.Errorf("c, seated as Cy before d was rated as cy, sits again as CY: %v", err)
	}
	if err := join("a", "ann"); err != nil {
		t.Errorf("a sits under their own rated name: %v", err)
	}
	if err := join("b", "Annie"); err != nil {
		t.Errorf("b sits as Annie: %v", err)
	}
	if s := casual.Summary(); s.Seats[0].Name != "CY" || s.Seats[1].Name != "ann" || s.Seats[2].Name != "Annie" {
		t.Errorf("the seats: %+v", s.Seats)
	}
}

// TestNameLookAlike: a name written with letters of another script that
// look like Latin ones is refused at the table when it looks like a rated
// person's name or a bot level's; a name that only resembles one, or is
// in another script without looking like one, is taken.
func TestNameLookAlike(t *testing.T) {
	ctx := context.Background()
	h := newHub(t, openStore(t), newFakeClock())
	rated := mustCreate(t, h, "a", table.Config{Players: 2, Target: 1, Bots: []string{"", "random"}, Rated: true})
	if _, err := rated.Join(ctx, table.Player{ID: "a", Name: "Alice"}, 0); err != nil {
		t.Fatal(err)
	}
	playOut(t, rated, map[int]string{0: "a"})
	roundTrip(t, h, rated)
	casual := mustCreate(t, h, "c", table.Config{Players: 4, Bots: []string{"", "", "", "random"}})
	for _, c := range []struct {
		name  string
		taken bool
	}{
		{"\u0410lice", true},       // Cyrillic А
		{"Al\u0456ce", true},       // Cyrillic і
		{"\u0410LICE", true},       // and in capitals
		{"m\u0430ster", true},      // a bot level, with a Cyrillic а
		{"\u0435xpert", true},      // a Cyrillic е
		{"r\u0430nd\u043em", true}, // Cyrillic а and о
		{"Alicia", false},
		{"\u0418\u0432\u0430\u043d", false}, // Иван
		{"Mister", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := casual.Join(ctx, table.Player{ID: "b", Name: c.name}, -1)
			if c.taken && !errors.Is(err, table.ErrNameTaken) {
				t.Errorf("b sits as %q: %v, want ErrNameTaken", c.name, err)
			}
			if !c.taken && err != nil {
				t.Errorf("b sits as %q: %v, want a seat", c.name, err)
			}
		})
	}
}

// TestUniqueName: a person's name is kept while nobody else holds it,
// else given the first free suffix, shortened to fit MaxNameRunes so its
// holder can sit under it; a bot's level is kept as it is.
func TestUniqueName(t *testing.T) {
	long := strings.Repeat("x", table.MaxNameRunes-3) + "ééé" // 24 runes
	for _, c := range []struct {
		name string
		held []string // folded names held by others
		want string
	}{
		{"Ann", nil, "Ann"},
		{"Ann", []string{"ann"}, "Ann (2)"},
		{"Ann", []string{"ann", "ann (2)"}, "Ann (3)"},
		{long, []string{table.FoldName(long)}, strings.Repeat("x", table.MaxNameRunes-4) + " (2)"},
		{"abcdefghijklmnopqrs uvwx", []string{"abcdefghijklmnopqrs uvwx"}, "abcdefghijklmnopqrs (2)"},
	} {
		t.Run(c.want, func(t *testing.T) {
			var asked []string
			got, folded, err := table.UniqueName(table.Rating{Key: "p:me", Name: c.name}, func(f, key string) (bool, error) {
				asked = append(asked, f)
				return key == "p:me" && slices.Contains(c.held, f), nil
			})
			if err != nil || got != c.want || folded != table.FoldName(c.want) {
				t.Fatalf("UniqueName(%q) = %q, %q, %v; want %q (asked %q)", c.name, got, folded, err, c.want, asked)
			}
			if n := utf8.RuneCountInString(got); n > table.MaxNameRunes {
				t.Errorf("%q is %d characters, past the %d a name may have", got, n, table.MaxNameRunes)
			}
		})
	}
	got, folded, err := table.UniqueName(table.Rating{Key: "bot:expert", Name: "expert", Bot: true},
		func(string, string) (bool, error) { return true, nil })
	if got != "expert" || folded != "" || err != nil {
		t.Errorf("a bot's name: %q, %q, %v; want it as it is, not folded", got, folded, err)
	}
}

// TestFoldName: names that look the same fold alike, whatever the case,
// however an accent was typed, in full-width letters or with extra
// spaces; different names do not.
func TestFoldName(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"Ann", "aNN", true},
		{"Zoé", "Zoe\u0301", true}, // é as one character, and as e and a combining accent
		{"ＡＮＮ", "ann", true},       // full-width letters
		{"Ann  Lee", "ann lee", true},
		{"Straße", "STRASSE", false}, // ß is its own letter here: no full case folding
		{"Ann", "Anna", false},
		{"Zoé", "Zoe", false},
		{"Аlice", "alice", true}, // a Cyrillic А
		{"Bоb", "BOB", true},     // a Cyrillic о
		{"mаster", "Master", true},
		{"Ρaul", "paul", true}, // a Greek Ρ
		{"Ηans", "Hans", true}, // capitals whose small letters look like no Latin ones: Greek Η,
		{"Нans", "hans", true}, // Cyrillic Н,
		{"Νick", "Nick", true}, // Greek Ν,
		{"Νick", "Vick", false},
		{"ΒΟΒ", "bob", true},
		{"\u0406van", "Ivan", true}, // a Cyrillic І,
		{"\u0399ris", "Iris", true}, // a Greek Ι
		{"\u0406van", "lvan", false},
		{"\u13deee", "Lee", true},      // a Cherokee Ꮮ
		{"Alice\ufe0f", "Alice", true}, // a variation selector,
		{"Al\u034fice", "Alice", true}, // a combining grapheme joiner: invisible
		{"Ann\u3164", "Ann", true},     // a Hangul filler
		{"Иван", "Ivan", false},
		{"Иван", "Иван", true},
		{"李雷", "李雷", true},
		{"李雷", "Иван", false},
		{"Zoë", "Zoe", false},
		{"Zoë", "Zoé", false},
		{"ann1", "annl", false},        // ASCII look-alikes stay apart
		{"Ali\u0307ce", "Alice", true}, // a dot above the i's own dot
		{"Alice\u2800", "Alice", true}, // a braille blank after it
		{"Al\u2800ice", "Al ice", true},
		{"Zo\u0307e", "Zoe", false}, // a dot above another letter is seen
		{"Sam", "Sarn", false},
	} {
		t.Run(c.a+"/"+c.b, func(t *testing.T) {
			if got := table.FoldName(c.a) == table.FoldName(c.b); got != c.same {
				t.Errorf("FoldName(%q) = %q, FoldName(%q) = %q: alike %v, want %v",
					c.a, table.FoldName(c.a), c.b, table.FoldName(c.b), got, c.same)
			}
		})
	}
}

// TestFoldNameFixed: a fold folds to itself, for names of every character
// the fold maps and a few built of them, as the stored folds need.
func TestFoldNameFixed(t *testing.T) {
	names := []string{"Аlice", "Straße", "Zoë", "ＡＮＮ  Lee", "Иван", "李雷", "ǅemal", "ﬃx", "ΣΑΣ"}
	for r := rune(0x80); r < 0x20000; r++ {
		if !unicode.IsGraphic(r) {
			continue
		}
		names = append(names, string(r))
		if r%16 == 0 { // and some in company, kept few for speed
			names = append(names, "a"+string(r)+string(r+1)+"Z")
		}
	}
	for _, name := range names {
		f := table.FoldName(name)
		if g := table.FoldName(f); g != f {
			t.Errorf("FoldName(%q) = %q, which folds to %q", name, f, g)
		}
	}
}
