// Package buildinfo reads what the Go toolchain recorded about this
// binary's build: the module version and the version-control commit, its
// time and whether the tree had changes. The command line prints it
// (cardtable version); the server may report it too.
package buildinfo

import (
	"fmt"
	"runtime/debug"
)

// Info is a build's identity. Fields the build did not record are
// "unknown" (a `go run` or a build with -buildvcs=false has no commit).
type Info struct {
	Version   string // the main module's version, "(devel)" for a build from a checkout
	Commit    string // vcs.revision
	Time      string // vcs.time, the commit's time (RFC 3339)
	Modified  bool   // vcs.modified: the tree had uncommitted changes
	GoVersion string
}

// Read returns this binary's build information.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "unknown", Commit: "unknown", Time: "unknown", GoVersion: "unknown"}
	}
	return FromBuildInfo(bi)
}

// FromBuildInfo reads the fields of bi.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Version: bi.Main.Version, Commit: "unknown", Time: "unknown", GoVersion: bi.GoVersion}
	if in.Version == "" {
		in.Version = "unknown"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Commit = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// String is the build for people, in one line:
// "cardtable (devel), commit 1a2b3c4d (modified), commit time 2026-11-26T15:00:00Z, go1.26.0".
func (in Info) String() string {
	commit := in.Commit
	if in.Modified {
		commit += " (modified)"
	}
	return fmt.Sprintf("cardtable %s, commit %s, commit time %s, %s", in.Version, commit, in.Time, in.GoVersion)
}
