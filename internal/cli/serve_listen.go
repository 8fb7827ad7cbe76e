package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cardtable/internal/web"
)

// unit is one listener and the server on it.
type unit struct {
	name string
	ln   net.Listener
	srv  *http.Server
	tls  bool // srv.TLSConfig is set: serve HTTPS
}

// shutdownTimeout bounds a graceful stop, so that the process exits within
// 10 s of SIGTERM with the database flushed (a variable for tests).
var shutdownTimeout = 8 * time.Second

// newHTTPServer is the http.Server of every listener; errLog takes its
// own error lines (TLS handshake failures and the like).
func newHTTPServer(h http.Handler, errLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      2 * time.Minute, // a hint may think for a while
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          errLog,
	}
}

// serverErrorLog routes http.Server's error lines through the bounded
// event log: a flood of failed handshakes is a few lines a minute.
func serverErrorLog(events *web.EventLog) *log.Logger {
	return log.New(errorLineWriter{events}, "", 0)
}

type errorLineWriter struct{ events *web.EventLog }

var fromAddr = regexp.MustCompile(`from (\S+?):? `)

func (w errorLineWriter) Write(p []byte) (int, error) {
	line := strings.TrimSpace(string(p))
	reason := "http server error"
	if strings.Contains(line, "TLS handshake error") {
		reason = "TLS handshake error"
	}
	addr := ""
	if m := fromAddr.FindStringSubmatch(line + " "); m != nil {
		addr = m[1]
		if host, _, err := net.SplitHostPort(addr); err == nil {
			addr = host
		}
	}
	w.events.Event(context.Background(), slog.LevelWarn, "connection error", reason, addr, "err", line)
	return len(p), nil
}

// listeners are the ones the flags ask for, all taken before the
// database is opened (serve): the main one, and the plain-HTTP redirect's
// and the metrics' when asked for (else nil).
type listeners struct {
	main, redirect, metrics net.Listener
}

// limitPerAddress bounds the connections each client address holds open
// on the main listener and the redirect's (web.LimitListener): the
// trusted proxies, the other servers of the database among them, are not
// counted. The metrics' listener is left alone (loopback, for a scraper).
func (ls *listeners) limitPerAddress(trusted []netip.Prefix, events *web.EventLog) {
	ls.main = web.LimitListener(ls.main, 0, trusted, events)
	if ls.redirect != nil {
		ls.redirect = web.LimitListener(ls.redirect, 0, trusted, events)
	}
}

// listen takes every address o names; on an error, those taken are
// closed again.
func (o *serveOptions) listen() (ls listeners, err error) {
	defer func() {
		if err != nil {
			ls.close()
		}
	}()
	listen := o.netListen
	if listen == nil {
		listen = net.Listen
	}
	if ls.main, err = listen("tcp", o.addr); err != nil {
		return ls, fmt.Errorf("serve: %w", addrAdvice("addr", o.addr, err))
	}
	if o.httpRedirectAddr != "" {
		if ls.redirect, err = listen("tcp", o.httpRedirectAddr); err != nil {
			if err := o.twice("http-redirect-addr", o.httpRedirectAddr, err, ls); err != nil {
				return ls, err
			}
			return ls, fmt.Errorf("serve: --http-redirect-addr: %w", addrAdvice("http-redirect-addr", o.httpRedirectAddr, err))
		}
	}
	if o.metricsAddr != "" {
		if ls.metrics, err = listen("tcp", o.metricsAddr); err != nil {
			if err := o.twice("metrics-addr", o.metricsAddr, err, ls); err != nil {
				return ls, err
			}
			return ls, fmt.Errorf("serve: --metrics-addr: %w", addrAdvice("metrics-addr", o.metricsAddr, err))
		}
	}
	return ls, nil
}

