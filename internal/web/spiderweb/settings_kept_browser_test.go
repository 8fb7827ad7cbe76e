package spiderweb

import (
	"strings"
	"testing"
)

// TestBrowserSettingsKeptElsewhere: a write the server does not store,
// answered with other settings it keeps, is not taken for stored. Tab A
// writes verbose off with a revision an hour ahead (clamped to a minute),
// then verbose on with no revision (a page from before revisions: the
// revision kept stays); tab B's change to sound is older, refused, and
// answered with A's settings. B shows and keeps those, and says so; it
// showed its own change as saved, and so did every later one.
func TestBrowserSettingsKeptElsewhere(t *testing.T) {
	t.Parallel()
	ss := newSettingsBrowser(t)
	a, b := ss.tab(), ss.tab()
	put := func(body string) {
		t.Helper()
		var status int
		a.eval(`fetch("/api/settings", {method: "PUT", headers: {"Content-Type": "application/json"}, body: `+body+`}).then((r) => r.status)`, &status)
		if status != 200 {
			t.Fatalf("PUT %s: %d", body, status)
		}
	}
	put(`JSON.stringify({verbose: false, rev: Date.now() + 3600000})`)
	put(`JSON.stringify({verbose: true})`)
	sound := copied[bool](b, "sound")
	toggle(b, "sound")
	b.idle()
	b.waitJS(`localStorage.getItem("cardtable.spider.settings.unsent") !== "1"`, "tab B's write to be settled")
	if got := copied[bool](b, "sound"); got != sound {
		t.Errorf("tab B's copy has sound %v, which the server did not store (it keeps %v)", got, sound)
	}
	if !copied[bool](b, "verbose") {
		t.Error("tab B's copy does not have the verbose on that the server keeps")
	}
	waitSetting(b, "verbose", "true", "tab B's menu to show the settings kept")
	if msg := b.text("#toast .msg"); !strings.Contains(msg, "changed on another device were kept") {
		t.Errorf("message after the write answered with other settings: %q", msg)
	}
}
