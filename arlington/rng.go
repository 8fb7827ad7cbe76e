package arlington

// Rand is a small deterministic generator (SplitMix64). The engine draws
// the cut and every shuffle from one, seeded by New; bots use their own.
// It is not for cryptography: deals must be reproducible, not secret from
// someone who knows the seed (the server keeps seeds to itself).
type Rand struct{ s uint64 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) *Rand { return &Rand{s: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Intn returns a uniform number in [0, n) for n > 0, without modulo bias.
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	un := uint64(n)
	limit := ^uint64(0) - ^uint64(0)%un
	for {
		if x := r.Uint64(); x < limit {
			return int(x % un)
		}
	}
}