// twice refuses, as bad usage, a listen address flag found in use by a
// listener serve itself just opened for another flag (the same address
// given twice), which the system's error would blame on "another
// program"; nil when the address is not one of serve's own.
func (o *serveOptions) twice(flag, addr string, err error, ls listeners) error {
	if !errors.Is(err, syscall.EADDRINUSE) {
		return nil
	}
	host, port, perr := net.SplitHostPort(addr)
	if perr != nil {
		return nil
	}
	wild := func(h string) bool { ip := net.ParseIP(h); return h == "" || (ip != nil && ip.IsUnspecified()) }
	for _, own := range []struct {
		flag string
		ln   net.Listener
	}{{"addr", ls.main}, {"http-redirect-addr", ls.redirect}} {
		if own.ln == nil {
			continue
		}
		h, p, _ := net.SplitHostPort(own.ln.Addr().String())
		if p == port && (wild(h) || wild(host) || hostIs(host, net.ParseIP(h))) {
			return flagErr("serve: %s is the address of %s too: give each listener an address of its own",
				o.named(flag, addr), o.flagWords(own.flag))
		}
	}
	return nil
}

// hostIs is whether host, an address or a name (localhost), is ip: a
// name is looked up, as the listener's was.
func hostIs(host string, ip net.IP) bool {
	if hip := net.ParseIP(host); hip != nil {
		return hip.Equal(ip)
	}
	ips, err := net.LookupIP(host)
	if err != nil {
		return false
	}
	for _, a := range ips {
		if a.Equal(ip) {
			return true
		}
	}
	return false
}

// addrAdvice says what to do about an address another program (or
// another cardtable) is listening on: the system's "address already in
// use" names no remedy. Still a failure (exit 1), not bad input: the
// address may be free on the next try, and the same command line then
// works (docs/cli.md).
func addrAdvice(flag, addr string, err error) error {
	if errors.Is(err, syscall.EACCES) {
		if _, port, perr := net.SplitHostPort(addr); perr == nil {
			if n, nerr := strconv.Atoi(port); nerr == nil && n > 0 && n < 1024 {
				return reworded{fmt.Sprintf("%s: this user may not listen on a port below 1024 (permission denied): "+
					"give the program the capability (under systemd AmbientCapabilities=CAP_NET_BIND_SERVICE, as "+
					"deploy/cardtable.service does; else setcap cap_net_bind_service=+ep on the binary), "+
					"or choose a port from 1024 up with --%s", addr, flag), err}
			}
		}
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		return err
	}
	return reworded{fmt.Sprintf("%s: another program is using that address (address already in use): stop it, or choose another address with --%s", addr, flag), err}
}

// close closes the listeners, for a server that does not start.
func (ls listeners) close() {
	for _, l := range []net.Listener{ls.main, ls.redirect, ls.metrics} {
		if l != nil {
			l.Close()
		}
	}
}

// unitsOptions are what openUnits puts on the listeners.
type unitsOptions struct {
	names   serveNames
	certs   acmeStore // where ACME keeps its certificates
	allowed []string  // the hosts answered, for the redirect
	handler http.Handler
	metrics http.Handler
	// limit bounds by address the requests for challenges' answers, each
	// of which reads the database (web.Server.LimitOften).
	limit  func(prefix string, h http.Handler) http.Handler
	log    *slog.Logger
	errLog *log.Logger
}

