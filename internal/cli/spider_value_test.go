package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardtable/spider/solver"
)

// TestSpiderValueTrain fits a model to labelled positions read from a file
// (as --data-out writes them) and writes it where --out says; bad flags are
// usage errors.
func TestSpiderValueTrain(t *testing.T) {
	dir := t.TempDir()
	var samples []solver.ValueSample
	for i := range 40 {
		var s solver.ValueSample
		s.Deal = 1001 + uint64(i%4)
		if i%4 == 3 {
			s.Deal = 3001 // held out
		}
		s.X[0], s.X[1] = 1, float64(i%10)/10
		s.Won = i%10 < 4
		samples = append(samples, s)
	}
	data := filepath.Join(dir, "data.txt")
	f, err := os.Create(data)
	if err != nil {
		t.Fatal(err)
	}
	writeValueData(f, samples)
	f.Close()
	back, err := readValueData(data)
	if err != nil || len(back) != len(samples) || back[7] != samples[7] {
		t.Fatalf("read back %d samples, %v", len(back), err)
	}
	model := filepath.Join(dir, "value.txt")
	out, errOut, code := run(t, "", "spider", "value-train", "--data-in", data, "--deals", "1001-1010", "--held", "3001-3001", "--out", model)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	text, err := os.ReadFile(model)
	if err != nil || string(text) != out {
		t.Fatalf("model file %q (%v), printed %q", text, err, out)
	}
	for _, want := range []string{"train: 30 positions", "held-out: 10 positions", "suits 4\nbias "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, args := range [][]string{
		{"--deals", "1-10"},
		{"--label-nodes", "0"},
		{"--jobs", "0"},
		{"--value-ahead", "3"},
	} {
		if _, _, code := run(t, "", append([]string{"spider", "value-train"}, args...)...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
