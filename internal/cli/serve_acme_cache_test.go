package cli

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/acme/autocert"

	"cardtable/internal/dbcopy"
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

// TestACMEMoveOld: at start every entry of the directory of earlier
// versions but the challenges' (and DirCache's unfinished files) is moved
// into the database, also those autocert reads only when it orders or
// renews (the account key, the +rsa certificate), so the directory may be
// deleted afterwards; an entry the database has is kept.
func TestACMEMoveOld(t *testing.T) {
	ctx := context.Background()
	s := storetest.OpenTB(t, storetest.Backends()[0].New(t))
	old := t.TempDir()
	files := map[string]string{"acme_account+key": "account", "a.example": "a", "a.example+rsa": "a rsa",
		"b.example": "b old", "tok+http-01": "t", "a.example+token": "alpn", "tmp123456": "half"}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(old, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.ACMEPut(ctx, "b.example", []byte("b new")); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	c := dbCache{db: s, old: autocert.DirCache(old), log: slog.New(slog.NewTextHandler(&logged, nil)),
		domains: []string{"a.example", "b.example"}}
	c.moveOld(ctx)
	if err := os.RemoveAll(old); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"acme_account+key": "account", "a.example": "a", "a.example+rsa": "a rsa", "b.example": "b new"}
	if keys := acmeKeys(t, s); strings.Join(keys, " ") != "a.example a.example+rsa acme_account+key b.example" {
		t.Fatalf("the database holds %q, want %v", keys, want)
	}
	for k, v := range want {
		if data, err := c.Get(ctx, k); err != nil || string(data) != v {
			t.Fatalf("Get(%s) with acme/ deleted: %q %v", k, data, err)
		}
	}
	if !strings.Contains(logged.String(), "moved=3") || strings.Contains(logged.String(), "WARN") {
		t.Fatalf("log: %s", logged.String())
	}
}

// TestACMEMoveRefused: an entry of the old directory the database refuses
// (here, a full cache) is still served from the directory, as earlier
// versions served it, and the refusal is logged once, not at every
// handshake.
func TestACMEMoveRefused(t *testing.T) {
	for _, b := range storetest.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			ctx := context.Background()
			s := storetest.OpenTB(t, b.New(t))
			var rows []any
			for i := range dbcopy.ACMEMaxEntries {
				rows = append(rows, dbcopy.ACMEEntry{Key: fmt.Sprintf("d%03d.example", i), Data: []byte("c"), Updated: time.Now().UnixMilli()})
			}
			if err := s.Import(ctx, "acme_cache", rows); err != nil {
				t.Fatal(err)
			}
			old := t.TempDir()
			if err := os.WriteFile(filepath.Join(old, "cards.example"), []byte("cert"), 0o600); err != nil {
				t.Fatal(err)
			}
			var logged bytes.Buffer
			c := dbCache{db: s, old: autocert.DirCache(old), log: slog.New(slog.NewTextHandler(&logged, nil)),
				domains: []string{"cards.example"}, moveWarned: new(atomic.Bool)}
			c.moveOld(ctx)
			if n := strings.Count(logged.String(), "level=WARN"); n != 1 || !strings.Contains(logged.String(), "refused=1") {
				t.Fatalf("the refused move at start: %s", logged.String())
			}
			logged.Reset()
			for range 3 {
				if data, err := c.Get(ctx, "cards.example"); err != nil || string(data) != "cert" {
					t.Fatalf("Get of an entry the full database refuses: %q %v", data, err)
				}
			}
			if n := strings.Count(logged.String(), "level=WARN"); n != 1 || !strings.Contains(logged.String(), "full") {
				t.Fatalf("%d warnings for three handshakes: %s", n, logged.String())
			}
		})
	}
}

// TestACMEMoveOldOwnOnly: only autocert's entries for the --acme domains
// and the account key are moved, symbolic links to them followed; junk
// (a README, .DS_Store, DirCache's unfinished files, an empty file, backup
// copies, a dropped domain's certificate) stays where it is, unread. An
// entry of autocert's shape that cannot be moved (a dangling link, a
// directory, a file bigger than an entry may be) is counted in one WARN,
// and the big file is refused without being read into memory.
func TestACMEMoveOldOwnOnly(t *testing.T) {
	ctx := context.Background()
	s := storetest.OpenTB(t, storetest.Backends()[0].New(t))
	old, elsewhere := t.TempDir(), t.TempDir()
	write := func(dir, name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(old, name)); err != nil {
			t.Fatal(err)
		}
	}
	write(elsewhere, "account", "account")
	write(elsewhere, "rsa", "rsa")
	link(filepath.Join(elsewhere, "account"), "acme_account+key")
	link(filepath.Join(elsewhere, "rsa"), "cards.example+rsa")
	write(old, "cards.example", "ecdsa")
	for _, junk := range []string{"Cards.Example", "README", ".DS_Store", "tmp123456", "empty", "cards.example.bak", "acme_account+key.bak",
		"dropped.example", "dropped.example+rsa", "tok+http-01", "cards.example+token"} {
		write(old, junk, "")
	}
	link(filepath.Join(elsewhere, "gone"), "more.example")
	if err := os.Mkdir(filepath.Join(old, "more.example+rsa"), 0o700); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(old, "big.example")
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else if err := f.Truncate(256 << 20); err != nil { // sparse: no room on disk
		t.Fatal(err)
	} else {
		f.Close()
	}
	var logged bytes.Buffer
	c := dbCache{db: s, old: autocert.DirCache(old), log: slog.New(slog.NewTextHandler(&logged, nil)),
		domains: []string{"cards.example", "more.example", "big.example"}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c.moveOld(ctx)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("moving allocated %d MiB: the 256 MiB file was read", grew>>20)
	}
	if keys := acmeKeys(t, s); strings.Join(keys, " ") != "acme_account+key cards.example cards.example+rsa" {
		t.Fatalf("the database holds %q", keys)
	}
	log := logged.String()
	if strings.Count(log, "level=WARN") != 1 || !strings.Contains(log, "refused=3") || !strings.Contains(log, "moved=3") {
		t.Fatalf("log: %s", log)
	}
	if data, err := c.Get(ctx, "big.example"); err != autocert.ErrCacheMiss || data != nil {
		t.Fatalf("Get of the big file: %d bytes, %v", len(data), err)
	}
}

