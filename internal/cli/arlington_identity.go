package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"cardtable/internal/arlclient"
)

// The identity file of `arlington connect` (docs/arlington-client.md,
// "Identity"): a JSON object from each server's origin to the identity
// token that server issued, so the terminal is the same player from one
// run to the next, as a browser is with its cookie store.

// identityFileName is the file's name in the user's config directory.
const identityFileName = "arlington-identity.json"

// maxIdentityFile bounds the read: thousands of servers' entries, far
// more than anyone plays on, and a file of junk is refused unread.
const maxIdentityFile = 64 << 10

// errIdentityFile marks a file connect will not use or rewrite.
var errIdentityFile = errors.New("identity file")

// defaultIdentityPath is cardtable/arlington-identity.json in the user's
// config directory ($XDG_CONFIG_HOME or ~/.config on Linux).
func defaultIdentityPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no config directory to keep the identity in (%w); name a file with --identity to keep it", err)
	}
	return filepath.Join(dir, "cardtable", identityFileName), nil
}

// parseIdentities reads an identity file's contents: an object of origins
// to tokens (empty contents: no entries). Anything else is an error, so
// a hand-edited file is never half-read.
func parseIdentities(b []byte) (map[string]string, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]string{}, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("not a JSON object of server to token: %w", err)
	}
	if raw == nil {
		return nil, errors.New("not a JSON object of server to token: null")
	}
	m := make(map[string]string, len(raw))
	for k, v := range raw {
		origin, err := arlclient.CanonicalOrigin(k)
		if err != nil || origin != k {
			if !strings.Contains(k, "://") {
				// Not quoted: a token written as a key (entries turned
				// around by hand) is a secret all the same.
				return nil, errors.New("a key is not a server's origin, written as scheme://host:port")
			}
			return nil, fmt.Errorf("%q is not a server's origin, written as scheme://host:port", k)
		}
		var token string
		if err := json.Unmarshal(v, &token); err != nil {
			return nil, fmt.Errorf("the entry of %s is not a string", k)
		}
		if !arlclient.ValidToken(token) {
			// The token itself is never quoted: it is a secret.
			return nil, fmt.Errorf("the entry of %s is not an identity token (1 to %d printable characters without spaces, quotes, commas, semicolons or backslashes)", k, arlclient.MaxToken)
		}
		m[k] = token
	}
	return m, nil
}

// loadIdentities reads the identity file at path; a missing file has no
// entries. A file connect cannot use whole, or one others can read, is an
// error naming it: playing on as a new player would lose the player's
// rating and name without a word, and rewriting it would lose the
// entries it could not read.
func loadIdentities(path string) (map[string]string, error) {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	f, err := openSaveFile(path) // a pipe or device is refused, not waited on
	if err != nil {
		return nil, fmt.Errorf("%w: %w; name a file with --identity, or --identity \"\" to play without one", errIdentityFile, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w", errIdentityFile, path, osReason(err))
	}
	// As ssh does with a private key: a token others could read may be
	// theirs to act with, and using it on would hide that.
	if perm := st.Mode().Perm(); runtime.GOOS != "windows" && perm&0o077 != 0 {
		return nil, fmt.Errorf("%w %s can be read or written by others (mode %04o): whoever read it can act as you; make it yours alone (chmod 600 %s), or play without it with --identity \"\"", errIdentityFile, path, perm, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxIdentityFile+1))
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w", errIdentityFile, path, osReason(err))
	}
	if len(b) > maxIdentityFile {
		return nil, fmt.Errorf("%w %s is longer than %d KiB, not one connect wrote; it is left as it is: move it away (a new one is then made), or play without it with --identity \"\"", errIdentityFile, path, maxIdentityFile>>10)
	}
	m, err := parseIdentities(b)
	if err != nil {
		return nil, fmt.Errorf("%w %s is damaged (%w); it is left as it is: fix it or move it away (a new one is then made), or play without it with --identity \"\"", errIdentityFile, path, err)
	}
	return m, nil
}

// saveIdentity records token as origin's identity in the file at path in
// place of kept (the one this run read, "" none), keeping every other
// entry. The file is read again first, so an entry another run saved
// since this one started is kept, origin's too: a run that started at
// the same time as another and saved after it does not replace the
// identity that one was told is kept. A file that cannot be read whole
// is left as it is, and so is one the new entry would make too long to
// read. The new contents replace the old at once (replaceFile, as a
// game's save does: a temporary file renamed over it, a symbolic link
// followed): a crash leaves the old file or the new one, never a part.
// A new file is 0600, in a 0700 directory.
func saveIdentity(path, origin, kept, token string) error {
	m, err := loadIdentities(path)
	if err != nil {
		return err
	}
	switch m[origin] {
	case token:
		return nil
	case kept, "": // "": none, or removed by hand since
	default:
		return fmt.Errorf("%w %s: another run kept its identity at %s there meanwhile, and that one stays", errIdentityFile, path, origin)
	}
	m[origin] = token
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("%w %s: %w", errIdentityFile, path, osReason(err))
	}
	b, err := json.MarshalIndent(m, "", "  ") // sorted, one entry a line: easy to read by hand
	if err != nil {
		return err
	}
	if len(b)+1 > maxIdentityFile {
		// Written, it would be refused by every later run.
		return fmt.Errorf("%w %s has no room for another server's entry (%d KiB at most); it is left as it is: remove the entries of servers you no longer play on", errIdentityFile, path, maxIdentityFile>>10)
	}
	if err := replaceFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("%w %s: %w", errIdentityFile, path, err)
	}
	return nil
}
