package cli

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/web"
)

// TestServeHTTPS: with --tls-cert and --tls-key the server speaks HTTPS,
// HTTP/2 when the client offers it; the identity cookie is Secure; the
// plain-HTTP listener of --http-redirect-addr only redirects to HTTPS.
func TestServeHTTPS(t *testing.T) {
	dir := t.TempDir()
	cert, key, pool := selfSigned(t, dir, "localhost", "127.0.0.1")
	s := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "s.db"), "--tls-cert", cert, "--tls-key", key,
		"--http-redirect-addr", "127.0.0.1:0")
	if !strings.HasPrefix(s.url, "https://127.0.0.1:") {
		t.Fatalf("served at %s, want https://127.0.0.1:...", s.url)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(s.url + "arlington/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
		t.Fatalf("GET over HTTPS: %s %s, want 200 over HTTP/2", resp.Proto, resp.Status)
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 || !cookies[0].Secure || !cookies[0].HttpOnly {
		t.Fatalf("cookies %v: want the identity cookie, Secure and HttpOnly", cookies)
	}

	// Plain HTTP on the main port is refused (a TLS server answers 400).
	resp, err = http.Get(strings.Replace(s.url, "https:", "http:", 1))
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("plain HTTP to the HTTPS port: %s", resp.Status)
		}
	}

	// A certificate for a --host name: the start gives that name, not
	// the listen address the certificate is not for.
	named, namedKey, _ := selfSigned(t, t.TempDir(), "cards.example")
	s2 := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "s2.db"), "--tls-cert", named, "--tls-key", namedKey,
		"--host", "other.example,cards.example")
	if !strings.HasPrefix(s2.url, "https://cards.example:") {
		t.Fatalf("served at %s, want https://cards.example:...", s2.url)
	}

	redirect := s.listenAddr(t, "redirect")
	port := s.url[strings.LastIndex(s.url, ":")+1 : len(s.url)-1]
	for _, tc := range []struct {
		method, host, want string
		code               int
	}{
		{"GET", "127.0.0.1", "https://127.0.0.1:" + port + "/arlington/?x=1", http.StatusMovedPermanently},
		{"GET", "localhost:80", "https://localhost:" + port + "/arlington/?x=1", http.StatusMovedPermanently},
		{"GET", "evil.example", "", http.StatusMisdirectedRequest},
		{"POST", "127.0.0.1", "", http.StatusBadRequest},
	} {
		req, _ := http.NewRequest(tc.method, "http://"+redirect+"/arlington/?x=1", nil)
		req.Host = tc.host
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code || resp.Header.Get("Location") != tc.want {
			t.Errorf("%s Host %s on the redirect listener: %s to %q, want %d to %q",
				tc.method, tc.host, resp.Status, resp.Header.Get("Location"), tc.code, tc.want)
		}
	}
}

