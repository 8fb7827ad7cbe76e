package cli

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// certFiles serves --tls-cert/--tls-key and picks up new files (a renewal
// by certbot or the like) without a restart: at most once per checkEvery,
// a handshake looks at the files' modification times and loads them again
// if either changed. A pair that does not load is logged and the old
// certificate kept.
type certFiles struct {
	certFile, keyFile string
	log               *slog.Logger
	checkEvery        time.Duration

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   [2]time.Time // the files' modification times when loaded
	checked time.Time
}

// loadCertFiles loads the pair once: an error here stops the server.
func loadCertFiles(certFile, keyFile string, log *slog.Logger) (*certFiles, error) {
	c := &certFiles{certFile: certFile, keyFile: keyFile, log: log, checkEvery: time.Minute}
	// Read first: a missing file is bad input (docs/cli.md), told as such.
	cert, err := c.load()
	if err != nil {
		return nil, err
	}
	stamp, err := c.stamps()
	if err != nil {
		return nil, err
	}
	c.cert, c.stamp, c.checked = &cert, stamp, time.Now()
	return c, nil
}

func (c *certFiles) stamps() ([2]time.Time, error) {
	var out [2]time.Time
	for i, f := range []string{c.certFile, c.keyFile} {
		fi, err := os.Stat(f)
		if err != nil {
			return out, err
		}
		out[i] = fi.ModTime()
	}
	return out, nil
}

// get is tls.Config.GetCertificate.
func (c *certFiles) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.checked) < c.checkEvery {
		return c.cert, nil
	}
	c.checked = time.Now()
	stamp, err := c.stamps()
	if err != nil || stamp == c.stamp {
		return c.cert, nil // a file missing for a moment (being replaced): keep the old pair
	}
	cert, err := c.load()
	if err != nil {
		c.log.Warn("new certificate files not loaded; serving the old certificate",
			"err", fmt.Sprintf("%v", err))
		return c.cert, nil // tried again after the next change
	}
	c.cert, c.stamp = &cert, stamp
	c.log.Info("certificate files loaded again", "cert", c.certFile)
	return c.cert, nil
}

// load reads the pair as every file a user names is read (readInputFile):
// a FIFO or a device given as --tls-cert is refused, not waited on.
func (c *certFiles) load() (tls.Certificate, error) {
	certPEM, err := readInputFile(c.certFile, maxPEM, "a PEM file")
	if err != nil {
		return tls.Certificate{}, err
	}
	keyPEM, err := readInputFile(c.keyFile, maxPEM, "a PEM file")
	if err != nil {
		return tls.Certificate{}, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return cert, fmt.Errorf("%w: %w", errUsage, err) // malformed: bad input
	}
	return cert, nil
}
