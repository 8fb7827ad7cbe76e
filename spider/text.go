package spider

// LowerASCII is s with the ASCII capitals A to Z made small and nothing
// else changed. Verbs, keys and values are read in any ASCII case ("Moves:",
// "SPIDER"), but only so: Unicode case mapping would also take look-alikes
// of other scripts for Latin letters ("SPİDER", "moveſ"), which no file or
// command of the game writes.
func LowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
