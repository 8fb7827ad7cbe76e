package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"cardtable/internal/arlclient"
)

// arlIdentities reads an identity file as connect wrote it, failing tb
// unless it is a private regular file connect can read back.
func arlIdentities(tb testing.TB, path string) map[string]string {
	tb.Helper()
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		tb.Fatalf("%s has mode %04o, want 0600", path, perm)
	}
	m, err := loadIdentities(path)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// arlGamesOf counts the finished games of the player token stands for
// (GET /api/arlington/games, as the games page asks).
func arlGamesOf(tb testing.TB, server, token string) int {
	tb.Helper()
	req, err := http.NewRequest(http.MethodGet, strings.TrimSuffix(server, "/")+"/api/arlington/games", nil)
	if err != nil {
		tb.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: arlclient.IdentityCookie, Value: token})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var ans struct {
		Games []json.RawMessage `json:"games"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&ans); err != nil || resp.StatusCode != http.StatusOK {
		tb.Fatalf("games: %d %v", resp.StatusCode, err)
	}
	return len(ans.Games)
}

func TestArlingtonConnectIdentityKept(t *testing.T) {
	// A player's identity outlives the run, as a browser's cookie does: a
	// second run with the same file keeps the name it was rated under and
	// is the same player; without the file (the control) the name is
	// another player's, and the refusal says why.
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("HOME", filepath.Join(dir, "home"))
	def := filepath.Join(dir, "config", "cardtable", identityFileName)
	url, serverLog := serveInProcess(t, "--db", filepath.Join(dir, "t.db"))
	rated := func() string {
		return arlNewTable(t, url, "--seats", "human,greedy", "--target", "1", "--rated")
	}

	// A bot's run keeps no identity unless told to: several started at
	// once would otherwise share one seat.
	out, errs, code := arlRun(t, "", "arlington", "connect", rated(), "--bot", "greedy", "--name", "Bot run")
	if code != exitOK {
		t.Fatalf("a bot's run: exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(def); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a bot's run without --identity kept an identity file: %v", err)
	}

	// A person's first run keeps its identity in the default file.
	log := filepath.Join(dir, "first.jsonl")
	out, errs, code = arlRun(t, strings.Repeat("auto\n", 400), "arlington", "connect", rated(), "--log", log, "--name", "Ann")
	arlCheckFinished(t, arlClient{code, out, errs, log})
	if !strings.Contains(errs, "kept in "+def) {
		t.Fatalf("the first run did not say where its identity is kept:\n%s", errs)
	}
	if st, err := os.Stat(filepath.Dir(def)); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("the identity's directory: %v %v, want mode 0700", st.Mode(), err)
	}
	ids := arlIdentities(t, def)
	origin, _ := arlclient.CanonicalOrigin(strings.TrimSuffix(url, "/"))
	token := ids[origin]
	if len(ids) != 1 || token == "" {
		t.Fatalf("identity file holds %d entries, %s's is %d characters", len(ids), origin, len(token))
	}
	kept, _ := os.ReadFile(def)

	// The second run, with the file named, is the same player.
	_, wait := arlConnect(t, rated(), "", "--bot", "greedy", "--name", "Ann", "--identity", def)
	second := wait()
	arlCheckFinished(t, second)
	if now, _ := os.ReadFile(def); !bytes.Equal(now, kept) {
		t.Fatalf("the file changed on a run with the same identity:\n%s\n%s", kept, now)
	}
	if n := arlGamesOf(t, url, token); n != 2 {
		t.Fatalf("the kept identity has %d finished games, want 2 (both runs')", n)
	}

	// The controls: with no identity kept, and with another file, Ann is
	// another player's name.
	for _, tc := range []struct{ flag, want string }{
		{"", "(this run keeps no identity, so it is a new player"},
		{filepath.Join(dir, "other.json"), "(this run is a new player to this server: " + filepath.Join(dir, "other.json") + " held no identity for it"},
	} {
		_, wait = arlConnect(t, rated(), "", "--bot", "greedy", "--name", "Ann", "--identity", tc.flag)
		c := wait()
		want := `"Ann" is another rated player's name; choose another with --name ` + tc.want
		if c.code != exitFail || !strings.Contains(c.err, want) {
			t.Fatalf("--identity %q: exit %d, want %d; stderr %q, want %q in it", tc.flag, c.code, exitFail, c.err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "other.json")); err == nil {
		t.Fatal("a refused run saved its identity")
	}
	// A file that does hold an identity for this server, Bob's: Ann's
	// name is still another player's, and the refusal names the file.
	bob := filepath.Join(dir, "bob.json")
	_, wait = arlConnect(t, rated(), "", "--bot", "greedy", "--name", "Bob", "--identity", bob)
	arlCheckFinished(t, wait())
	_, wait = arlConnect(t, rated(), "", "--bot", "greedy", "--name", "Ann", "--identity", bob)
	if c, want := wait(), "(this run's identity is the one kept in "+bob+"; the name was rated under another"; c.code != exitFail || !strings.Contains(c.err, want) {
		t.Fatalf("Bob's identity as Ann: exit %d, stderr %q, want %q in it", c.code, c.err, want)
	}

	// The token is a secret: no output, message log or server log shows it.
	for name, s := range map[string]string{"stdout": out + second.out, "stderr": errs + second.err, "server log": serverLog.String()} {
		if strings.Contains(s, token) {
			t.Fatalf("the token is in the %s", name)
		}
	}
	for _, l := range []string{log, second.log} {
		if b, _ := os.ReadFile(l); len(b) == 0 || bytes.Contains(b, []byte(token)) {
			t.Fatalf("%s is empty or holds the token", l)
		}
	}
}

