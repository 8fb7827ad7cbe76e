package webtest

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// Log is a log destination the handlers' goroutines write to while a
// test reads it: a JSON or text slog handler over it.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is the text written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Lines decodes the JSON log lines written so far.
func (l *Log) Lines(tb testing.TB) []map[string]any {
	tb.Helper()
	var out []map[string]any
	for line := range strings.Lines(l.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			tb.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// Failed is the "request failed" lines of path so far.
func (l *Log) Failed(tb testing.TB, path string) []map[string]any {
	tb.Helper()
	var out []map[string]any
	for _, m := range l.Lines(tb) {
		if m["msg"] == "request failed" && m["path"] == path {
			out = append(out, m)
		}
	}
	return out
}
