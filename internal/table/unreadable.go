package table

// maxUnreadable bounds the stored tables a hub remembers having
// reported as unreadable. Past it one is forgotten, and is reported
// again if it is met again.
const maxUnreadable = 1000

// unreadable reports a stored table this hub cannot replay (a damaged
// row, or settings this server's version does not know, such as a newer
// bot level), once per table: one line through Logf with its id, what
// was done about it (skipped) and why, and one
// Observer.UnreadableTable. A player's game list is read at every visit;
// without the once, each visit would log the same table again.
func (h *Hub) unreadable(id, skipped string, err error) {
	h.umu.Lock()
	added := h.unreadables.add(id)
	h.umu.Unlock()
	if !added {
		return
	}
	h.o.Logf("table %s: %s: %v", id, skipped, err)
	h.o.Observer.UnreadableTable()
}
