package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"cardtable/internal/dbcopy"
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
// the database (acmeDir). autocert's entries in it are moved into the
// database at start (moveOld); an entry the database still lacks is read from it, and
// served even when the database refuses to take it (full, a SQLite file
// that cannot be made private), as earlier versions served it.
// Challenges' entries are never read from it: an answer there is a
// stopped order's.
type dbCache struct {
	db  acmeStore
	old autocert.DirCache // "": none
	log *slog.Logger      // nil: none (tests)
	// domains are the --acme domains: only their entries and the
	// account key are moved from old (moveOld).
	domains []string
	// moveWarned: a refused move was logged; later ones are not, as
	// every handshake may try again.
	moveWarned *atomic.Bool
}

// Get is autocert.Cache's: autocert.ErrCacheMiss when there is no entry.
func (c dbCache) Get(ctx context.Context, key string) ([]byte, error) {
	data, found, err := c.db.ACMEGet(ctx, key)
	if err != nil && challengeKey(key) {
		// autocert writes this error into its answer to the visitor on
		// port 80: the database's words stay in the log.
		if c.log != nil {
			c.log.Warn("ACME certificate cache: a challenge's answer not read", "key", key, "err", err)
		}
		return nil, errChallengeUnread
	}
	if err != nil || found {
		return data, err
	}
	if c.old == "" || challengeKey(key) {
		return nil, autocert.ErrCacheMiss
	}
	data, err = c.readOld(key)
	if err != nil {
		if err != autocert.ErrCacheMiss && c.log != nil {
			// Unreadable (acme a file, no permission): the database is
			// the cache now, so the old directory never stops it.
			c.log.Warn("ACME certificate cache: the directory of earlier versions not read", "key", key, "err", err)
		}
		return nil, autocert.ErrCacheMiss
	}
	if err := c.db.ACMEPut(ctx, key, data); err != nil && c.log != nil &&
		(c.moveWarned == nil || !c.moveWarned.Swap(true)) {
		c.log.Warn("ACME certificate cache: an entry of the directory of earlier versions not moved into the database; served from the directory",
			"key", key, "dir", string(c.old), "err", err)
	}
	return data, nil
}

// errChallengeUnread is what a visitor asking for a challenge's answer is
// told when the database could not be read.
var errChallengeUnread = errors.New("acme/autocert: the answer could not be read, try again later")

// acmeChallengePath is where autocert answers http-01 challenges.
const acmeChallengePath = "/.well-known/acme-challenge/"

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

// challengeKey: key is autocert's for a challenge's answer.
var challengeKey = dbcopy.ACMEChallengeKey

// acmeManager obtains and renews the domains' certificates, keeping them
// (and the ACME account key) in the database, certs, and logging to log
// what it could not store; acmeDir(o.db) is where earlier versions kept
// them, read for what the database lacks. names.acmeRoots, when not nil,
// are the CAs trusted for the ACME server's own HTTPS (--acme-ca, read
// with the flags: readACMECA).
func acmeManager(ctx context.Context, o *serveOptions, names serveNames, certs acmeStore, log *slog.Logger) *autocert.Manager {
	domains, roots := names.domains, names.acmeRoots
	cache := dbCache{db: certs, old: autocert.DirCache(acmeDir(o.db)), log: log, domains: domains, moveWarned: new(atomic.Bool)}
	cache.moveOld(ctx)
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      cache,
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

// acmeTLSConfig is m's TLS configuration, refusing a handshake whose
// name is none of domains before m looks at it: autocert checks its
// HostPolicy only after answering a tls-alpn-01 challenge's handshake
// from its cache, so without this a handshake naming any host would read
// the database.
func acmeTLSConfig(m *autocert.Manager, domains []string) *tls.Config {
	conf := m.TLSConfig()
	get, policy := conf.GetCertificate, domainPolicy(domains)
	conf.GetCertificate = func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		if err := policy(hello.Context(), hello.ServerName); err != nil {
			return nil, err
		}
		return get(hello)
	}
	return conf
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
		return nil, within("serve: --acme-ca", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, usageErr("serve: --acme-ca: %s holds no PEM certificate", file)
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
		if host == "" {
			// A visit by address (https://127.0.0.1/) names no host:
			// say so, rather than quote an empty name.
			return errors.New("acme: the client named no host (a visit by address has no certificate; use an --acme domain)")
		}
		return fmt.Errorf("acme: %q is not one of the --acme domains", host)
	}
}

var _ autocert.Cache = dbCache{}
