//go:build unix

package store

import (
	"os"
	"syscall"
)

// links is the number of names (hard links) fi's file has; 0 once deleted.
func links(fi os.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true
}