func TestArlingtonConnectIdentityRetakesSeat(t *testing.T) {
	// A run that left a started game (its input ended) is followed by one
	// with the same identity file: it is given the seat back. A run
	// without it (the control) is refused: the game has started.
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--turn-timer", "off")
	path := filepath.Join(t.TempDir(), "identity.json")
	for run := 1; run <= 2; run++ {
		_, wait := arlConnect(t, link, "legal\n", "--identity", path)
		c := wait()
		if c.code != exitOK || !strings.Contains(c.out, "you are seat 1") {
			t.Fatalf("run %d: exit %d:\n%s\n%s", run, c.code, c.out, c.err)
		}
	}
	_, wait := arlConnect(t, link, "legal\n", "--identity", "")
	if c := wait(); c.code != exitFail || !strings.Contains(c.err, "the game has started") {
		t.Fatalf("without the identity: exit %d:\n%s\n%s", c.code, c.out, c.err)
	}
}

func TestArlingtonConnectIdentityReplaced(t *testing.T) {
	// A token the server does not accept is replaced by the one it issues
	// and the run says so; another server's entry survives the save.
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	origin, _ := arlclient.CanonicalOrigin(strings.TrimSuffix(url, "/"))
	path := filepath.Join(t.TempDir(), "identity.json")
	const other, otherToken = "https://cards.example:443", "OTHERSERVERSTOKEN234567ABC"
	old := map[string]string{other: otherToken, origin: "not-a-server-token"}
	b, _ := json.Marshal(old)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", "1")
	_, wait := arlConnect(t, link, "", "--bot", "greedy", "--identity", path)
	c := wait()
	arlCheckFinished(t, c)
	if !strings.Contains(c.err, "did not accept the identity kept in "+path) {
		t.Fatalf("no word of the replaced identity:\n%s", c.err)
	}
	ids := arlIdentities(t, path)
	if ids[other] != otherToken || len(ids) != 2 {
		t.Fatalf("another server's entry was lost: %d entries", len(ids))
	}
	if tok := ids[origin]; tok == old[origin] || arlGamesOf(t, url, tok) != 1 {
		t.Fatalf("the saved token is not the one the server knows the player by")
	}
}

