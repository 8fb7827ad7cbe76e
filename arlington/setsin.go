package arlington

// Beats reports whether hand holds a legal set in spectrum sp ranked
// above active (which must be in sp): a set a seat holding hand could
// answer active with.
func Beats(hand Set, sp Spectrum, active Set) bool {
	ka, ok := KeyIn(active, sp)
	if !ok {
		return false
	}
	found := false
	setsIn(hand, sp, func(t Set) {
		if found {
			return
		}
		if k, _ := KeyIn(t, sp); k > ka {
			found = true
		}
	})
	return found
}
