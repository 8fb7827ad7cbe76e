package cardtable_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRulesDocNamesRealTests: every test docs/rules-arlington.md names as
// pinning a rule is one the repository has, and so is every subtest it
// names (TestX/name_with_underscores: the name, spaces for underscores,
// is a string in TestX's file). A renamed test would otherwise leave the
// rule-by-rule table pointing at nothing.
func TestRulesDocNamesRealTests(t *testing.T) {
	doc, err := os.ReadFile("docs/rules-arlington.md")
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{} // test function name: its file's text
	for _, dir := range []string{"arlington", "arlington/bot", "internal/cli"} {
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range regexp.MustCompile(`(?m)^func (Test\w+)\(`).FindAllSubmatch(b, -1) {
				sources[string(m[1])] = string(b)
			}
		}
	}
	named := regexp.MustCompile("`(Test\\w+)(/[^`]*)?`").FindAllStringSubmatch(string(doc), -1)
	if len(named) < 40 {
		t.Fatalf("read %d test names from docs/rules-arlington.md, want the rule-by-rule table's", len(named))
	}
	for _, m := range named {
		src, ok := sources[m[1]]
		if !ok {
			t.Errorf("docs/rules-arlington.md names %s, which no test file declares", m[1])
			continue
		}
		if sub := strings.TrimPrefix(m[2], "/"); sub != "" && sub != "…" {
			// A case's name is the last part; table cases write it whole.
			words := strings.ReplaceAll(sub, "_", " ")
			last := words[strings.LastIndex(words, "/")+1:]
			if !strings.Contains(src, `"`+words+`"`) && !strings.Contains(src, "/"+last+`"`) && !strings.Contains(src, `"`+last+`"`) {
				t.Errorf("docs/rules-arlington.md names %s%s: no case %q in its file", m[1], m[2], words)
			}
		}
	}
}
