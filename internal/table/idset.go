package table

import (
	"maps"
	"slices"
)

// idSet is a set of table ids bounded to max: adding past it forgets
// one id first (any), so that a store full of bad rows cannot grow it.
// A forgotten id is only handled once more, as if new.
type idSet struct {
	ids map[string]bool
	max int
}

func newIDSet(max int) idSet { return idSet{ids: map[string]bool{}, max: max} }

// add puts id in the set and reports whether it was not there before.
func (s idSet) add(id string) bool {
	if s.ids[id] {
		return false
	}
	if len(s.ids) >= s.max {
		for old := range s.ids {
			delete(s.ids, old)
			break
		}
	}
	s.ids[id] = true
	return true
}

// fits reports whether add(id) forgets nothing: id is in the set
// already, or there is room for it.
func (s idSet) fits(id string) bool { return s.ids[id] || len(s.ids) < s.max }

// remove takes id out of the set.
func (s idSet) remove(id string) { delete(s.ids, id) }

// list is the set's ids, sorted: the same order each time.
func (s idSet) list() []string { return slices.Sorted(maps.Keys(s.ids)) }
