package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dirBytes is every file under dir by its path, with its content (a
// symbolic link's: where it leads); a -shm's content is left out (nil):
// SQLite's shared index of a WAL database, which any reader writes in,
// the source's readers too.
func dirBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 { // by where it leads
			to, err := os.Readlink(path)
			files[path] = []byte("-> " + to)
			return err
		}
		if strings.HasSuffix(path, "-shm") {
			files[path] = nil
			return nil
		}
		b, err := os.ReadFile(path)
		files[path] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameDir fails unless after (dirBytes) names the files of before and
// no other, each with its content (a -shm's aside): a file made beside
// them counts, an empty one too.
func sameDir(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	for name, b := range after {
		was, ok := before[name]
		switch {
		case !ok:
			t.Errorf("%s appeared (%d bytes)", name, len(b))
		case !bytes.Equal(b, was):
			t.Errorf("%s changed (%d bytes, was %d)", name, len(b), len(was))
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			t.Errorf("%s went away", name)
		}
	}
}
