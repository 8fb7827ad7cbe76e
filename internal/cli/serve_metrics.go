package cli

import (
	"context"
	"time"

	"cardtable/internal/obs"
	"cardtable/internal/spidergame"
	"cardtable/internal/table"
)

// timedStore is the database with its writes timed for /metrics
// (cardtable_db_write_seconds): the live tables' writes and Spider's
// moves, new games and saves. Everything else passes through.
type timedStore struct {
	serverStore
	m *obs.Metrics
}

func (s timedStore) time(op string, began time.Time) { s.m.DBWrite(op, time.Since(began)) }

// LoadLive keeps the tables' own reads on what the store keeps for them
// where it has that (table.LiveLoader: PostgreSQL's share of the pool);
// without it, wrapping the store hid the method and the hub read them on
// the requests' share.
func (s timedStore) LoadLive(ctx context.Context, id string) (table.Stored, error) {
	return table.LoadLive(ctx, s.serverStore, id)
}

var _ table.LiveLoader = timedStore{}

func (s timedStore) CreateTable(ctx context.Context, t table.Stored) error {
	defer s.time("create_table", time.Now())
	return s.serverStore.CreateTable(ctx, t)
}

func (s timedStore) SaveSeats(ctx context.Context, id string, seats []table.StoredSeat) error {
	defer s.time("save_seats", time.Now())
	return s.serverStore.SaveSeats(ctx, id, seats)
}

func (s timedStore) AppendAction(ctx context.Context, id string, seq int, m table.StoredMove) error {
	defer s.time("append_action", time.Now())
	return s.serverStore.AppendAction(ctx, id, seq, m)
}

func (s timedStore) AppendChat(ctx context.Context, id string, l table.ChatLine, keep int) error {
	defer s.time("append_chat", time.Now())
	return s.serverStore.AppendChat(ctx, id, l, keep)
}

func (s timedStore) FinishTable(ctx context.Context, id string, st table.Status, at time.Time) error {
	defer s.time("finish_table", time.Now())
	return s.serverStore.FinishTable(ctx, id, st, at)
}

func (s timedStore) FinishRated(ctx context.Context, id string, at time.Time, end table.RatedEnd) error {
	defer s.time("finish_rated", time.Now())
	return s.serverStore.FinishRated(ctx, id, at, end)
}

func (s timedStore) CreateGame(ctx context.Context, g spidergame.Game, results ...spidergame.Result) error {
	defer s.time("create_game", time.Now())
	return s.serverStore.CreateGame(ctx, g, results...)
}

func (s timedStore) UpdateGame(ctx context.Context, c spidergame.Change, results ...spidergame.Result) error {
	defer s.time("update_game", time.Now())
	return s.serverStore.UpdateGame(ctx, c, results...)
}

func (s timedStore) PutSave(ctx context.Context, sv spidergame.Save) error {
	defer s.time("put_save", time.Now())
	return s.serverStore.PutSave(ctx, sv)
}
