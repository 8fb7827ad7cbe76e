//go:build !unix

package store

import "os"

// ownLike does nothing here: files have no Unix owner to match.
func ownLike(string, os.FileInfo) error { return nil }