// openUnits puts a server on each of the listeners: the main one (HTTPS
// with the certificate files or ACME, as u.names holds them, else HTTP),
// the plain-HTTP redirect (answering ACME's challenges, rate limited),
// the metrics.
func openUnits(ctx context.Context, o *serveOptions, ls listeners, u unitsOptions) []unit {
	names, errLog := u.names, u.errLog
	var units []unit
	var tlsConf *tls.Config
	var challenge func(http.Handler) http.Handler
	switch {
	case names.certs != nil:
		tlsConf = &tls.Config{GetCertificate: names.certs.get}
	case len(names.domains) > 0:
		m := acmeManager(ctx, o, names, u.certs, u.log)
		tlsConf = acmeTLSConfig(m, names.domains)
		challenge = m.HTTPHandler
	}
	main := unit{name: "main", ln: ls.main, srv: newHTTPServer(u.handler, errLog)}
	if tlsConf != nil {
		tlsConf.MinVersion = tls.VersionTLS12
		main.srv.TLSConfig, main.tls = tlsConf, true
	}
	units = append(units, main)
	if ls.redirect != nil {
		_, port, _ := net.SplitHostPort(ls.main.Addr().String())
		var rh http.Handler = redirectHTTPS(port, u.allowed)
		if challenge != nil {
			// answers /.well-known/acme-challenge/, redirects the rest
			rh = u.limit(acmeChallengePath, challenge(rh))
		}
		// Its answers carry the main listener's headers: a redirect, a
		// 421 or a challenge's answer is as public as a page.
		units = append(units, unit{name: "redirect", ln: ls.redirect, srv: newHTTPServer(web.SecurityHeaders(rh), errLog)})
	}
	if ls.metrics != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", u.metrics)
		units = append(units, unit{name: "metrics", ln: ls.metrics, srv: newHTTPServer(mux, errLog)})
	}
	return units
}

// redirectHTTPS sends plain-HTTP visitors to the same page over HTTPS on
// httpsPort; a host the server does not answer gets 421, as on the main
// listener, so the redirect is never a way elsewhere.
func redirectHTTPS(httpsPort string, allowed []string) http.Handler {
	ok := map[string]bool{}
	for _, h := range allowed {
		ok[h] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		n, err := web.NormalizeHost(host)
		if err != nil || !(ok[n] || n == "localhost" || strings.HasPrefix(n, "127.") || n == "::1") {
			http.Error(w, "this server does not answer that host name", http.StatusMisdirectedRequest)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "use HTTPS", http.StatusBadRequest)
			return
		}
		if httpsPort != "443" {
			host = net.JoinHostPort(n, httpsPort)
		} else if strings.Contains(n, ":") {
			host = "[" + n + "]"
		} else {
			host = n
		}
		http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusMovedPermanently)
	})
}

// drainer is the web server's side of a graceful stop.
type drainer interface {
	Drain()
	Wait(ctx context.Context) error
}

// serveUnits serves every unit until ctx ends (or one fails), then stops
// gracefully within shutdownTimeout: the listeners close, requests in
// flight finish (every accepted move is already stored when answered), the
// web server's WebSockets are told the server is restarting (d), and their
// handlers are waited for.
func serveUnits(ctx context.Context, log *slog.Logger, units []unit, d drainer) error {
	errc := make(chan error, len(units))
	for _, u := range units {
		// Exits when its server stops: at Shutdown below, or on a
		// listener error.
		go func() {
			var err error
			if u.tls {
				err = u.srv.ServeTLS(u.ln, "", "")
			} else {
				err = u.srv.Serve(u.ln)
			}
			errc <- fmt.Errorf("serve (%s listener): %w", u.name, err)
		}()
	}
	var failed error
	running := len(units)
	select {
	case failed = <-errc:
		running--
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	done := make(chan error, len(units))
	for _, u := range units {
		// Exits when Shutdown returns: by sctx's end at the latest.
		go func() {
			err := u.srv.Shutdown(sctx)
			if errors.Is(err, context.DeadlineExceeded) {
				// Out of time: what is still running is cut (every
				// accepted move is stored already); the stop is clean.
				log.Warn("requests still running at the stop deadline were cut", "listener", u.name)
				err = u.srv.Close()
			}
			done <- err
		}()
	}
	errs := []error{failed}
	if d != nil {
		d.Drain()
		if err := d.Wait(sctx); err != nil {
			log.Warn("connections still open at the stop deadline", "err", err)
		}
	}
	for range units {
		errs = append(errs, <-done)
	}
	for range running {
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
