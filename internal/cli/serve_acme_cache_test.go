package cli

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/acme/autocert"

	"cardtable/internal/storetest"
)

// TestACMEDBCache: autocert's cache over each store: a missing entry is
// autocert.ErrCacheMiss itself (autocert compares with ==), an entry put
// is got back from another server's store on the same database, deleted
// is missing again; an entry past the store's bounds is refused with the
// store's error, and logged. What the database lacks is taken from the directory
// earlier versions kept the certificates in, and moved into the
// database; a challenge's answer there never is, and a directory that
// cannot be read is a miss.
func TestACMEDBCache(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			ctx := context.Background()
			db := b.New(t)
			s := storetest.OpenTB(t, db)
			old := t.TempDir()
			var logged bytes.Buffer
			c := dbCache{db: s, old: autocert.DirCache(old), log: slog.New(slog.NewTextHandler(&logged, nil))}
			for _, k := range []string{"acme_account+key", "cards.example", "tok+http-01"} {
				if data, err := c.Get(ctx, k); err != autocert.ErrCacheMiss || data != nil {
					t.Fatalf("Get(%s) of an empty cache: %q %v", k, data, err)
				}
			}
			if err := c.Put(ctx, "cards.example", []byte("cert\x00key")); err != nil {
				t.Fatal(err)
			}
			other := c // on SQLite the same store: the file is one server's
			if b.Shared {
				other = dbCache{db: storetest.OpenTB(t, db)}
			}
			if data, err := other.Get(ctx, "cards.example"); err != nil || string(data) != "cert\x00key" {
				t.Fatalf("Get after Put: %q %v", data, err)
			}
			for range 2 {
				if err := other.Delete(ctx, "cards.example"); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.Get(ctx, "cards.example"); err != autocert.ErrCacheMiss {
				t.Fatalf("Get after Delete: %v", err)
			}
			err := c.Put(ctx, "big.example", make([]byte, 1<<20))
			if err == nil || !strings.Contains(err.Error(), "too big for the ACME certificate cache") {
				t.Fatalf("Put of a megabyte: %v", err)
			}
			// autocert drops a certificate's Put error: the cache logs it.
			if l := logged.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "big.example") || !strings.Contains(l, "too big") {
				t.Fatalf("the refusal logged: %q", l)
			}

			// The directory of earlier versions.
			key := []byte("-----BEGIN EC PRIVATE KEY-----\nold\n-----END EC PRIVATE KEY-----\n")
			for name, data := range map[string][]byte{"acme_account+key": key, "stale+http-01": []byte("t")} {
				if err := os.WriteFile(filepath.Join(old, name), data, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if data, err := c.Get(ctx, "acme_account+key"); err != nil || !bytes.Equal(data, key) {
				t.Fatalf("the old directory's account key: %q %v", data, err)
			}
			if data, found, err := s.ACMEGet(ctx, "acme_account+key"); !found || err != nil || !bytes.Equal(data, key) {
				t.Fatalf("the account key was not moved into the database: %q %v %v", data, found, err)
			}
			if _, err := c.Get(ctx, "stale+http-01"); err != autocert.ErrCacheMiss {
				t.Fatalf("a challenge's answer read from the old directory: %v", err)
			}
			// An old directory that cannot be read is no directory.
			notDir := filepath.Join(t.TempDir(), "acme")
			if err := os.WriteFile(notDir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			c.old = autocert.DirCache(notDir)
			if _, err := c.Get(ctx, "other.example"); err != autocert.ErrCacheMiss {
				t.Fatalf("with acme/ a file: %v", err)
			}
		})
	}
}
