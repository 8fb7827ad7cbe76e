package table_test

import (
	"errors"
	"testing"

	"cardtable/internal/table"
)

// A person may not sit or chat under a name that reads as the table's
// own label for a bot, an open seat or a watcher; names that merely
// start alike are taken.
func TestLabelNamesRefused(t *testing.T) {
	h := newHub(t, newMemStore(), newFakeClock())
	tb := mustCreate(t, h, "c", table.Config{Players: 6})
	for _, name := range []string{"Bot 2 (medium)", "Bot 2", "bot3", "ＢＯＴ 1", "Seat 1", "seat 12", "X (watching)", "Ann (WATCHING)", "Вot 4"} {
		if _, err := tb.Join(bg, table.Player{ID: "p", Name: name}, -1); !errors.Is(err, table.ErrBadName) {
			t.Errorf("join as %q: %v, want ErrBadName", name, err)
		}
		if err := tb.Chat(bg, table.Player{ID: "w", Name: name}, "hi"); !errors.Is(err, table.ErrBadName) {
			t.Errorf("chat as %q: %v, want ErrBadName", name, err)
		}
	}
	for i, name := range []string{"Botond", "Seattle", "Bot", "Seat", "Ann (Paris)", "Watching"} {
		if _, err := tb.Join(bg, table.Player{ID: string(rune('a' + i)), Name: name}, -1); err != nil {
			t.Errorf("join as %q: %v", name, err)
		}
	}
}
