// Package ascii reads words in ASCII case only, for the rules packages
// (commands, save files) and the web layer (JSON keys) alike: Unicode's
// case mapping would also take look-alikes of other scripts for Latin
// letters ("SPİDER", "moveſ", "\u212Aind" with the Kelvin sign), which
// nothing the program writes contains. It imports nothing, so any
// package may use it.
package ascii

// Lower is s with the ASCII capitals A to Z made small and nothing else
// changed.
func Lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lower(b[j])
			}
			return string(b)
		}
	}
	return s
}

// Equal reports whether a and b are the same in ASCII case only ("Suits"
// is "suits"; "ſuits" is not).
func Equal(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
