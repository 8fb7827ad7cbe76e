package spiderweb

import "testing"

// TestBrowserGameAskedWithSettings: a page opened again asks for its game
// together with the settings, not once the settings have come: on a slow
// network that was a round trip more before the table showed.
func TestBrowserGameAskedWithSettings(t *testing.T) {
	t.Parallel()
	srv := pageServer(t)
	p := openPage(t, startBrowser(t), srv, 1280, 800)
	p.load() // the game the first load started is in sessionStorage
	var got struct {
		N                      int
		SettingsEnd, GameStart float64
	}
	p.eval(`(() => {
	  const e = performance.getEntriesByType("resource");
	  const s = e.find((x) => new URL(x.name).pathname === "/api/settings");
	  const g = e.filter((x) => new URL(x.name).pathname.startsWith("/api/games/"));
	  return {N: g.length, SettingsEnd: s ? s.responseEnd : -1, GameStart: g.length ? g[0].startTime : -1};
	})()`, &got)
	if got.N != 1 || got.SettingsEnd < 0 {
		t.Fatalf("the page asked for its game %d times and for the settings %v: want one of each", got.N, got.SettingsEnd >= 0)
	}
	if got.GameStart >= got.SettingsEnd {
		t.Errorf("the game was asked for at %.1f ms, after the settings came at %.1f ms", got.GameStart, got.SettingsEnd)
	}
}
