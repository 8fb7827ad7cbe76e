package table

// SetStaleHook has f called (in the table's goroutine) each time a stale
// bot answer is dropped, so tests can wait for the drop.
func SetStaleHook(h *Hub, f func()) { h.onStale = f }
