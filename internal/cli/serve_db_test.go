package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cardtable/internal/store"
)

// TestServeRefusesBadDatabase: serve will not start on a database it must
// not or cannot use; it says why and what to do, and exits 1 at once.
func TestServeRefusesBadDatabase(t *testing.T) {
	tests := []struct {
		name string
		make func(tb testing.TB, path string)
		want []string
	}{
		{"in use", func(tb testing.TB, path string) {
			db, err := store.Open(context.Background(), path)
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { db.Close() })
		}, []string{"in use by another cardtable server", "stop the other one"}},
		{"not a database", func(tb testing.TB, path string) {
			if err := os.WriteFile(path, bytes.Repeat([]byte("not a database\n"), 100), 0o644); err != nil {
				tb.Fatal(err)
			}
		}, []string{"is damaged", "backup"}},
		{"read-only", func(tb testing.TB, path string) {
			db, err := store.Open(context.Background(), path)
			if err != nil {
				tb.Fatal(err)
			}
			db.Close()
			makeReadOnly(tb, path)
		}, []string{"is read-only", "writable"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cardtable.db")
			tc.make(t, path)
			// Were it to start serving, the timeout would end it with 0.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var out, errb bytes.Buffer
			code := Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", path}, nil, &out, &errb)
			msg := errb.String()
			if code != exitFail || !strings.HasPrefix(msg, "cardtable: ") || !strings.Contains(msg, path) {
				t.Fatalf("exit %d, stderr %q", code, msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr %q lacks %q", msg, w)
				}
			}
		})
	}
}

// makeReadOnly makes path unwritable for this process until the test ends:
// by permission bits, or as root (who ignores them) by chattr +i. The test
// is skipped where neither is possible.
func makeReadOnly(tb testing.TB, path string) {
	tb.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(path, 0o444); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { os.Chmod(path, 0o644) })
		return
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		tb.Skipf("running as root, and chattr +i is not available here to make a read-only file: %v %s", err, out)
	}
	tb.Cleanup(func() {
		if out, err := exec.Command("chattr", "-i", path).CombinedOutput(); err != nil {
			tb.Errorf("chattr -i %s: %v %s", path, err, out)
		}
	})
}

// TestServeDatabaseDeleted: when the database file is deleted under a
// running server, the next write is answered 503 rather than acknowledged
// and lost, and the server logs why.
func TestServeDatabaseDeleted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cardtable.db")
	url, errb := serveInProcess(t, "--db", path)
	if _, err := post(t, url+"api/games", `{"deal":"1"}`, http.StatusCreated); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url+"api/games", "application/json", strings.NewReader(`{"deal":"2"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "restart the server") {
		t.Fatalf("write after the file was deleted: %s %s", resp.Status, body)
	}
	if log := errb.String(); !strings.Contains(log, "deleted or replaced") || !strings.Contains(log, "level=ERROR") {
		t.Fatalf("not logged: %s", log)
	}
}

// TestServeJSONLogsTheSwap: with --log-format json, the store's own
// line about its file deleted under the server is a JSON line of the
// server's log like every other, not a line of Go's default logger that a
// log pipeline parsing JSON would drop.
func TestServeJSONLogsTheSwap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cardtable.db")
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", path, "--log-format", "json")
	if _, err := post(t, s.url+"api/games", `{"deal":"1"}`, http.StatusCreated); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.url+"api/games", "application/json", strings.NewReader(`{"deal":"2"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("write after the file was deleted: %s", resp.Status)
	}
	const swapped = "the database file was swapped under the server"
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(s.log.String(), swapped); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the store's line %q is not in the server's log:\n%s", swapped, s.log)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(s.log.String()), "\n") {
		var rec struct{ Level, Msg string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("not a JSON line: %q", line)
			continue
		}
		if strings.Contains(rec.Msg, swapped) && rec.Level != "ERROR" {
			t.Errorf("the swap logged at %s, want ERROR: %q", rec.Level, line)
		}
	}
}

// TestServeSecondProcessRefused: a server in another process holds the
// database; serve through a hard link or a symlink to it is refused.
func TestServeSecondProcessRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cardtable.db")
	c := startChild(t, path)
	if _, err := post(t, c.url+"api/games", `{"deal":"1"}`, http.StatusCreated); err != nil {
		t.Fatal(err)
	}
	hard, sym := filepath.Join(dir, "hard.db"), filepath.Join(dir, "sym.db")
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(path, sym); err != nil {
		t.Fatal(err)
	}
	for _, alias := range []string{hard, sym} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		var errb bytes.Buffer
		code := Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", alias}, nil, io.Discard, &errb)
		cancel()
		if code != exitFail || !strings.Contains(errb.String(), "in use by another cardtable server") {
			t.Errorf("serve --db %s: exit %d, %s", alias, code, errb.String())
		}
	}
}

