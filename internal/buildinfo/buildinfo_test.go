package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"from a commit", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-26T15:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			"cardtable v1.2.3, commit abc123, commit time 2026-11-26T15:00:00Z, go1.26.0"},
		{"changed tree", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}},
			"cardtable (devel), commit abc123 (modified), commit time unknown, go1.26.0"},
		{"no vcs", debug.BuildInfo{GoVersion: "go1.26.0"},
			"cardtable unknown, commit unknown, commit time unknown, go1.26.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FromBuildInfo(&tc.bi).String(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
