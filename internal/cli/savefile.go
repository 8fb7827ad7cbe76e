package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinkHops bounds how many symbolic links saveFile follows, as the
// kernel does (ELOOP), so that a loop of links is refused.
const maxLinkHops = 40

// saveFile writes data as the file name, for the in-game `save FILE` of
// both games (docs/formats.md, "Saving over a file"):
//
//   - A symbolic link is followed to the file it names, even a link to a
//     file not there yet; the link stays a link and its target gets the
//     save.
//   - Anything but a regular file (a directory, a device such as
//     /dev/full, a pipe or a socket) is refused and left alone.
//   - The data goes to a temporary file in the target's own directory,
//     which is synced and then renamed over the target, so a failed write
//     (a full disk) leaves the previous save whole. A file saved over
//     keeps its permissions; a new one gets 0644.
//
// Errors say "cannot save to NAME: REASON" with the name the player gave,
// never the temporary file.
func saveFile(name, data string) error {
	if err := replaceFile(name, []byte(data), 0o644); err != nil {
		return fmt.Errorf("cannot save to %s: %w", name, err)
	}
	return nil
}

// replaceFile is saveFile's writing, for any file replaced whole (also
// arlington connect's identity file): a new file gets mode newMode. Its
// errors give the reason only, for the caller to name the file.
func replaceFile(name string, data []byte, newMode fs.FileMode) (err error) {
	if name == "" {
		return errors.New("no file name")
	}
	if strings.HasSuffix(name, string(filepath.Separator)) {
		return errors.New("it names a directory")
	}
	path, err := realTarget(name)
	if err != nil {
		return osReason(err)
	}
	mode := newMode
	switch fi, err := os.Stat(path); {
	case err == nil && fi.IsDir():
		return errors.New("it is a directory")
	case err == nil && !fi.Mode().IsRegular():
		return errors.New("it is not a regular file (a device, pipe or socket), so it is left alone")
	case err == nil:
		mode = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return osReason(err)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".cardtable-save-*")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %w", dir, osReason(err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return osReason(err)
	}
	// CreateTemp makes the file private; a file replaced keeps the mode of
	// the one it replaces, and a new one gets newMode.
	if err := tmp.Chmod(mode); err != nil {
		return osReason(err)
	}
	if err := tmp.Sync(); err != nil {
		return osReason(err)
	}
	if err := tmp.Close(); err != nil {
		return osReason(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return osReason(err)
	}
	// The rename is durable only once the directory is synced; a failure
	// here loses nothing already on disk, so it is not reported.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// realTarget follows name through any symbolic links to the path of the
// file they lead to, which need not exist yet (a dangling link names the
// file to create). The directories on the way are resolved too, so that a
// relative link is read from where it really is.
func realTarget(name string) (string, error) {
	p := name
	for range maxLinkHops {
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			return "", fmt.Errorf("cannot create a file in %s: %w", filepath.Dir(p), osReason(err))
		}
		p = filepath.Join(dir, filepath.Base(p))
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		to, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(dir, to)
		}
		p = to
	}
	return "", errors.New("too many levels of symbolic links")
}

// osReason is the reason in an error from the os package without the
// operation and path it repeats ("no such file or directory").
func osReason(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// openSaveFile opens name for reading a save (both games' load): anything
// but a regular file is refused, as saveFile refuses to write one. Opening
// a FIFO waits for a writer, and reading a device may never end; so the
// name is checked first, opened without blocking, and the opened file
// checked again (the name could change in between).
func openSaveFile(name string) (*os.File, error) {
	notRegular := func(fi fs.FileInfo) error {
		if fi.IsDir() {
			return fmt.Errorf("cannot read %s: it is a directory", name)
		}
		return fmt.Errorf("cannot read %s: it is not a regular file (a device, pipe or socket)", name)
	}
	fi, err := os.Stat(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, osReason(err))
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(fi)
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, osReason(err))
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", name, osReason(err))
		}
		return nil, notRegular(fi)
	}
	return f, nil
}