// TestServeTLSUsage: the HTTPS flags' mistakes, and listen addresses
// without a port or past 65535, are usage errors.
func TestServeTLSUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--tls-cert", "c.pem"}, "go together"},
		{[]string{"--acme", "example.org", "--tls-cert", "c", "--tls-key", "k"}, "give one"},
		{[]string{"--acme-email", "a@example.org"}, "need --acme"},
		{[]string{"--http-redirect-addr", ":8081"}, "needs --tls-cert or --acme"},
		{[]string{"--acme", "localhost"}, "domain names with a dot"},
		{[]string{"--acme", "192.0.2.1"}, "domain names with a dot"},
		{[]string{"--trusted-proxy", "proxy.example"}, "CIDR"},
		{[]string{"--log-format", "xml"}, "text or json"},
		{[]string{"--addr", "foo"}, `--addr "foo": want HOST:PORT`},
		{[]string{"--addr", "127.0.0.1:99999"}, "a port from 0 to 65535"},
		{[]string{"--metrics-addr", "9100"}, `--metrics-addr "9100": want HOST:PORT`},
		// "off" is --http-redirect-addr's word alone.
		{[]string{"--addr", "off"}, `--addr "off": want HOST:PORT`},
		{[]string{"--metrics-addr", "off"}, `--metrics-addr "off": want HOST:PORT`},
		{[]string{"--tls-cert", "c", "--tls-key", "k", "--http-redirect-addr", "localhost"}, `--http-redirect-addr "localhost"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb strings.Builder
			code := Run(t.Context(), append([]string{"serve", "--db", db}, tc.args...), nil, &out, &errb)
			if code != exitUsage || !strings.Contains(errb.String(), tc.want) {
				t.Fatalf("exit %d, want %d; stderr %q (want %q)", code, exitUsage, errb.String(), tc.want)
			}
		})
	}
	// Missing or malformed certificate files are bad input too
	// (docs/cli.md, "Files a command reads").
	cert, key, _ := selfSigned(t, t.TempDir(), "localhost")
	for _, tc := range []struct {
		name, cert, key, want string
	}{
		{"missing", db + ".nope", db + ".nope", "cardtable: serve: --tls-cert/--tls-key: cannot read " + db + ".nope"},
		{"swapped", key, cert, "cardtable: serve: --tls-cert/--tls-key: tls: failed to find certificate PEM data"},
	} {
		var out, errb strings.Builder
		code := Run(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--tls-cert", tc.cert,
			"--tls-key", tc.key}, nil, &out, &errb)
		if code != exitUsage || !strings.HasPrefix(errb.String(), tc.want) {
			t.Errorf("%s certificate files: exit %d, %q; want exit 2 and %q", tc.name, code, errb.String(), tc.want)
		}
	}
	// A bad --acme domain is told under --acme, without a stray "usage:".
	var out, errb strings.Builder
	code := Run(t.Context(), []string{"serve", "--db", db, "--acme", "bad_name!"}, nil, &out, &errb)
	if want := "cardtable: serve: --acme: host \"bad_name!\""; code != exitUsage || !strings.HasPrefix(errb.String(), want) {
		t.Errorf("bad --acme domain: exit %d, %q; want exit 2 and %q", code, errb.String(), want)
	}
}

// TestServerErrorLog: the HTTP server's own error lines (a failed TLS
// handshake) are logged with their reason and the client's address, and
// bounded like the other connection events.
func TestServerErrorLog(t *testing.T) {
	buf := &syncBuffer{}
	// A clock that stands still: the lines may not straddle the turn of
	// a minute, which would give them a fresh share.
	t0 := time.Date(2026, 11, 26, 12, 0, 30, 0, time.UTC)
	events := web.NewEventLog(slog.New(slog.NewTextHandler(buf, nil)), 2, func() time.Time { return t0 })
	l := serverErrorLog(events)
	for range 5 {
		l.Printf("http: TLS handshake error from 192.0.2.9:51234: EOF")
	}
	l.Printf("http: Accept error: too many open files; retrying in 5ms")
	out := buf.String()
	if n := strings.Count(out, `reason="TLS handshake error" client=192.0.2.9`); n != 2 {
		t.Fatalf("%d handshake lines of 5, want the 2 allowed:\n%s", n, out)
	}
	if !strings.Contains(out, `reason="http server error"`) {
		t.Fatalf("the other error is not logged:\n%s", out)
	}
	events.Flush()
	if !strings.Contains(buf.String(), `summary="suppressed 3 similar"`) {
		t.Fatalf("no summary:\n%s", buf.String())
	}
}

// TestServeACMECAUsage: a missing or empty --acme-ca file is bad input,
// told after the flag's name alone (no "usage:" inside the sentence).
func TestServeACMECAUsage(t *testing.T) {
	dir := t.TempDir()
	missing, empty := filepath.Join(dir, "none.pem"), filepath.Join(dir, "empty.pem")
	if err := os.WriteFile(empty, []byte("no PEM here\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{missing, "cardtable: serve: --acme-ca: cannot read " + missing},
		{empty, "cardtable: serve: --acme-ca: " + empty + " holds no PEM certificate"},
	} {
		var errb strings.Builder
		code := Run(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--http-redirect-addr", "off",
			"--db", filepath.Join(dir, "s.db"), "--acme", "cards.example.org", "--acme-ca", tc.file}, nil, io.Discard, &errb)
		if code != exitUsage || !strings.HasPrefix(errb.String(), tc.want) || strings.Contains(errb.String(), "usage") {
			t.Errorf("--acme-ca %s: exit %d, %q; want exit 2 and %q", tc.file, code, errb.String(), tc.want)
		}
	}
}

// TestCertFilesReload: new certificate files (a renewal) are served
// without a restart, once the check interval has passed; files that do
// not load leave the old certificate in service.
func TestCertFilesReload(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, _ := selfSigned(t, dir, "localhost")
	buf := &syncBuffer{}
	c, err := loadCertFiles(certFile, keyFile, slog.New(slog.NewTextHandler(buf, nil)))
	if err != nil {
		t.Fatal(err)
	}
	serial := func() string {
		cert, err := c.get(nil)
		if err != nil {
			t.Fatal(err)
		}
		leaf, err := x509.ParseCertificate(cert.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		return leaf.SerialNumber.String()
	}
	first := serial()
	// Renewed: new files, later modification times.
	sub := filepath.Join(dir, "new")
	os.Mkdir(sub, 0o700)
	newCert, newKey, _ := selfSigned(t, sub, "localhost")
	later := time.Now().Add(time.Minute)
	for _, p := range [][2]string{{newCert, certFile}, {newKey, keyFile}} {
		b, err := os.ReadFile(p[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p[1], b, 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p[1], later, later)
	}
	if s := serial(); s != first {
		t.Fatalf("files checked again before the interval")
	}
	c.mu.Lock()
	c.checked = time.Time{} // the interval has passed
	c.mu.Unlock()
	second := serial()
	if second == first {
		t.Fatal("the renewed certificate is not served")
	}
	// A broken pair keeps the last good certificate.
	if err := os.WriteFile(keyFile, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	later = later.Add(time.Minute)
	os.Chtimes(keyFile, later, later)
	c.mu.Lock()
	c.checked = time.Time{}
	c.mu.Unlock()
	if s := serial(); s != second || !strings.Contains(buf.String(), "not loaded") {
		t.Fatalf("after a broken key: serial %s (want %s), log %q", s, second, buf)
	}
	// The renewal's warning gives the library's words, not a command
	// line's usage error.
	if l := buf.String(); !strings.Contains(l, "tls: ") || strings.Contains(l, "usage") {
		t.Fatalf("renewal warning: %q", l)
	}
	// So is a key file past the size limit (readInputFile's bad input on
	// the command line).
	logged := len(buf.String())
	if err := os.WriteFile(keyFile, make([]byte, maxPEM+1), 0o600); err != nil {
		t.Fatal(err)
	}
	later = later.Add(time.Minute)
	os.Chtimes(keyFile, later, later)
	c.mu.Lock()
	c.checked = time.Time{}
	c.mu.Unlock()
	if s := serial(); s != second {
		t.Fatalf("after an overlong key: serial %s, want %s", s, second)
	}
	if l := buf.String()[logged:]; !strings.Contains(l, "larger than") || strings.Contains(l, "usage") {
		t.Fatalf("renewal warning: %q", l)
	}
}

// TestCertFilesRenewedWhileLoading: files replaced while the server first
// loads them (after it took their times, before it read them, or the
// other way round) are served at the next check, not only after they
// change once more.
func TestCertFilesRenewedWhileLoading(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, _ := selfSigned(t, dir, "localhost")
	sub := filepath.Join(dir, "new")
	os.Mkdir(sub, 0o700)
	newCert, newKey, _ := selfSigned(t, sub, "localhost")
	later := time.Now().Add(time.Minute)
	certFilesReplaced = func() {
		for _, p := range [][2]string{{newCert, certFile}, {newKey, keyFile}} {
			if err := os.Rename(p[0], p[1]); err != nil {
				t.Error(err)
			}
			os.Chtimes(p[1], later, later)
		}
	}
	t.Cleanup(func() { certFilesReplaced = nil })
	c, err := loadCertFiles(certFile, keyFile, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	want, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.checked = time.Time{} // the interval has passed
	c.mu.Unlock()
	got, err := c.get(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Certificate[0], want.Certificate[0]) {
		t.Fatal("the files in place are not served: the certificate read before they were replaced is")
	}
}
