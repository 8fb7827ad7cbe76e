package cli

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeRefusedMakesNoFile: a server that cannot start, for a file a
// flag names that is missing or malformed (exit 2) or an address already
// taken (exit 1), makes nothing: no database file, no acme/ directory.
func TestServeRefusedMakesNoFile(t *testing.T) {
	files := t.TempDir()
	cert, key, _ := selfSigned(t, files, "localhost")
	missing := filepath.Join(files, "none.pem")
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	busy := taken.Addr().String()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing certificate files", []string{"--tls-cert", missing, "--tls-key", missing}, exitUsage, "--tls-cert/--tls-key: cannot read"},
		{"swapped certificate files", []string{"--tls-cert", key, "--tls-key", cert}, exitUsage, "--tls-cert/--tls-key: tls:"},
		{"missing --acme-ca", []string{"--acme", "cards.example.org", "--http-redirect-addr", "off", "--acme-ca", missing}, exitUsage, "--acme-ca: cannot read"},
		{"--acme-ca holding no certificate", []string{"--acme", "cards.example.org", "--http-redirect-addr", "off", "--acme-ca", key}, exitUsage, "holds no PEM certificate"},
		{"--metrics-addr taken", []string{"--metrics-addr", busy}, exitFail, "--metrics-addr: " + busy + ": another program is using that address (address already in use): stop it, or choose another address with --metrics-addr\n"},
		{"--http-redirect-addr taken", []string{"--tls-cert", cert, "--tls-key", key, "--http-redirect-addr", busy}, exitFail, "--http-redirect-addr"},
		{"--acme's redirect address taken", []string{"--acme", "cards.example.org", "--http-redirect-addr", busy}, exitFail, "--http-redirect-addr"},
		{"--acme-directory over plain HTTP", []string{"--acme", "cards.example.org", "--http-redirect-addr", "off", "--acme-directory", "http://acme.example.org/dir"}, exitUsage, "--acme-directory"},
		{"--acme-directory without a scheme", []string{"--acme", "cards.example.org", "--http-redirect-addr", "off", "--acme-directory", "acme.example.org/dir"}, exitUsage, "--acme-directory"},
		{"--acme-directory without a host", []string{"--acme", "cards.example.org", "--http-redirect-addr", "off", "--acme-directory", "https:///dir"}, exitUsage, "--acme-directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "cards.db")}, tc.args...)
			var errb strings.Builder
			// A server that starts after all serves until the deadline,
			// then exits 0, leaving its files: the test fails, not hangs.
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			code := Run(ctx, args, nil, io.Discard, &errb)
			if code != tc.code || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, %q; want exit %d and %q", code, errb.String(), tc.code, tc.want)
			}
			left, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(left) > 0 {
				var names []string
				_ = filepath.WalkDir(dir, func(p string, _ os.DirEntry, _ error) error {
					names = append(names, strings.TrimPrefix(p, dir))
					return nil
				})
				t.Errorf("left behind: %q", names)
			}
		})
	}
}
