//go:build !unix

package cli

// cpuSeconds cannot read the CPU time here; bench prints 0.
func cpuSeconds() float64 { return 0 }
