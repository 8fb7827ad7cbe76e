package spiderweb

import "sync"

// maxLoggedDamaged bounds the damaged saves whose warnings a server
// remembers having logged. A player keeps at most 50 saves, so nobody's
// polling can push their own out of it; past the bound the longest
// remembered is forgotten (and would be logged once more if seen again).
const maxLoggedDamaged = 1024

// logOnce remembers which warnings were logged, so that one about the
// same thing is logged once per server process however often a page asks:
// a damaged save is listed on every read of the list. At most limit keys,
// the oldest forgotten first.
type logOnce struct {
	mu    sync.Mutex
	limit int
	seen  map[string]struct{}
	order []string // keys in seen, oldest first
}

func newLogOnce(limit int) *logOnce {
	return &logOnce{limit: limit, seen: make(map[string]struct{})}
}

// first reports whether key was not seen (or was forgotten) before, and
// remembers it.
func (o *logOnce) first(key string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.seen[key]; ok {
		return false
	}
	if len(o.order) >= o.limit {
		delete(o.seen, o.order[0])
		o.order = o.order[1:]
	}
	o.seen[key] = struct{}{}
	o.order = append(o.order, key)
	return true
}

// forget drops key, so that it is logged again when next seen (a deleted
// save whose name is used for another that is damaged in turn).
func (o *logOnce) forget(key string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.seen[key]; !ok {
		return
	}
	delete(o.seen, key)
	for i, k := range o.order {
		if k == key {
			o.order = append(o.order[:i], o.order[i+1:]...)
			break
		}
	}
}