// acmeKeys are the certificate cache's keys, in byte order.
func acmeKeys(tb testing.TB, s storetest.Store) []string {
	tb.Helper()
	var keys []string
	if err := s.Export(context.Background(), "acme_cache", func(row any) error {
		keys = append(keys, row.(dbcopy.ACMEEntry).Key)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return keys
}

// countingStore counts the reads of an acmeStore.
type countingStore struct {
	acmeStore
	gets atomic.Int32
}

func (s *countingStore) ACMEGet(ctx context.Context, key string) ([]byte, bool, error) {
	s.gets.Add(1)
	return s.acmeStore.ACMEGet(ctx, key)
}

// TestACMEUnknownNames: a TLS handshake naming a host that is none of the
// --acme domains, a tls-alpn-01 challenge's or not, is refused without
// reading the database; one naming a domain reads it.
func TestACMEUnknownNames(t *testing.T) {
	s := &countingStore{acmeStore: storetest.OpenTB(t, storetest.Backends()[0].New(t))}
	o := serveOptions{acme: "cards.example", db: filepath.Join(t.TempDir(), "s.db")} // acme/ of earlier versions: none
	m := acmeManager(context.Background(), &o, serveNames{domains: []string{"cards.example"}}, s, nil)
	conf := acmeTLSConfig(m, []string{"cards.example"})
	for _, name := range []string{"other.example", "x.cards.example", "cards.example.evil"} {
		for _, protos := range [][]string{nil, {"acme-tls/1"}} {
			if c, err := conf.GetCertificate(&tls.ClientHelloInfo{ServerName: name, SupportedProtos: protos}); err == nil || c != nil {
				t.Fatalf("%s %v: a certificate", name, protos)
			}
		}
	}
	if n := s.gets.Load(); n != 0 {
		t.Fatalf("handshakes for unknown names read the database %d times", n)
	}
	if _, err := conf.GetCertificate(&tls.ClientHelloInfo{ServerName: "cards.example", SupportedProtos: []string{"acme-tls/1"}}); err == nil {
		t.Fatal("a tls-alpn-01 certificate no order made")
	}
	if s.gets.Load() == 0 {
		t.Fatal("the domain's tls-alpn-01 handshake did not read the database")
	}
}

// TestACMENoServerName: a handshake naming no host (a visit by address,
// https://127.0.0.1/) is refused in words that say so, not with an empty
// name quoted, since that error is what the log shows the operator.
func TestACMENoServerName(t *testing.T) {
	s := storetest.OpenTB(t, storetest.Backends()[0].New(t))
	o := serveOptions{acme: "cards.example", db: filepath.Join(t.TempDir(), "s.db")}
	m := acmeManager(context.Background(), &o, serveNames{domains: []string{"cards.example"}}, s, nil)
	_, err := acmeTLSConfig(m, []string{"cards.example"}).GetCertificate(&tls.ClientHelloInfo{})
	if err == nil || strings.Contains(err.Error(), `""`) || !strings.Contains(err.Error(), "named no host") {
		t.Fatalf("%v", err)
	}
}

// TestACMEChallengeDBDown: with the database unreadable, a visitor asking
// port 80 for a challenge's answer gets 404 with a general message, never
// the database's words, which are logged.
func TestACMEChallengeDBDown(t *testing.T) {
	o := serveOptions{acme: "cards.example", db: filepath.Join(t.TempDir(), "s.db")}
	db, _, err := openStore(context.Background(), nil, o.db, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	var logged bytes.Buffer
	m := acmeManager(context.Background(), &o, serveNames{domains: []string{"cards.example"}}, db, slog.New(slog.NewTextHandler(&logged, nil)))
	req := httptest.NewRequest("GET", "/.well-known/acme-challenge/tok", nil)
	req.Host = "cards.example"
	rec := httptest.NewRecorder()
	m.HTTPHandler(nil).ServeHTTP(rec, req)
	body := rec.Body.String()
	if rec.Code != http.StatusNotFound || strings.Contains(body, "closed") || strings.Contains(body, "sql") || !strings.Contains(body, "try again later") {
		t.Fatalf("%d %q", rec.Code, body)
	}
	if !strings.Contains(logged.String(), "closed") {
		t.Fatalf("the database's error not logged: %s", logged.String())
	}
}
