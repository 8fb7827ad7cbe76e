//go:build unix

package cli

import "syscall"

// cpuSeconds is the CPU time the process has used so far (user and
// system), or 0 where it cannot be read. On a shared machine a bench
// deal's wall-clock time depends on the other jobs; its CPU time, with
// one deal at a time, much less.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
