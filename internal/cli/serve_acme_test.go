package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/storetest"
	"cardtable/internal/web"
)

// acmeDomain is the name the test's certificates are for: the test's DNS
// server (pebble-challtestsrv) resolves every name to 127.0.0.1.
const acmeDomain = "cardtable.test"

// pebbleCA is a running pebble: its directory URL, the CA file that
// trusts its own HTTPS, and its management address.
type pebbleCA struct {
	dir, caFile, mgmt string
}

// startProcess runs a service in the background until the test ends.
func startProcess(t *testing.T, env []string, name string, args ...string) *syncBuffer {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	// Exits when the process does: at the test's end (Kill below).
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	return out
}

// waitListening waits until addr accepts TCP connections.
func waitListening(t *testing.T, addr string, out *syncBuffer) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listening on %s: %s", addr, out)
		}
	}
}

// startPebble runs a DNS server answering 127.0.0.1 for every name and a
// pebble ACME server using it, both on loopback. Pebble validates http-01
// challenges on httpPort; tls-alpn-01 ones on a port where nothing
// listens, so that the certificates prove the HTTP challenge listener
// works. validity is the certificates' lifetime (0: pebble's default).
func startPebble(t *testing.T, httpPort int, validity time.Duration) pebbleCA {
	t.Helper()
	pebble := needService(t, "pebble")
	challtest := needService(t, "pebble-challtestsrv")
	dir := t.TempDir()
	certFile, keyFile, _ := selfSigned(t, dir, "127.0.0.1", "localhost")
	dns := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	out := startProcess(t, nil, challtest, "-dns01", dns, "-http01", "", "-https01", "", "-tlsalpn01", "",
		"-management", fmt.Sprintf("127.0.0.1:%d", freePort(t)), "-defaultIPv4", "127.0.0.1", "-defaultIPv6", "")
	waitListening(t, dns, out) // its DNS answers TCP too
	listen, mgmt := fmt.Sprintf("127.0.0.1:%d", freePort(t)), fmt.Sprintf("127.0.0.1:%d", freePort(t))
	conf := map[string]any{"pebble": map[string]any{
		"listenAddress": listen, "managementListenAddress": mgmt,
		"certificate": certFile, "privateKey": keyFile,
		"httpPort": httpPort, "tlsPort": freePort(t),
		"ocspResponderURL": "", "externalAccountBindingRequired": false,
		"certificateValidityPeriod": uint64(validity / time.Second),
	}}
	b, _ := json.Marshal(conf)
	path := filepath.Join(dir, "pebble.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out = startProcess(t, []string{"PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0", "PEBBLE_AUTHZREUSE=0"},
		pebble, "-config", path, "-dnsserver", dns)
	waitListening(t, listen, out)
	waitListening(t, mgmt, out)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("pebble's log:\n%s", out)
		}
	})
	return pebbleCA{dir: "https://" + listen + "/dir", caFile: certFile, mgmt: mgmt}
}

// roots is pebble's root certificate, which its issued chains lead to.
func (p pebbleCA) roots(t *testing.T) *x509.CertPool {
	t.Helper()
	pool := x509.NewCertPool()
	if root := p.rootPEM(t); !pool.AppendCertsFromPEM(root) {
		t.Fatalf("pebble's root: %q", root)
	}
	return pool
}

// rootPEM is pebble's issuing root, as its management listener serves it.
func (p pebbleCA) rootPEM(t *testing.T) []byte {
	t.Helper()
	ca, err := os.ReadFile(p.caFile)
	if err != nil {
		t.Fatal(err)
	}
	own := x509.NewCertPool()
	own.AppendCertsFromPEM(ca)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: own}}}
	resp, err := c.Get("https://" + p.mgmt + "/roots/0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	root, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("pebble's root: %s %q", resp.Status, root)
	}
	return root
}

// serveACME starts the server with --acme against pebble, on httpsAddr
// with its challenge listener on httpAddr.
func serveACME(t *testing.T, p pebbleCA, httpsAddr, httpAddr string) *served {
	data := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	return startServe(t, "--addr", httpsAddr, "--http-redirect-addr", httpAddr, "--db", filepath.Join(data, "s.db"),
		"--acme", acmeDomain, "--acme-directory", p.dir, "--acme-ca", p.caFile, "--acme-email", "ops@"+acmeDomain)
}

