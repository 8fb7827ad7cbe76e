package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/internal/dbcopy"
	"cardtable/internal/pgtest"
	"cardtable/internal/storetest"

	"github.com/coder/websocket"
)

// TestServeACMEOnPostgres: on PostgreSQL, whose URL names no directory,
// --acme keeps its certificates in the database and makes no directory,
// neither in the data directory nor in the working directory (a --db URL
// cut at its last slash is no place for them).
func TestServeACMEOnPostgres(t *testing.T) {
	db := pgtest.DB(t)
	data, work := t.TempDir(), t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	t.Chdir(work)
	s := startServe(t, "--addr", "127.0.0.1:0", "--http-redirect-addr", "off", "--db", db, "--acme", "cards.example.org")
	// The address logged is the domain's, which has a certificate, not
	// 127.0.0.1, whose handshake is refused.
	if !strings.HasPrefix(s.url, "https://cards.example.org:") {
		t.Errorf("serving at %s, want https://cards.example.org:PORT/", s.url)
	}
	for _, dir := range []string{work, filepath.Join(data, "cardtable")} {
		left, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if len(left) > 0 {
			t.Errorf("made in %s: %v", dir, left)
		}
	}
}

// TestLongServeACMETwoServers: two servers on one PostgreSQL database with
// --acme share one certificate. The first orders it when a visitor asks
// it for the domain; the CA's http-01 check is routed to the OTHER
// server's challenge listener (pebble checks that port, as a load
// balancer would route it there), which answers from the database; then
// both serve the same certificate, and the second orders none. Each
// server has a data directory of its own, as on two machines. New tables
// are shared out between them and every table is reached through both:
// each forwards to the other over HTTPS, checking its certificate.
func TestLongServeACMETwoServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers and a CA; TestACMEChallengeListener is the quick version")
	}
	db := pgtest.DB(t)
	t.Setenv(asMain, "1") // the servers are this binary, acting as cardtable
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	challengeA, challengeB := fmt.Sprintf("127.0.0.1:%d", freePort(t)), freePort(t)
	p := startPebble(t, challengeB, 0) // every check goes to the second server
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The servers trust pebble's root as the system's: they check each
	// other's certificate with it when forwarding.
	rootFile := filepath.Join(t.TempDir(), "root.pem")
	if err := os.WriteFile(rootFile, p.rootPEM(t), 0o600); err != nil {
		t.Fatal(err)
	}
	var nodes []*node
	var data []string
	for _, challenge := range []string{challengeA, fmt.Sprintf("127.0.0.1:%d", challengeB)} {
		dir := t.TempDir()
		nd, err := newNode(exe, db, []string{"XDG_DATA_HOME=" + dir, "HOME=" + dir, "SSL_CERT_FILE=" + rootFile},
			"--http-redirect-addr", challenge, "--acme", acmeDomain, "--acme-directory", p.dir, "--acme-ca", p.caFile)
		if err != nil {
			t.Fatal(err)
		}
		if err := nd.start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if !nd.stop(30 * time.Second) {
				t.Errorf("server %s did not stop in 30 s: %s", nd.addr, nd.tail())
			}
		})
		nodes, data = append(nodes, nd), append(data, dir)
	}
	roots := p.roots(t)
	first, _, err := fetchCert(t, ctx, nodes[0].addr, roots)
	if err != nil {
		t.Fatalf("HTTPS from the server that ordered: %v\nits log:\n%s\nthe other's:\n%s", err, nodes[0].tail(), nodes[1].tail())
	}
	second, resp, err := fetchCert(t, ctx, nodes[1].addr, roots)
	if err != nil {
		t.Fatalf("HTTPS from the other server: %v\n%s", err, nodes[1].tail())
	}
	if resp.StatusCode != http.StatusOK || second.SerialNumber.Cmp(first.SerialNumber) != 0 || len(second.DNSNames) != 1 || second.DNSNames[0] != acmeDomain {
		t.Fatalf("the other server: %s, certificate %v for %v; the first server's %v", resp.Status, second.SerialNumber, second.DNSNames, first.SerialNumber)
	}
	playThroughBoth(t, ctx, db, nodes, roots, 12)
	s := storetest.OpenTB(t, db)
	var keys []string
	if err := s.Export(ctx, "acme_cache", func(row any) error {
		keys = append(keys, row.(dbcopy.ACMEEntry).Key)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, " ") != "acme_account+key "+acmeDomain {
		t.Errorf("the database's certificate cache: %q, want the account key and one certificate", keys)
	}
	for _, dir := range data {
		if _, err := os.Stat(filepath.Join(dir, "cardtable", "acme")); !os.IsNotExist(err) {
			t.Errorf("acme/ made in a server's data directory %s: %v", dir, err)
		}
	}
	for _, nd := range nodes {
		if _, errs, first := nd.logCounts(); errs > 0 {
			t.Errorf("server %s logged errors: %s", nd.addr, first)
		}
	}
}

