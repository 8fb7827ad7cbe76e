//go:build !unix

package store

import "os"

// lockFile does nothing where flock is missing: there, two servers on one
// database are not prevented.
func lockFile(*os.File) error { return nil }
