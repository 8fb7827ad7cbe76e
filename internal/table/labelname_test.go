package table_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"cardtable/internal/table"
)

// A person may not sit or chat under a name that reads as the table's
// own label for a bot, an open seat or a watcher; names that merely
// start alike, or use a number the table never shows ("Seat 0",
// "Bot2000"), are taken.
func TestLabelNamesRefused(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 6})
	for _, name := range []string{"Bot 2 (medium)", "Bot 2", "bot3", "ＢＯＴ 1", "Seat 1", "seat 6", "X (watching)", "Ann (WATCHING)", "Вot 4", "B0t 2", "b0t5 (hard)", "Bot 2(medium)", "Bot 2（medium）", "Bot 2.", "Spectator 2", "spectator12", "ＳＰＥＣＴＡＴＯＲ 3"} {
		if _, err := tb.Join(bg, table.Player{ID: "p", Name: name}, -1); !errors.Is(err, table.ErrBadName) {
			t.Errorf("join as %q: %v, want ErrBadName", name, err)
		}
		if err := tb.Chat(bg, table.Player{ID: "w", Name: name}, "hi"); !errors.Is(err, table.ErrBadName) {
			t.Errorf("chat as %q: %v, want ErrBadName", name, err)
		}
	}
	for i, name := range []string{"Botond", "Seattle", "Bot", "Seat", "Ann (Paris)", "Watching", "Seat 0", "Bot2000", "Seat 12", "Bot 7", "B0t", "Bot4ever", "Bot 3rd",
		"Ann 7♠", "A♠vian", "Jokers", "Queen of Hearts fan", "7 of 9", "Z♠", "Spectator", "Spectators 2", "Spectator 0", "Spectator 007", "spectator 01"} {
		if _, err := tb.Join(bg, table.Player{ID: string(rune('a' + i)), Name: name}, -1); err != nil && !errors.Is(err, table.ErrTableFull) {
			t.Errorf("join as %q: %v", name, err)
		}
		if err := tb.Chat(bg, table.Player{ID: "w" + string(rune('a'+i)), Name: name}, "hi"); err != nil {
			t.Errorf("chat as %q: %v", name, err)
		}
	}
}

// TestCardNamesRefused: a name that reads as a card or a row of cards,
// in the table's symbols or in words, is refused for a seat and for a
// watcher's chat name: the page spoke a seated "7♠"'s card as written,
// not as "seven of spades", and a "seven of spades" could not be told
// from the card by ear. A name with a card in it among other words is
// taken (TestLabelNamesRefused).
func TestCardNamesRefused(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 6})
	for _, name := range []string{"7♠", "10♥", "k♦", "Q♣.", "(A♠)", "７♠", "7♠\uFE0F", "joker", "Joker", "7♠ 7♥", "seven of spades", "7 of Spades", "ACE OF HEARTS", "Ten of clubs!",
		// Quoted, as the page reads a card: straight or curly quotes.
		`"7♠"`, "“7♠”", "“joker”", "7♠”", "(“Q♣”)", "“seven of spades”"} {
		_, err := tb.Join(bg, table.Player{ID: "p", Name: name}, -1)
		if !errors.Is(err, table.ErrBadName) || !strings.Contains(err.Error(), "reads as a card") {
			t.Errorf("join as %q: %v, want ErrBadName, as a card", name, err)
		}
		if err := tb.Chat(bg, table.Player{ID: "w", Name: name}, "hi"); !errors.Is(err, table.ErrBadName) {
			t.Errorf("chat as %q: %v, want ErrBadName", name, err)
		}
	}
}

// A name stored before the rule that now refuses it stays its holder's
// at this table: an explicit re-join with it keeps the seat, and so
// does taking the seat a rematch holds under it; anyone else (or the
// holder at another table) is refused it.
func TestHeldLabelNameKept(t *testing.T) {
	st := newMemStore()
	now := time.Now().UTC()
	for id, reserved := range map[string]bool{"S": false, "R": true} {
		seats := []table.StoredSeat{{Player: "p", Name: "Bot 2", Reserved: reserved}, {}}
		if err := st.CreateTable(bg, table.Stored{ID: id, Creator: "p", Config: `{"players":2}`, Seed: 1,
			Seats: seats, Status: table.StatusOpen, Created: now, Updated: now}); err != nil {
			t.Fatal(err)
		}
	}
	h := newHub(t, st, newFakeClock())
	for _, id := range []string{"S", "R"} {
		tb, err := h.Table(id)
		if err != nil {
			t.Fatal(err)
		}
		if id == "R" {
			// The name is the held seat's: it goes to no other seat.
			if _, err := tb.Join(bg, table.Player{ID: "p", Name: "Bot 2"}, 1); !errors.Is(err, table.ErrBadName) {
				t.Errorf("p as the held name into another seat: %v, want ErrBadName", err)
			}
		}
		if s, err := tb.Join(bg, table.Player{ID: "p", Name: " Bot 2 "}, -1); err != nil || s != 0 {
			t.Errorf("table %s: p re-joins as the name they hold: seat %d, %v", id, s, err)
		}
		if _, err := tb.Join(bg, table.Player{ID: "q", Name: "Bot 2"}, -1); !errors.Is(err, table.ErrBadName) {
			t.Errorf("table %s: another person as the held name: %v, want ErrBadName", id, err)
		}
		if got := st.get(id).Seats[0]; got.Player != "p" || got.Name != "Bot 2" || got.Reserved {
			t.Errorf("table %s: seat 0 stored as %+v", id, got)
		}
	}
	other := mustCreate(t, h, "c", table.Config{Players: 2})
	if _, err := other.Join(bg, table.Player{ID: "p", Name: "Bot 2"}, -1); !errors.Is(err, table.ErrBadName) {
		t.Errorf("p as the held name at another table: %v, want ErrBadName", err)
	}
}

// An identity holding a NUL is refused: the chat allowances key an
// address after one, so such an identity could spend an address's.
func TestIDWithNULRefused(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 2})
	id := "\x00addr:192.0.2.1"
	if err := tb.Chat(bg, table.Player{ID: id, Name: "W"}, "hi"); !errors.Is(err, table.ErrBadPlayer) {
		t.Errorf("chat: %v, want ErrBadPlayer", err)
	}
	if _, err := tb.Join(bg, table.Player{ID: id, Name: "W"}, -1); !errors.Is(err, table.ErrBadPlayer) {
		t.Errorf("join: %v, want ErrBadPlayer", err)
	}
}