// fetchCert makes an HTTPS request for acmeDomain to addr, verifying the
// chain against roots, and returns the certificate served.
func fetchCert(t *testing.T, ctx context.Context, addr string, roots *x509.CertPool) (*x509.Certificate, *http.Response, error) {
	d := &net.Dialer{}
	c := &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: acmeDomain},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		ForceAttemptHTTP2: true,
	}}
	_, port, _ := net.SplitHostPort(addr)
	req, _ := http.NewRequestWithContext(ctx, "GET", "https://"+acmeDomain+":"+port+"/", nil)
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	resp.Body.Close()
	return resp.TLS.PeerCertificates[0], resp, nil
}

// TestLongServeACME: with --acme the server gets its certificate from a real
// ACME server (pebble) through the http-01 challenge on its plain-HTTP
// listener, serves HTTPS with it (HTTP/2, a chain to the CA's root), and
// redirects plain HTTP to HTTPS; the certificate is kept in the database.
func TestLongServeACME(t *testing.T) {
	if testing.Short() {
		t.Skip("about 3 s under -race; TestACMEChallengeListener is the quick version")
	}
	httpsPort, httpPort := freePort(t), freePort(t)
	p := startPebble(t, httpPort, 0)
	httpsAddr := fmt.Sprintf("127.0.0.1:%d", httpsPort)
	s := serveACME(t, p, httpsAddr, fmt.Sprintf("127.0.0.1:%d", httpPort))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cert, resp, err := fetchCert(t, ctx, httpsAddr, p.roots(t))
	if err != nil {
		t.Fatalf("HTTPS with an ACME certificate: %v\nserver log:\n%s", err, s.log)
	}
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 || len(cert.DNSNames) != 1 || cert.DNSNames[0] != acmeDomain {
		t.Fatalf("%s %s, certificate for %v", resp.Proto, resp.Status, cert.DNSNames)
	}
	if c := resp.Cookies(); len(c) != 1 || !c[0].Secure {
		t.Fatalf("cookies %v, want one Secure", c)
	}
	// Plain HTTP redirects.
	nc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/arlington/", httpPort), nil)
	req.Host = acmeDomain
	r2, err := nc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if want := fmt.Sprintf("https://%s:%d/arlington/", acmeDomain, httpsPort); r2.StatusCode != http.StatusMovedPermanently || r2.Header.Get("Location") != want {
		t.Fatalf("plain HTTP: %s to %q, want a redirect to %s", r2.Status, r2.Header.Get("Location"), want)
	}
	path := strings.TrimSpace(dbOf(t, s))
	s.stop() // the SQLite file is the server's while it runs
	s.done <- <-s.done
	db := storetest.OpenTB(t, path)
	if _, found, err := db.ACMEGet(ctx, acmeDomain); !found || err != nil {
		t.Fatalf("no certificate kept in the database: %v", err)
	}
}

// dbOf is the database path the server logged.
func dbOf(t *testing.T, s *served) string {
	t.Helper()
	log := s.log.String()
	i := strings.Index(log, " db=")
	if i < 0 {
		t.Fatalf("no db logged: %s", log)
	}
	return strings.Fields(log[i+4:])[0]
}

