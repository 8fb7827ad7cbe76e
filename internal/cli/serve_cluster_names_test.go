package cli

import (
	"bytes"
	"log/slog"
	"slices"
	"strings"
	"testing"
)

// TestClusterPeerNamesWildcard: a --tls-cert certificate naming only a
// wildcard leaves the wildcard to check the other servers' certificates
// for (a request's host it covers is checked as itself), after the --host
// names, which are checked when the host is none of them; no start
// warning then. With no name at all, the start warns and says what to
// set.
func TestClusterPeerNamesWildcard(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, _ := selfSigned(t, dir, "*.example.org")
	certs, err := loadCertFiles(certFile, keyFile, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, nil))
	n := serveNames{certs: certs}
	if got := n.peerNames([]string{"203.0.113.9"}); !slices.Equal(got, []string{"*.example.org"}) {
		t.Fatalf("no --host: %q", got)
	}
	warnNoPeerName(log, n.peerNames(nil))
	n.hosts = []string{"cards.example.org"}
	if got := n.peerNames(n.hosts); !slices.Equal(got, []string{"cards.example.org", "*.example.org"}) {
		t.Fatalf("--host cards.example.org: %q", got)
	}
	if logged.Len() != 0 {
		t.Fatalf("warned with names to check for: %s", logged.String())
	}
	warnNoPeerName(log, nil)
	if log := logged.String(); strings.Count(log, "level=WARN") != 1 || !strings.Contains(log, "--host") {
		t.Fatalf("no name: %s", log)
	}
}
