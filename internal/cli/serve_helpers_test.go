package cli

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// needService finds a program a test starts itself (nginx, pebble), or
// skips the test saying so loudly; with CARDTABLE_REQUIRE_SERVICES=1 or
// CI=true (both of which .ci/run sets) a missing program fails the test
// instead: a hosting test skipped in CI is a defect.
// CARDTABLE_REQUIRE_BROWSER=1, which once did this too, still does.
func needService(tb testing.TB, names ...string) string {
	tb.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
		if filepath.IsAbs(n) {
			if _, err := os.Stat(n); err == nil {
				return n
			}
		}
	}
	msg, fail := serviceMissing(names[0], os.Getenv)
	if fail {
		tb.Fatal(msg)
	}
	tb.Skip("*** " + msg + " ***")
	return ""
}

// debianPackage names the Debian package of a program whose package has
// another name.
var debianPackage = map[string]string{"pebble-challtestsrv": "pebble"}

// serviceMissing words a missing program name's absence, and says
// whether the environment (getenv) makes it a failure; a failure names
// the variable that made it one, not one that may be unset.
func serviceMissing(name string, getenv func(string) string) (msg string, fail bool) {
	prog := filepath.Base(name)
	pkg := prog
	if p, ok := debianPackage[prog]; ok {
		pkg = p
	}
	msg = fmt.Sprintf("%s NOT FOUND: this hosting test did NOT run (Debian: apt-get install %s)", strings.ToUpper(prog), pkg)
	for _, v := range []struct{ key, val string }{
		{"CARDTABLE_REQUIRE_SERVICES", "1"},
		{"CI", "true"},
		{"CARDTABLE_REQUIRE_BROWSER", "1"},
	} {
		if getenv(v.key) == v.val {
			return msg + "; " + v.key + "=" + v.val + " makes that a failure", true
		}
	}
	return msg, false
}

// selfSigned writes a self-signed certificate for names (host names or IP
// addresses) and its key into dir, and returns their paths and a pool
// that trusts it.
func selfSigned(tb testing.TB, dir string, names ...string) (certFile, keyFile string, pool *x509.CertPool) {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: names[0]},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		tb.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		tb.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(leaf)
	return certFile, keyFile, pool
}

// logURL finds the URL the server logs, in either log format.
var logURL = regexp.MustCompile(`url(?:=|":")(https?://[^\s"]+/)`)

// served is `cardtable serve` running in this process.
type served struct {
	url  string
	log  *syncBuffer
	stop func()   // a Ctrl+C, as SignalContext tells it
	done chan int // the exit code, once stopped
}

// startServe runs `cardtable serve ARGS...` in this process until stopped
// (at the latest when the test ends; it must then exit cleanly, as it
// does after a signal: stop ends its context as SignalContext does).
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	ctx, cancelCause := context.WithCancelCause(context.Background())
	cancel := func() { cancelCause(Interrupt{Signal: os.Interrupt}) }
	s := &served{log: &syncBuffer{}, stop: cancel, done: make(chan int, 1)}
	// Exits when cancel ends the server.
	go func() { s.done <- Run(ctx, append([]string{"serve"}, args...), nil, io.Discard, s.log) }()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-s.done:
			if code != exitOK {
				t.Errorf("exit %d: %s", code, s.log)
			}
			s.done <- code
		case <-time.After(15 * time.Second):
			t.Errorf("the server did not stop in 15 s: %s", s.log)
		}
	})
	s.url = awaitURL(t, s.log, s.done, 20*time.Second)
	return s
}

// awaitURL waits, for at most within, until a server logs its URL in log
// and returns it; a server that ends first (a value on done, put back)
// fails the test.
func awaitURL[T any](tb testing.TB, log *syncBuffer, done chan T, within time.Duration) string {
	tb.Helper()
	deadline := time.Now().Add(within)
	for {
		if m := logURL.FindStringSubmatch(log.String()); m != nil {
			return m[1]
		}
		select {
		case v := <-done:
			done <- v
			tb.Fatalf("the server exited (%v): %s", v, log)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			tb.Fatalf("no URL logged: %s", log)
		}
	}
}

// listenAddr is the address the server logged for its named listener
// ("redirect", "metrics").
func (s *served) listenAddr(tb testing.TB, name string) string {
	tb.Helper()
	m := regexp.MustCompile(`msg=listening for=` + name + ` addr=(\S+)`).FindStringSubmatch(s.log.String())
	if m == nil {
		tb.Fatalf("no %s listener logged: %s", name, s.log)
	}
	return m[1]
}

// newTable creates an Arlington table through c at base (".../") and
// returns its id.
func newTable(tb testing.TB, c *http.Client, base, config string) string {
	tb.Helper()
	resp, err := c.Post(base+"api/arlington/tables", "application/json", strings.NewReader(config))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var t struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil || resp.StatusCode != http.StatusCreated {
		tb.Fatalf("new table: %s %v", resp.Status, err)
	}
	return t.ID
}

// watchTable opens a table's WebSocket through c and reads its first
// view.
func watchTable(tb testing.TB, ctx context.Context, c *http.Client, base, id string) *websocket.Conn {
	tb.Helper()
	u := "ws" + strings.TrimPrefix(base, "http") + "api/arlington/tables/" + id + "/ws"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		tb.Fatalf("dial %s: %v", u, err)
	}
	if err := conn.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","since":-1}`)); err != nil {
		tb.Fatal(err)
	}
	_, b, err := conn.Read(ctx)
	if err != nil || !strings.Contains(string(b), `"type":"view"`) {
		tb.Fatalf("first message %.200s, %v", b, err)
	}
	return conn
}

// readUntilClosed reads until the server closes conn, and returns the
// close status and reason.
func readUntilClosed(ctx context.Context, conn *websocket.Conn) (websocket.StatusCode, string, error) {
	for {
		_, _, err := conn.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code, ce.Reason, nil
		}
		return -1, "", err
	}
}

// freePort is a port nothing listens on now, on 127.0.0.1.
func freePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
