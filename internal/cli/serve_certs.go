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

// loadCertFiles loads the pair once: an error here stops the server, and
// as the files were named on the command line, a missing or malformed one
// is bad input (docs/cli.md).
func loadCertFiles(certFile, keyFile string, log *slog.Logger) (*certFiles, error) {
	c := &certFiles{certFile: certFile, keyFile: keyFile, log: log, checkEvery: time.Minute}
	// The times before the contents: files replaced between the two
	// steps then have newer times than those kept, and are loaded again
	// at the next check; the other way round they would be missed until
	// they changed once more.
	stamp, err := c.stamps()
	if err != nil {
		return nil, badInput(err)
	}
	if certFilesReplaced != nil {
		certFilesReplaced()
	}
	certPEM, keyPEM, bad, err := c.read()
	if bad {
		return nil, badInput(err) // missing, not a regular file, too big
	}
	if err != nil {
		return nil, err // a failure reading a file that opened
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, badInput(err) // malformed: bad input
	}
	c.cert, c.stamp, c.checked = &cert, stamp, time.Now()
	return c, nil
}

// certFilesReplaced, when set (by a test), runs between loadCertFiles's
// two steps: it stands for a renewal that lands at that moment.
var certFilesReplaced func()

func (c *certFiles) stamps() ([2]time.Time, error) {
	var out [2]time.Time
	for i, f := range []string{c.certFile, c.keyFile} {
		fi, err := os.Stat(f)
		if err != nil {
			return out, fmt.Errorf("cannot read %s: %w", f, osReason(err))
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
		c.log.Warn("new certificate files not loaded; serving the old certificate", "err", err)
		return c.cert, nil // tried again after the next change
	}
	c.cert, c.stamp = &cert, stamp
	c.log.Info("certificate files loaded again", "cert", c.certFile)
	return c.cert, nil
}

// read reads the pair as every file a user names is read (readLimited):
// a FIFO or a device given as --tls-cert is refused, not waited on. bad
// says the error is one the command line is at fault for, when the files
// are read at start (loadCertFiles); a renewal's (load) is no command
// line's.
func (c *certFiles) read() (certPEM, keyPEM []byte, bad bool, err error) {
	if certPEM, bad, err = readLimited(c.certFile, maxPEM, "a PEM file"); err != nil {
		return nil, nil, bad, err
	}
	if keyPEM, bad, err = readLimited(c.keyFile, maxPEM, "a PEM file"); err != nil {
		return nil, nil, bad, err
	}
	return certPEM, keyPEM, false, nil
}

// load reads and parses the pair again, for a renewal: its errors carry
// no "usage" mark (a file gone or too big), as a renewal is no command
// line.
func (c *certFiles) load() (tls.Certificate, error) {
	certPEM, keyPEM, _, err := c.read()
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.X509KeyPair(certPEM, keyPEM)
}

// nameFor is the first of hosts the certificate in service is for, ""
// if none: the address to give a player, since a browser sent to the
// listen address (localhost) would find the certificate not its own.
func (c *certFiles) nameFor(hosts []string) string {
	c.mu.Lock()
	leaf := c.cert.Leaf
	c.mu.Unlock()
	for _, h := range hosts {
		if leaf != nil && leaf.VerifyHostname(h) == nil {
			return h
		}
	}
	return ""
}
