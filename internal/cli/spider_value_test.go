package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
	if err := writeValueData(f, samples); err != nil {
		t.Fatal(err)
	}
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
		{"--held", "300-500"},
		{"--deals", "1001-18446744073709551615"},
		{"--deals", "1001-1000"},
		{"--label-nodes", "0"},
		{"--jobs", "0"},
		{"--value-ahead", "3"},
		{"--data-in", data, "--out", filepath.Join(dir, "no", "value.txt")},
	} {
		if _, _, code := run(t, "", append([]string{"spider", "value-train"}, args...)...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if _, errOut, code := run(t, "", "spider", "value-train", "--data-in", data, "--out", dir); code == 0 || !strings.Contains(errOut, "directory") {
		t.Errorf("--out a directory: exit %d, %q", code, errOut)
	}
	if text2, _ := os.ReadFile(model); string(text2) != string(text) {
		t.Error("a failed run changed the model file")
	}
}

// TestParseValueData: a hand-edited or cut-short data file is refused,
// naming the file and line.
func TestParseValueData(t *testing.T) {
	var b strings.Builder
	writeValueData(&b, []solver.ValueSample{{Deal: 1001, Won: true}, {Deal: 1002}})
	good := b.String()
	if s, err := parseValueData("d", good); err != nil || len(s) != 2 || !s[0].Won || s[1].Won {
		t.Fatalf("good data: %v, %v", s, err)
	}
	for _, tt := range []struct{ name, text string }{
		{"cut short", good[:len(good)-5]},
		{"won not 0 or 1", strings.Replace(good, "1001 1", "1001 yes", 1)},
		{"bad deal", strings.Replace(good, "1001 1", "x 1", 1)},
		{"deal 0", strings.Replace(good, "1001 1", "0 1", 1)},
		{"not finite", strings.Replace(good, "1001 1 0", "1001 1 NaN", 1)},
		{"empty", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := parseValueData("d", tt.text); err == nil || !strings.HasPrefix(err.Error(), "d:") {
				t.Fatalf("error %v, want one naming the file", err)
			}
		})
	}
}

// Whatever a data file holds is read or refused without a panic, and what
// is read writes back as lines that read the same.
func FuzzParseValueData(f *testing.F) {
	var b strings.Builder
	writeValueData(&b, []solver.ValueSample{{Deal: 1001, Won: true, X: [len(solver.ValueSample{}.X)]float64{1, 0.5, -2e-7}}})
	for _, s := range []string{b.String(), b.String() + b.String(), "", "1001 1", "1001 2 " + strings.Repeat("0 ", 19), "1001 1 " + strings.Repeat("Inf ", 19)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := parseValueData("d", text)
		if err != nil {
			return
		}
		var w strings.Builder
		writeValueData(&w, s)
		back, err := parseValueData("d", w.String())
		if err != nil || len(back) != len(s) {
			t.Fatalf("%q read as %d samples, written as %q, read back as %d (%v)", text, len(s), w.String(), len(back), err)
		}
		for i := range s {
			if back[i] != s[i] {
				t.Fatalf("sample %d read back as %v, want %v", i, back[i], s[i])
			}
		}
	})
}

// TestValueNeedsAModel: --value at a suit count with no learned value is
// refused (exit 2) rather than playing the usual player unannounced.
func TestValueNeedsAModel(t *testing.T) {
	for _, args := range [][]string{
		{"spider", "autoplay", "--value", "--suits", "1", "--deal", "1"},
		{"spider", "bench", "--mode", "autoplay", "--value", "--suits", "2", "--deals", "1-1"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			_, errOut, code := run(t, "", args...)
			if code != exitUsage || !strings.Contains(errOut, "no learned value") {
				t.Errorf("%v: exit %d, %q", args, code, errOut)
			}
		})
	}
}

// TestWriteValueDataFull: a write that fails (a full disk) is reported,
// so value-train stops rather than drop labelled positions.
func TestWriteValueDataFull(t *testing.T) {
	if err := writeValueData(fullWriter{}, []solver.ValueSample{{Deal: 1001, Won: true}}); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("writing to a full disk: %v, want ENOSPC", err)
	}
}

// fullWriter fails every write as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestValueDataBounded: --data-in reads a file as every file a command
// reads: one over the size limit is refused unread and a line over the
// line limit is refused, each with an error naming the limit (exit 2).
// The model file is not written. (A FIFO: TestLoadRefusesFIFO.)
func TestValueDataBounded(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	writeValueData(&b, []solver.ValueSample{{Deal: 1001, Won: true}, {Deal: 3001}})
	good := b.String()
	huge := filepath.Join(dir, "huge.txt")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: the size says too big without writing it.
	if _, err := f.WriteString(good); err != nil || f.Truncate(maxValueData+1) != nil {
		t.Fatal(err)
	}
	f.Close()
	long := filepath.Join(dir, "long.txt")
	longLine := "1001 1" + strings.Repeat(" 0", maxValueLine)
	if err := os.WriteFile(long, []byte(good+longLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "value.txt")
	for _, tt := range []struct{ name, file, says string }{
		{"too large", huge, "larger than 134217728 bytes, the limit"},
		{"line too long", long, "long.txt:3: line longer than 1024 bytes, the limit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, "", "spider", "value-train", "--data-in", tt.file,
				"--deals", "1001-1001", "--held", "3001-3001", "--out", model)
			if code != exitUsage || !strings.Contains(errOut, tt.says) {
				t.Fatalf("exit %d, %q; want %d saying %q", code, errOut, exitUsage, tt.says)
			}
			if _, err := os.Stat(model); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("a refused run wrote the model: %v", err)
			}
		})
	}
	if _, err := parseValueData("d", good+longLine); err == nil || !strings.Contains(err.Error(), "d:3: line longer than") {
		t.Errorf("a long last line: %v", err)
	}
}