// TestLongServeACMERenewal: a certificate near its end is renewed without
// a restart: pebble issues 15-second certificates, and the server serves a
// new one before the first expires.
func TestLongServeACMERenewal(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a renewal; TestACMEChallengeListener is the quick version")
	}
	httpsPort, httpPort := freePort(t), freePort(t)
	p := startPebble(t, httpPort, 15*time.Second)
	httpsAddr := fmt.Sprintf("127.0.0.1:%d", httpsPort)
	s := serveACME(t, p, httpsAddr, fmt.Sprintf("127.0.0.1:%d", httpPort))
	roots := p.roots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	first, _, err := fetchCert(t, ctx, httpsAddr, roots)
	if err != nil {
		t.Fatalf("first certificate: %v\n%s", err, s.log)
	}
	for {
		c, _, err := fetchCert(t, ctx, httpsAddr, roots)
		if err != nil {
			t.Fatalf("waiting for the renewal (first valid until %v): %v\n%s", first.NotAfter, err, s.log)
		}
		if c.SerialNumber.Cmp(first.SerialNumber) != 0 {
			if !c.NotAfter.After(first.NotAfter) || !time.Now().Before(first.NotAfter) {
				t.Fatalf("renewed certificate valid until %v, first until %v, now %v", c.NotAfter, first.NotAfter, time.Now())
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no renewal within a minute; log:\n%s", s.log)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// TestACMEChallengeListener: with --acme the plain-HTTP listener hands
// challenge paths to ACME (never redirecting them) for the --acme domains
// only, port or not, and redirects everything else to HTTPS. A
// challenge's answer is read from the database, where the server that
// ordered the certificate stored it, whichever server that was.
func TestACMEChallengeListener(t *testing.T) {
	o := serveOptions{acme: "cards.example", db: filepath.Join(t.TempDir(), "s.db")}
	names := serveNames{domains: []string{"cards.example"}}
	db, _, err := openStore(context.Background(), nil, o.db, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Stored as autocert stores it, by another server's Manager.
	if err := db.ACMEPut(context.Background(), "known-token+http-01", []byte("known-token.thumbprint")); err != nil {
		t.Fatal(err)
	}
	m := acmeManager(context.Background(), &o, names, db, nil)
	h := m.HTTPHandler(redirectHTTPS("443", []string{"cards.example"}))
	for _, tc := range []struct {
		host, path string
		code       int
		location   string
		body       string
	}{
		{"cards.example", "/.well-known/acme-challenge/unknown-token", http.StatusNotFound, "", ""},
		{"Cards.Example:8080", "/.well-known/acme-challenge/unknown-token", http.StatusNotFound, "", ""},
		{"other.example", "/.well-known/acme-challenge/unknown-token", http.StatusForbidden, "", ""},
		{"cards.example", "/.well-known/acme-challenge/known-token", http.StatusOK, "", "known-token.thumbprint"},
		{"other.example", "/.well-known/acme-challenge/known-token", http.StatusForbidden, "", ""},
		{"cards.example", "/arlington/", http.StatusMovedPermanently, "https://cards.example/arlington/", ""},
	} {
		req := httptest.NewRequest("GET", tc.path, nil)
		req.Host = tc.host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.code || rec.Header().Get("Location") != tc.location || (tc.body != "" && rec.Body.String() != tc.body) {
			t.Errorf("GET %s%s: %d %q %q, want %d %q %q", tc.host, tc.path, rec.Code, rec.Header().Get("Location"), rec.Body, tc.code, tc.location, tc.body)
		}
	}
	if _, err := os.Stat(acmeDir(o.db)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("acme/ made beside the database: %v", err)
	}
}

// TestACMEChallengeRateLimited: the plain-HTTP listener's answers to
// challenges, each of which reads the database, are rate limited by
// address in the server as it is wired (the routes called at every
// click's bucket): past the burst a challenge path is refused 429 with
// Retry-After, while the redirect of other paths is not limited.
func TestACMEChallengeRateLimited(t *testing.T) {
	old := serveRateLimit
	serveRateLimit = func() web.RateLimit {
		rl := web.DefaultRateLimit()
		rl.OftenAddress = web.Bucket{Burst: 3, Every: time.Hour}
		return rl
	}
	defer func() { serveRateLimit = old }()
	s := startServe(t, "--addr", "127.0.0.1:0", "--http-redirect-addr", "127.0.0.1:0",
		"--db", filepath.Join(t.TempDir(), "s.db"), "--acme", "cards.example")
	redirect := s.listenAddr(t, "redirect")
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", "http://"+redirect+path, nil)
		req.Host = "cards.example"
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for i := range 3 {
		if resp := get("/.well-known/acme-challenge/tok" + fmt.Sprint(i)); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("challenge %d within the burst: %s", i, resp.Status)
		}
	}
	if resp := get("/.well-known/acme-challenge/tok3"); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a challenge past the burst: %s, Retry-After %q", resp.Status, resp.Header.Get("Retry-After"))
	}
	for range 5 {
		if resp := get("/arlington/"); resp.StatusCode != http.StatusMovedPermanently {
			t.Fatalf("a redirect past the challenges' burst: %s", resp.Status)
		}
	}
}
