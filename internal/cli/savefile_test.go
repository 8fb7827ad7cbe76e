package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// saveGames are the two games' terminal play, each saving to a file:
// the script's output and the first line a good save starts with.
var saveGames = []struct {
	name   string
	header string
	save   func(tb testing.TB, file string) string
}{
	{"spider", "cardtable spider 1\n", func(tb testing.TB, file string) string {
		out, errOut, code := run(tb, "save "+file+"\nquit\n", "spider", "play", "--deal", "1")
		if code != 0 {
			tb.Fatalf("exit %d: %s", code, errOut)
		}
		return out
	}},
	{"arlington", "arlington record 1\n", func(tb testing.TB, file string) string {
		out, errOut, code := arlRun(tb, "save "+file+"\nquit\n", "arlington", "play", "--players", "2", "--seed", "3")
		if code != 0 {
			tb.Fatalf("exit %d: %s", code, errOut)
		}
		return out
	}},
}

// A save through a symbolic link writes the file the link names and
// leaves the link a link, with that file's permissions kept; a link to a
// file not there yet creates that file.
func TestSaveFollowsSymlinks(t *testing.T) {
	for _, g := range saveGames {
		t.Run(g.name, func(t *testing.T) {
			dir := t.TempDir()
			sub := filepath.Join(dir, "saves")
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			real := filepath.Join(sub, "real.txt")
			if err := os.WriteFile(real, []byte("old\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, "game.txt")
			// A relative link, read from the link's own directory; and a
			// link to that link.
			if err := os.Symlink(filepath.Join("saves", "real.txt"), link); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			chain := filepath.Join(dir, "chain.txt")
			if err := os.Symlink(link, chain); err != nil {
				t.Fatal(err)
			}
			dangling := filepath.Join(dir, "new.txt")
			if err := os.Symlink(filepath.Join(sub, "made.txt"), dangling); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{link, chain, dangling} {
				out := g.save(t, name)
				if !strings.Contains(out, "saved to "+name) {
					t.Fatalf("save %s:\n%s", name, out)
				}
				if fi, err := os.Lstat(name); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Fatalf("%s is no longer a symbolic link: %v %v", name, fi.Mode(), err)
				}
			}
			for file, mode := range map[string]os.FileMode{real: 0o600, filepath.Join(sub, "made.txt"): 0o644} {
				b, err := os.ReadFile(file)
				if err != nil || !strings.HasPrefix(string(b), g.header) {
					t.Fatalf("%s: %v %q", file, err, b)
				}
				if fi, _ := os.Stat(file); fi.Mode().Perm() != mode {
					t.Errorf("%s: mode %v, want %v", file, fi.Mode().Perm(), mode)
				}
			}
			// Nothing else was made: no temporary files, no file beside
			// the links.
			for d, want := range map[string]int{dir: 4, sub: 2} {
				if entries, _ := os.ReadDir(d); len(entries) != want {
					t.Errorf("%s holds %d entries, want %d: %v", d, len(entries), want, entries)
				}
			}
		})
	}
}

// A directory, a link to one, a name ending in a separator and a loop of
// links are refused and left as they were; play goes on. Devices
// and pipes: savefile_unix_test.go.
func TestSaveRefusesNonRegular(t *testing.T) {
	for _, g := range saveGames {
		t.Run(g.name, func(t *testing.T) {
			dir := t.TempDir()
			toDir := filepath.Join(dir, "to-dir")
			loop := filepath.Join(dir, "loop")
			if err := os.Symlink(dir, toDir); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			if err := os.Symlink(loop, loop); err != nil {
				t.Fatal(err)
			}
			cases := map[string]string{
				dir:                            "it is a directory",
				toDir:                          "it is a directory",
				dir + string(os.PathSeparator): "it names a directory",
				loop:                           "too many levels of symbolic links",
			}
			for name, reason := range cases {
				out := g.save(t, name)
				if want := "cannot save to " + name + ": " + reason; !strings.Contains(out, want) {
					t.Errorf("no %q in\n%s", want, out)
				}
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 2 {
				t.Errorf("files left in the directory: %v", entries)
			}
		})
	}
}
