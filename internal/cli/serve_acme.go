package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"cardtable/internal/pgstore"
	"cardtable/internal/web"
)

// acmeStore is what --acme needs of the database: a small keyed store for
// autocert's cache (the account key, the certificates, the challenges'
// answers in flight), bounded by the store. Both stores have it.
type acmeStore interface {
	// ACMEGet is the data of entry key; found is false when there is none.
	ACMEGet(ctx context.Context, key string) (data []byte, found bool, err error)
	// ACMEPut stores data as entry key, replacing any; committed when it
	// returns nil.
	ACMEPut(ctx context.Context, key string, data []byte) error
	// ACMEDelete deletes entry key, if there is one.
	ACMEDelete(ctx context.Context, key string) error
}

// dbCache is autocert's cache in the database, so that every server of a
// shared database uses one account and one certificate a domain, and
// answers the http-01 challenges of orders the other servers made: autocert
// stores a challenge's answer in its cache before telling the CA to check
// it, and the CA's request may reach any server.
//
// old is the directory the certificates were kept in before they moved to
// the database (acmeDir); an entry missing from the database is read from
// it and stored in the database, so that a server upgraded in place keeps
// its account and certificates rather than ordering new ones. Challenges'
// entries are never read from it: an answer there is a stopped order's.
type dbCache struct {
	db  acmeStore
	old autocert.DirCache // "": none
	log *slog.Logger      // nil: none (tests)
}

// Get is autocert.Cache's: autocert.ErrCacheMiss when there is no entry.
func (c dbCache) Get(ctx context.Context, key string) ([]byte, error) {
	data, found, err := c.db.ACMEGet(ctx, key)
	if err != nil || found {
		return data, err
	}
	if c.old == "" || challengeKey(key) {
		return nil, autocert.ErrCacheMiss
	}
	data, err = c.old.Get(ctx, key)
	if err != nil {
		if err != autocert.ErrCacheMiss && c.log != nil {
			// Unreadable (acme a file, no permission): the database is
			// the cache now, so the old directory never stops it.
			c.log.Warn("ACME certificate cache: the directory of earlier versions not read", "key", key, "err", err)
		}
		return nil, autocert.ErrCacheMiss
	}
	if err := c.db.ACMEPut(ctx, key, data); err != nil {
		return nil, fmt.Errorf("moving %q from %s into the database: %w", key, string(c.old), err)
	}
	return data, nil
}

// Put is autocert.Cache's. A refusal is logged here: autocert drops the
// errors of storing a certificate or a challenge's answer (the server
// then serves them from memory, and the other servers cannot).
func (c dbCache) Put(ctx context.Context, key string, data []byte) error {
	err := c.db.ACMEPut(ctx, key, data)
	if err != nil && c.log != nil {
		c.log.Warn("ACME certificate cache: not stored", "key", key, "err", err)
	}
	return err
}

// Delete is autocert.Cache's.
func (c dbCache) Delete(ctx context.Context, key string) error {
	return c.db.ACMEDelete(ctx, key)
}

// challengeKey: key is autocert's for a challenge's answer (http-01's
// token, tls-alpn-01's certificate), not the account's or a certificate's.
func challengeKey(key string) bool {
	return strings.HasSuffix(key, "+http-01") || strings.HasSuffix(key, "+token")
}

// acmeManager obtains and renews the domains' certificates, keeping them
// (and the ACME account key) in the database, certs, and logging to log
// what it could not store; names.acmeDir is
// where earlier versions kept them, read for what the database lacks.
// names.acmeRoots, when not nil, are the CAs trusted for the ACME
// server's own HTTPS (--acme-ca, read with the flags: readACMECA).
func acmeManager(o *serveOptions, names serveNames, certs acmeStore, log *slog.Logger) *autocert.Manager {
	domains, roots := names.domains, names.acmeRoots
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      dbCache{db: certs, old: autocert.DirCache(names.acmeDir), log: log},
		HostPolicy: domainPolicy(domains),
		Email:      o.acmeEmail,
	}
	if o.acmeDirectory != "" || roots != nil {
		c := &acme.Client{DirectoryURL: o.acmeDirectory}
		if roots != nil {
			c.HTTPClient = &http.Client{Timeout: time.Minute, Transport: &http.Transport{
				TLSClientConfig: &tls.Config{RootCAs: roots}, Proxy: http.ProxyFromEnvironment}}
		}
		m.Client = c
	}
	return m
}

// acmeDir is where earlier versions kept the ACME account key and
// certificates for the database db, read now only for what the database
// lacks (dbCache): acme/ beside a SQLite file; for PostgreSQL, whose URL
// names no directory, acme/ in the data directory where the default
// SQLite file would be (docs/hosting.md).
func acmeDir(db string) string {
	if pgstore.IsURL(db) {
		db = defaultDBPath()
	}
	return filepath.Join(filepath.Dir(db), "acme")
}

// readACMECA reads --acme-ca ("": none) as every file a user names is
// read: missing, not a regular file, too big or holding no certificate is
// bad input.
func readACMECA(file string) (*x509.CertPool, error) {
	if file == "" {
		return nil, nil
	}
	pem, err := readInputFile(file, maxPEM, "a PEM file")
	if err != nil {
		return nil, within("serve --acme-ca", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, usageErr("serve --acme-ca: %s holds no PEM certificate", file)
	}
	return pool, nil
}

// domainPolicy lets certificates be asked for only for domains. Unlike
// autocert.HostWhitelist it ignores a port and letter case: the http-01
// challenge's Host names the port when the challenge listener is not on 80.
func domainPolicy(domains []string) autocert.HostPolicy {
	return func(_ context.Context, host string) error {
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if n, err := web.NormalizeHost(host); err == nil && slices.Contains(domains, n) {
			return nil
		}
		return fmt.Errorf("acme: %q is not one of the --acme domains", host)
	}
}

var _ autocert.Cache = dbCache{}
