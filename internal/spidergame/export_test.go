package spidergame

// Hooks for the tests of package spidergame_test, which use the real
// store (a test of this package itself could not import it: the store
// imports this package).

const (
	EntryOverhead = entryOverhead
	WriteTimeout  = writeTimeout
	MaxIDLen      = maxIDLen
)

// NewID is newID, a fresh game id.
func NewID() string { return newID() }

// SetAfterRead runs f between reading a game from the store and caching
// it.
func (gs *Service) SetAfterRead(f func(id string)) { gs.afterRead = f }

// SetSnapshotMin sets the fewest commands between snapshots.
func (gs *Service) SetSnapshotMin(n int) { gs.snapMin = n }

// Use is the cache's count of games and estimated bytes.
func (gs *Service) Use() (games, bytes int) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	return gs.lru.Len(), gs.bytes
}

// Keep replays save as game id and keeps it in the cache, as a read from
// the store does.
func (gs *Service) Keep(id, save string) error {
	e, err := replay(Game{ID: id, Save: save})
	if err != nil {
		return err
	}
	gs.mu.Lock()
	gs.put(e)
	gs.mu.Unlock()
	return nil
}
