package cli

// What arlington loadtest reads of a process: memory and CPU time from
// /proc (Linux), the Go runtime's figures for this process.

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// memWatch samples a process's memory while the run plays.
type memWatch struct {
	pid  int
	self bool // the process is this one: read its runtime directly
	mu   sync.Mutex
	m    memory
}

func newMemWatch(process string, pid int) *memWatch {
	return &memWatch{pid: pid, m: memory{Process: process}}
}

// runtime takes a line of the child's runtime figures.
func (w *memWatch) runtime(l serverLine) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.m.PeakHeapMB = max(w.m.PeakHeapMB, l.HeapMB)
	w.m.PeakSysMB = max(w.m.PeakSysMB, l.SysMB)
	w.m.PeakRoutines = max(w.m.PeakRoutines, l.Goroutines)
}

// watch samples every half second until ctx ends, and once more then.
func (w *memWatch) watch(ctx context.Context) {
	if w.pid == 0 {
		return
	}
	sampleEvery(ctx, 500*time.Millisecond, w.sample)
}

// sampleEvery calls sample at once, every d, and once more when ctx
// ends; then it returns.
func sampleEvery(ctx context.Context, d time.Duration, sample func()) {
	tick := time.NewTicker(d)
	defer tick.Stop()
	for {
		sample()
		select {
		case <-ctx.Done():
			sample()
			return
		case <-tick.C:
		}
	}
}

func (w *memWatch) sample() {
	rss, hwm := procMemory(w.pid)
	if w.self {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.runtime(serverLine{HeapMB: mb(ms.HeapInuse), SysMB: mb(ms.Sys), Goroutines: runtime.NumGoroutine()})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if rss > 0 {
		w.m.EndRSSMB = rss
	}
	w.m.PeakRSSMB = max(w.m.PeakRSSMB, hwm, rss)
}

func (w *memWatch) result() memory {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.m
}

// procCPU is a process's CPU time so far (user and system), in seconds;
// 0 where unknown.
func procCPU(pid int) float64 {
	if pid == 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces: count from after it.
	_, rest, ok := strings.Cut(string(b), ") ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return (utime + stime) / clockTicks
}

// clockTicks is the kernel's USER_HZ, 100 on every Linux port.
const clockTicks = 100

// procMemory is a process's resident memory now and at its peak
// (VmRSS and VmHWM of /proc/PID/status), in MB; 0 where unknown.
func procMemory(pid int) (rss, hwm float64) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		name, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(val)
		if len(f) != 2 || f[1] != "kB" {
			continue
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		switch name {
		case "VmRSS":
			rss = kb / 1024
		case "VmHWM":
			hwm = kb / 1024
		}
	}
	return rss, hwm
}
