package cli

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/pflag"
)

// TestServeDefaultAddrs runs serve as the command line gives it and sees
// which addresses it would listen on, without taking them: with no --addr
// the documented default, loopback port 8080; with --acme, :443 and the
// redirect's :80 unless --http-redirect-addr is off. Every listen is
// answered with a free loopback port, and the database, under a plain
// file, cannot be opened, so serve stops there having opened nothing.
func TestServeDefaultAddrs(t *testing.T) {
	t.Parallel()
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(notDir, "cardtable.db")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"127.0.0.1:8080"}},
		{[]string{"--acme", "cards.example.org", "--http-redirect-addr", "off"}, []string{":443"}},
		{[]string{"--acme", "cards.example.org"}, []string{":443", ":80"}},
		{[]string{"--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0"}, []string{"127.0.0.1:0", "127.0.0.1:0"}},
	} {
		fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
		var o serveOptions
		o.register(fs)
		if err := fs.Parse(append(c.args, "--db", db)); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var asked []string
		o.netListen = func(network, addr string) (net.Listener, error) {
			mu.Lock()
			asked = append(asked, addr)
			mu.Unlock()
			return net.Listen(network, "127.0.0.1:0")
		}
		err := o.serve(context.Background(), &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
		if err == nil {
			t.Fatalf("%q: serve opened a database under a plain file", c.args)
		}
		if !slices.Equal(asked, c.want) {
			t.Errorf("%q: serve listened on %q, want %q", c.args, asked, c.want)
		}
	}
}
