package arlweb

import (
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
)

// citedRules are the rule names the engine can give in a refusal: every
// literal passed to refuse or to its table-set helper in the rules
// package's source (read, not copied, so a new rule name is seen).
func citedRules(tb testing.TB) []string {
	tb.Helper()
	b, err := os.ReadFile("../../../arlington/legal.go")
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`\b(?:refuse|target)\("([^"]+)"`).FindAllSubmatch(b, -1) {
		if n := string(m[1]); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	// The control: the names the reader must find include ones it could
	// only find through each of the two calls.
	for _, want := range []string{"Leading a Set", "The Game", "Playing the Two of Spades"} {
		if !slices.Contains(names, want) {
			tb.Fatalf("the rule names read from the engine %q miss %q", names, want)
		}
	}
	return names
}

// TestRulesPageServed: /arlington/rules is the rules page, and the lobby
// and the table page link to it.
func TestRulesPageServed(t *testing.T) {
	e := newEnv(t, Limits{})
	for path, want := range map[string]string{
		"/arlington/rules": `<h1>How to play Arlington</h1>`,
		"/arlington/":      `href="/arlington/rules"`,
		"/arlington/t/x":   `href="/arlington/rules"`,
	} {
		res, err := http.Get(e.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
			t.Errorf("GET %s: %d, want 200 with %s", path, res.StatusCode, want)
		}
	}
}

// TestRulesPageSections (the quick version of the browser test below):
// the rules page's HTML has a section for every rule a refusal can cite,
// under the anchor the table page's link names (common.js ruleHref).
func TestRulesPageSections(t *testing.T) {
	b, err := os.ReadFile("../static/arlington/rules.html")
	if err != nil {
		t.Fatal(err)
	}
	slug := regexp.MustCompile(`[^a-z0-9]+`)
	for _, n := range citedRules(t) {
		id := strings.Trim(slug.ReplaceAllString(strings.ToLower(n), "-"), "-")
		if !strings.Contains(string(b), `<section id="`+id+`"`) {
			t.Errorf("the rules page has no section %q for the rule %q", id, n)
		}
	}
}

// TestLongBrowserRulesPage (long: a browser, several seconds under -race;
// make test-long runs it): the rules page loads on a phone without errors or
// policy violations, draws every example's cards with the shared drawing,
// and every rule a refusal can cite has its section, reached through the
// same link the table page puts in the refusal.
func TestLongBrowserRulesPage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	names := citedRules(t)
	e := newEnv(t, Limits{})
	p := newTab(t, startBrowser(t), 390, 844)
	csp := watchCSP(p)
	p.do(chromedp.Navigate(e.srv.URL + "/arlington/rules"))
	p.wait(`document.querySelectorAll("figure.ex .ex-cards").length === document.querySelectorAll("figure.ex").length`, "the examples drawn")
	var r struct {
		Figures, Drawn int
		Missing        []string
	}
	p.eval(`import("/arlington/common.js").then((m) => ({
	  Figures: document.querySelectorAll("figure.ex").length,
	  Drawn: [...document.querySelectorAll("figure.ex")].filter((f) =>
	    f.querySelectorAll("svg.card use").length === f.dataset.cards.split(/[\s|]+/).filter(Boolean).length).length,
	  Missing: `+jsList(names)+`.filter((n) => {
	    const id = m.ruleHref(n).split("#")[1];
	    const s = document.getElementById(id);
	    return !s || s.tagName !== "SECTION";
	  }),
	}))`, &r)
	if r.Figures < 10 || r.Drawn != r.Figures {
		t.Errorf("%d of %d examples drew all their cards, want every one of at least 10", r.Drawn, r.Figures)
	}
	if len(r.Missing) != 0 {
		t.Errorf("the rules page has no section for the rules %q a refusal can cite", r.Missing)
	}
	p.phoneCheck("the rules page")
	csp.check(p, "the rules page")
}

// jsList writes names as a JS array of strings.
func jsList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + strings.ReplaceAll(n, `"`, `\"`) + `"`
	}
	return "[" + strings.Join(q, ",") + "]"
}

// TestGamesAPIEmpty: a new player's games are an empty list, and the page
// that shows them is served.
func TestGamesAPIEmpty(t *testing.T) {
	e := newEnv(t, Limits{})
	var got struct {
		Games []table.Game `json:"games"`
	}
	if code := e.client().do("GET", "/api/arlington/games", nil, &got); code != http.StatusOK || got.Games == nil || len(got.Games) != 0 {
		t.Errorf("GET /api/arlington/games: %d %+v, want 200 and an empty list", code, got)
	}
	res, err := http.Get(e.srv.URL + "/arlington/games")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(b), `<h1>Your games</h1>`) {
		t.Errorf("GET /arlington/games: %d", res.StatusCode)
	}
}
