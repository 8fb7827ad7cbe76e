package web

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The pages' modules are fetched at once: each page lists every module its
// script imports, directly or not, as <link rel="modulepreload">, so the
// browser asks for them all with the page instead of learning of each
// level of imports only once the level above has come (on a slow network
// a round trip a level; docs/page.md, "The first load on a slow network").

var (
	moduleEntry = regexp.MustCompile(`<script type="module" src="([^"]+)"></script>`)
	preloadLink = regexp.MustCompile(`<link rel="modulepreload" href="([^"]+)">`)
	importFrom  = regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*)"([^"]+)"`)
)

// moduleGraph is every module the module at URL u imports, directly or not.
func moduleGraph(t *testing.T, files staticFiles, u string, seen map[string]bool) {
	f := files[u]
	if f == nil {
		t.Fatalf("%s is imported and not served", u)
	}
	for _, m := range importFrom.FindAllStringSubmatch(string(f.body), -1) {
		dep := m[1]
		if strings.HasPrefix(dep, ".") {
			dep = path.Join(path.Dir(u), dep)
		}
		if !seen[dep] {
			seen[dep] = true
			moduleGraph(t, files, dep, seen)
		}
	}
}

func TestPagesPreloadTheirModules(t *testing.T) {
	sub, err := fs.Sub(Static, "static")
	if err != nil {
		t.Fatal(err)
	}
	files, err := loadStatic(sub)
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for u, f := range files {
		if !strings.HasSuffix(u, ".html") {
			continue
		}
		entry := moduleEntry.FindStringSubmatch(string(f.body))
		if entry == nil {
			continue
		}
		pages++
		want := map[string]bool{}
		moduleGraph(t, files, entry[1], want)
		var got []string
		for _, m := range preloadLink.FindAllStringSubmatch(string(f.body), -1) {
			got = append(got, m[1])
		}
		for dep := range want {
			if !slices.Contains(got, dep) {
				t.Errorf("%s imports %s and does not preload it", u, dep)
			}
		}
		for _, g := range got {
			if !want[g] {
				t.Errorf("%s preloads %s, which its script does not import", u, g)
			}
		}
	}
	if pages < 6 {
		t.Errorf("%d pages with a module script, want the six at least", pages)
	}
}