func TestArlingtonConnectIdentityFileRefused(t *testing.T) {
	// A file connect cannot use whole is refused before any request, with
	// the file named and what to do, and left as it is. No server is
	// needed: the link's port is closed (one this test listened on and
	// closed), and a run that got past the file would fail on it with
	// another message. ORIGIN in the cases stands for that server.
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	origin := "http://" + ln.Addr().String()
	ln.Close()
	link := origin + "/arlington/t/ABC"
	good := `{"ORIGIN": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}`
	for _, tc := range []struct {
		name, contents string
		mode           os.FileMode
		want           string
	}{
		{"junk", "not json", 0o600, "is damaged (not a JSON object"},
		{"list", `["ABCDEFGHIJKLMNOPQRSTUVWXYZ"]`, 0o600, "is damaged (not a JSON object"},
		{"null", "null", 0o600, "is damaged (not a JSON object of server to token: null)"},
		{"number", `{"ORIGIN": 7}`, 0o600, "is damaged (the entry of ORIGIN is not a string)"},
		{"path", `{"ORIGIN/arlington": "TOKEN"}`, 0o600, `is damaged ("ORIGIN/arlington" is not a server's origin`},
		{"no port", `{"http://localhost": "TOKEN"}`, 0o600, `is damaged ("http://localhost" is not a server's origin`},
		{"turned around", `{"ABCDEFGHIJKLMNOPQRSTUVWXYZ": "ORIGIN"}`, 0o600, "is damaged (a key is not a server's origin"},
		{"spaces", `{"ORIGIN": "two words"}`, 0o600, "is damaged (the entry of ORIGIN is not an identity token"},
		{"two objects", good + good, 0o600, "is damaged (not a JSON object"},
		{"huge", `{"ORIGIN": "` + strings.Repeat("A", maxIdentityFile) + `"}`, 0o600, "is longer than 64 KiB"},
		{"readable", good, 0o644, "can be read or written by others (mode 0644)"},
		{"writable", good, 0o620, "can be read or written by others (mode 0620)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.contents = strings.ReplaceAll(tc.contents, "ORIGIN", origin)
			tc.want = strings.ReplaceAll(tc.want, "ORIGIN", origin)
			path := filepath.Join(dir, tc.name+".json")
			if err := os.WriteFile(path, []byte(tc.contents), tc.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tc.mode); err != nil { // past the umask
				t.Fatal(err)
			}
			out, errs, code := arlRun(t, "", "arlington", "connect", link, "--identity", path)
			if code != exitUsage || !strings.Contains(errs, path+" "+tc.want) || !strings.Contains(errs, `--identity ""`) || out != "" ||
				strings.Contains(errs, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
				t.Fatalf("exit %d, want %d; stderr %q, want %q in it", code, exitUsage, errs, tc.want)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.contents {
				t.Fatal("the file was changed")
			}
		})
	}
	t.Run("directory", func(t *testing.T) {
		_, errs, code := arlRun(t, "", "arlington", "connect", link, "--identity", dir)
		if code != exitUsage || !strings.Contains(errs, "is a directory") {
			t.Fatalf("exit %d: %s", code, errs)
		}
	})
	t.Run("control", func(t *testing.T) {
		// The good file passes the file's checks and the run fails at the
		// closed port: the refusals above came from the file.
		path := filepath.Join(dir, "good.json")
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(good, "ORIGIN", origin)), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errs, code := arlRun(t, "", "arlington", "connect", link, "--identity", path)
		if code != exitFail || !strings.Contains(errs, "cannot reach http:") {
			t.Fatalf("exit %d: %s", code, errs)
		}
	})
}