// playThroughBoth makes n tables through the servers that end TLS
// themselves (for acmeDomain), in turn: each goes to the less loaded
// server, forwarded over HTTPS when it is the other, so both run some;
// then every table's WebSocket is opened through each server, one of them
// forwarding it to the other over HTTPS.
func playThroughBoth(t *testing.T, ctx context.Context, db string, nodes []*node, roots *x509.CertPool, n int) {
	t.Helper()
	var ids []string
	for i := range n {
		nd := nodes[i%len(nodes)]
		code, body, err := postTable(ctx, nd.addr, roots)
		var made struct {
			ID string `json:"id"`
		}
		if err != nil || code != http.StatusCreated || json.Unmarshal([]byte(body), &made) != nil {
			t.Fatalf("new table %d through %s: %d %s %v\n%s", i, nd.addr, code, body, err, nd.tail())
		}
		ids = append(ids, made.ID)
	}
	for _, nd := range nodes {
		if held := tablesHeld(t, db, "https://"+nd.addr); held < int64(n/len(nodes)/2) {
			t.Errorf("server %s runs %d of the %d tables, want the load shared", nd.addr, held, n)
		}
	}
	for _, nd := range nodes {
		c, base := acmeClient(nd.addr, roots)
		for _, id := range ids {
			conn := watchTable(t, ctx, c, base, id)
			conn.Close(websocket.StatusNormalClosure, "")
		}
	}
}

// TestLongClusterTLSCert: two servers on one PostgreSQL database, each
// ending TLS itself with the same --tls-cert certificate (from a CA the
// servers trust through SSL_CERT_FILE, as a private CA would be), share
// the new tables and forward each other's over HTTPS, the certificate
// checked for its name. TestForwardHTTPS is the quick version.
func TestLongClusterTLSCert(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers; TestForwardHTTPS is the quick version")
	}
	db := pgtest.DB(t)
	t.Setenv(asMain, "1") // the servers are this binary, acting as cardtable
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile, roots := selfSigned(t, t.TempDir(), acmeDomain)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var nodes []*node
	for range 2 {
		dir := t.TempDir()
		nd, err := newNode(exe, db, []string{"XDG_DATA_HOME=" + dir, "HOME=" + dir, "SSL_CERT_FILE=" + certFile},
			"--http-redirect-addr", "off", "--tls-cert", certFile, "--tls-key", keyFile, "--host", acmeDomain)
		if err != nil {
			t.Fatal(err)
		}
		if err := nd.start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if !nd.stop(30 * time.Second) {
				t.Errorf("server %s did not stop in 30 s: %s", nd.addr, nd.tail())
			}
		})
		nodes = append(nodes, nd)
	}
	playThroughBoth(t, ctx, db, nodes, roots, 8)
	for _, nd := range nodes {
		if _, errs, first := nd.logCounts(); errs > 0 {
			t.Errorf("server %s logged errors: %s", nd.addr, first)
		}
	}
}

// acmeClient reaches the server at addr over HTTPS for acmeDomain, at
// base (".../").
func acmeClient(addr string, roots *x509.CertPool) (*http.Client, string) {
	d := &net.Dialer{}
	_, port, _ := net.SplitHostPort(addr)
	return &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: acmeDomain},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
	}}, "https://" + acmeDomain + ":" + port + "/"
}

// postTable asks the server at addr, over HTTPS for acmeDomain, for a new
// Arlington table.
func postTable(ctx context.Context, addr string, roots *x509.CertPool) (int, string, error) {
	c, base := acmeClient(addr, roots)
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"api/arlington/tables",
		strings.NewReader(`{"players":2,"bots":["","random"]}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	return resp.StatusCode, string(body), nil
}