// TestServeDatabaseRenamed: the database file renamed under a running
// server (mv ct.db moved.db) after games were played and saved, then many
// parallel reads: the renamed file holds every acknowledged save by itself
// and passes SQLite's integrity check, nothing is created at the old path,
// and the next write is answered 503 with what to do.
func TestServeDatabaseRenamed(t *testing.T) {
	dir := t.TempDir()
	path, moved := filepath.Join(dir, "ct.db"), filepath.Join(dir, "moved.db")
	url, _ := serveInProcess(t, "--db", path)
	const games = 10
	for i := range games {
		g, err := post(t, url+"api/games", fmt.Sprintf(`{"deal":"%d"}`, i+1), http.StatusCreated)
		if err != nil {
			t.Fatal(err)
		}
		put(t, url+"api/saves/s"+fmt.Sprint(i), `{"game":"`+g.ID+`"}`, http.StatusOK)
	}
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				resp, err := browser.Get(url + "api/saves")
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || strings.Count(string(b), `"name"`) != games {
					t.Errorf("GET /api/saves after the rename: %s %s", resp.Status, b)
					return
				}
			}
		}()
	}
	wg.Wait()
	resp, err := http.Post(url+"api/games", "application/json", strings.NewReader(`{"deal":"99"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "restart the server") {
		t.Fatalf("write after the rename: %s %s", resp.Status, body)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file was created at the old path: %v", err)
	}
	db, err := sql.Open("sqlite", "file:"+moved+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ok string
	var n int
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity check: %q %v", ok, err)
	}
	if err := db.QueryRow("SELECT count(*) FROM saves").Scan(&n); err != nil || n != games {
		t.Fatalf("the renamed file has %d saves (%v), want the %d acknowledged", n, err, games)
	}
}

// put sends a PUT with a JSON body and fails the test on another status.
func put(tb testing.TB, url, body string, want int) {
	tb.Helper()
	req, err := http.NewRequest(http.MethodPut, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := browser.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != want {
		tb.Fatalf("PUT %s: %s %s", url, resp.Status, b)
	}
}

// sqlOpenRO opens the database at path read-only with plain database/sql.
func sqlOpenRO(path string) (*sql.DB, error) { return sql.Open("sqlite", "file:"+path+"?mode=ro") }

// TestServeSameAddressTwice: --metrics-addr (or --http-redirect-addr)
// given the address --addr listens on is bad usage (exit 2) that names
// both flags, the address given as a number or as a name (localhost); it
// was blamed on "another program" (exit 1), which was serve itself.
// Nothing is made.
func TestServeSameAddressTwice(t *testing.T) {
	for _, host := range []string{"127.0.0.1", "localhost"} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		addr := net.JoinHostPort(host, port)
		ln.Close() // free again: serve's --addr takes it
		path := filepath.Join(t.TempDir(), "cardtable.db")
		_, errOut, code := run(t, "", "serve", "--addr", addr, "--metrics-addr", addr, "--db", path)
		if want := "cardtable: serve: --metrics-addr \"" + addr + "\" is the address of --addr too: give each listener an address of its own\nRun 'cardtable serve --help' for usage.\n"; code != exitUsage || errOut != want {
			t.Errorf("exit %d, %q; want exit 2, %q", code, errOut, want)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a database file was made for a server that did not start: %v", err)
		}
	}
}

// TestServeBusyPortMakesNoDatabase: serve on an address already taken
// exits 1 naming it and saying what to do, before it makes a database
// file for a server that cannot start.
func TestServeBusyPortMakesNoDatabase(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	path := filepath.Join(t.TempDir(), "cardtable.db")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := Run(ctx, []string{"serve", "--addr", taken.Addr().String(), "--db", path}, nil, &out, &errb)
	if msg := errb.String(); code != exitFail || !strings.Contains(msg, taken.Addr().String()) || !strings.Contains(msg, "address already in use") ||
		!strings.HasSuffix(msg, ": another program is using that address (address already in use): stop it, or choose another address with --addr\n") {
		t.Fatalf("exit %d, stderr %q", code, msg)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a database file was made for a server that did not start: %v", err)
	}
}

// TestServeLowPortRefused: a user without the capability to listen below
// port 1024 (--acme's :443, :80) is told so and what to do, not Go's
// "listen tcp ...: bind: permission denied". Run as root, the server is
// this test binary acting as cardtable, run as nobody (a copy where
// nobody may run it), so that the refusal is the system's own.
func TestServeLowPortRefused(t *testing.T) {
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_unprivileged_port_start"); err == nil && strings.TrimSpace(string(b)) == "0" {
		t.Skip("every port may be listened on by any user here (ip_unprivileged_port_start is 0)")
	}
	// Not t.TempDir: its parent is the test's own, which nobody may not
	// enter.
	dir, err := os.MkdirTemp("", "lowport")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	args := []string{"serve", "--addr", "127.0.0.1:1023", "--db", filepath.Join(dir, "x.db")}
	var errOut string
	var code int
	if os.Geteuid() != 0 {
		_, errOut, code = run(t, "", args...)
	} else {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(self)
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "cardtable")
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), asMain+"=1")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err = cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("run as nobody: %v %s", err, errb.String())
		}
		errOut, code = errb.String(), exit.ExitCode()
	}
	want := "cardtable: serve: 127.0.0.1:1023: this user may not listen on a port below 1024 (permission denied): " +
		"give the program the capability (under systemd AmbientCapabilities=CAP_NET_BIND_SERVICE, as deploy/cardtable.service does; " +
		"else setcap cap_net_bind_service=+ep on the binary), or choose a port from 1024 up with --addr\n"
	if code != exitFail || errOut != want {
		t.Errorf("exit %d, %q; want exit 1, %q", code, errOut, want)
	}
}