func TestSaveIdentity(t *testing.T) {
	// The file is made private in a private directory, replaced whole
	// (no temporary file left), through a symbolic link the link stays,
	// and a file that cannot be read whole is not rewritten.
	dir := t.TempDir()
	const origin = "http://127.0.0.1:8080"
	nested := filepath.Join(dir, "a", "b", identityFileName)
	if err := saveIdentity(nested, origin, "", "TOKEN1"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Dir(nested)); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("directory: %v %v", st.Mode(), err)
	}
	if m := arlIdentities(t, nested); !reflect.DeepEqual(m, map[string]string{origin: "TOKEN1"}) {
		t.Fatalf("saved %v", m)
	}
	target := filepath.Join(dir, "kept.json")
	if err := os.WriteFile(target, []byte(`{"https://cards.example:443": "OTHER"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := saveIdentity(link, origin, "", "TOKEN2"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	if m := arlIdentities(t, target); !reflect.DeepEqual(m, map[string]string{origin: "TOKEN2", "https://cards.example:443": "OTHER"}) {
		t.Fatalf("saved %v", m)
	}
	// Two runs that started with no identity for origin: the one saving
	// second leaves the first's, which that run was told is kept; a run
	// whose kept identity the server replaced does replace it.
	before, _ := os.ReadFile(target)
	if err := saveIdentity(target, origin, "", "TOKEN3"); err == nil || !strings.Contains(err.Error(), "another run kept its identity at "+origin) {
		t.Fatalf("a save over another run's identity: %v", err)
	}
	if after, _ := os.ReadFile(target); !bytes.Equal(after, before) {
		t.Fatal("another run's identity was replaced")
	}
	if err := saveIdentity(target, origin, "TOKEN2", "TOKEN3"); err != nil {
		t.Fatal(err)
	}
	if m := arlIdentities(t, target); m[origin] != "TOKEN3" {
		t.Fatalf("saved %v", m)
	}
	// An entry removed by hand while the run played is no other run's:
	// the run's identity takes its place.
	if err := saveIdentity(target, "http://gone.example:80", "REMOVED", "TOKEN4"); err != nil {
		t.Fatal(err)
	}
	if m := arlIdentities(t, target); m["http://gone.example:80"] != "TOKEN4" {
		t.Fatalf("saved %v", m)
	}
	// A file with no room for another entry is left as it is: written, it
	// would be over the size every run refuses to read.
	full := filepath.Join(dir, "full.json")
	many := map[string]string{}
	for i := range (maxIdentityFile - 250) / 138 { // entries of 138 bytes
		many[fmt.Sprintf("http://server%04d.example:80", i)] = strings.Repeat("A", 100)
	}
	b, _ := json.MarshalIndent(many, "", "  ")
	if len(b) > maxIdentityFile-100 || len(b) < maxIdentityFile-400 {
		t.Fatalf("the full file is %d bytes, not just under %d", len(b), maxIdentityFile)
	}
	if err := os.WriteFile(full, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := saveIdentity(full, origin, "", strings.Repeat("B", arlclient.MaxToken)); err == nil || !strings.Contains(err.Error(), "no room for another server's entry") {
		t.Fatalf("a save past the size limit: %v", err)
	}
	if after, _ := os.ReadFile(full); !bytes.Equal(after, b) {
		t.Fatal("the full file was rewritten")
	}
	if err := saveIdentity(full, origin, "", "B"); err != nil { // the control: a short entry fits
		t.Fatal(err)
	}
	if m := arlIdentities(t, full); len(m) != len(many)+1 {
		t.Fatalf("%d entries, want %d", len(m), len(many)+1)
	}
	damaged := filepath.Join(dir, "damaged.json")
	if err := os.WriteFile(damaged, []byte(`{"https://cards.example:443": "OTHER",}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := saveIdentity(damaged, origin, "", "TOKEN3"); err == nil || !errors.Is(err, errIdentityFile) {
		t.Fatalf("a damaged file: %v", err)
	}
	if b, _ := os.ReadFile(damaged); string(b) != `{"https://cards.example:443": "OTHER",}` {
		t.Fatal("the damaged file was rewritten")
	}
	for _, d := range []string{dir, filepath.Dir(nested)} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") { // the temporary file's name
				t.Fatalf("%s left in %s", e.Name(), d)
			}
		}
	}
}

func TestParseIdentities(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]string
	}{
		{"", map[string]string{}},
		{" \n", map[string]string{}},
		{"{}", map[string]string{}},
		{`{"https://[::1]:8443": "A", "http://cards.example:80": "B"}`, map[string]string{"https://[::1]:8443": "A", "http://cards.example:80": "B"}},
	} {
		got, err := parseIdentities([]byte(tc.in))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v %v, want %v", tc.in, got, err, tc.want)
		}
	}
}

// FuzzParseIdentities: any contents are read whole or refused, never in
// part; what is read is what connect would send, and reads back the same
// once written.
func FuzzParseIdentities(f *testing.F) {
	f.Add([]byte(`{"http://127.0.0.1:8080": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}`))
	f.Add([]byte(`{"https://cards.example:443": "A", "http://[::1]:80": "B"}`))
	f.Add([]byte(`{"http://x:1": 7}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseIdentities(b)
		if err != nil {
			if m != nil {
				t.Fatal("entries with an error")
			}
			return
		}
		for k, v := range m {
			if o, err := arlclient.CanonicalOrigin(k); err != nil || o != k || !arlclient.ValidToken(v) {
				t.Fatalf("kept %q: %q", k, v)
			}
		}
		out, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		again, err := parseIdentities(out)
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("written and read back: %v %v", again, err)
		}
	})
}

// With no config directory to keep it in, a person's run still plays,
// with an identity for this run only, and says so.
func TestArlingtonConnectIdentityNoConfigDir(t *testing.T) {
	dir := t.TempDir()
	url, _ := serveInProcess(t, "--db", filepath.Join(dir, "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", "1")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "")
	out, errs, code := arlRun(t, strings.Repeat("auto\n", 400), "arlington", "connect", link, "--name", "Ann")
	if code != exitOK || !strings.Contains(errs, "kept for this run only") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}
