package cli

import (
	"context"
	"strings"
	"testing"

	"cardtable/arlington"
	"cardtable/spider"
)

// TestCompleteFlagValues: shell completion offers the words a flag takes
// (it offered the directory's files), after the last comma of a list of
// seats, and only where the flag takes them: a number of bot seats, or a
// file, still completes as before. The words offered are the ones the
// program reads.
func TestCompleteFlagValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string // the words offered; nil: none, files instead
		list bool     // a list: no space after a word, more may follow
	}{
		{"variant", []string{"spider", "play", "--variant", ""}, []string{"arachnid", "spider"}, false},
		{"suits", []string{"spider", "solve", "--suits", ""}, []string{"1", "2", "4"}, false},
		{"cheat", []string{"spider", "new", "--cheat", ""}, []string{"none", "newcards", "full"}, false},
		{"bench mode", []string{"spider", "bench", "--mode", ""}, []string{"solve", "autoplay"}, false},
		{"analysed player", []string{"spider", "analyze", "bench", "--player", ""}, []string{"greedy", "fair"}, false},
		{"spectrum", []string{"arlington", "compare", "--spectrum", ""}, []string{"aces", "multiples", "couples", "runs"}, false},
		{"log format", []string{"serve", "--log-format", ""}, []string{"text", "json"}, false},
		{"bots after a comma", []string{"arlington", "play", "--bots", "medium,h"},
			[]string{"medium,random", "medium,greedy", "medium,easy", "medium,medium", "medium,hard", "medium,expert", "medium,master"}, true},
		{"a table's seats", []string{"arlington", "new-table", "--seats", ""},
			[]string{"human", "random", "greedy", "easy", "medium", "hard", "expert", "master"}, true},
		{"self-play seats", []string{"arlington", "selfplay", "--seats", ""},
			[]string{"random", "greedy", "easy", "medium", "hard", "expert", "master"}, true},
		{"connect's bot", []string{"arlington", "connect", "--bot", ""},
			[]string{"random", "greedy", "easy", "medium", "hard", "expert", "master"}, false},
		{"bot seats as a number", []string{"serve", "bench", "--bots", ""}, nil, false},
		{"a file", []string{"spider", "play", "--load", ""}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs strings.Builder
			if code := Run(context.Background(), append([]string{"__complete"}, tc.args...), strings.NewReader(""), &out, &errs); code != exitOK {
				t.Fatalf("exit %d: %s", code, errs.String())
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			got, directive := lines[:len(lines)-1], lines[len(lines)-1]
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("offered %q, want %q", got, tc.want)
			}
			// :4 no files; :6 no files and no space (a list goes on); :0
			// the shell's own (files).
			want := ":4"
			switch {
			case tc.want == nil:
				want = ":0"
			case tc.list:
				want = ":6"
			}
			if directive != want {
				t.Errorf("directive %s, want %s", directive, want)
			}
		})
	}
	for _, v := range flagChoices["variant"].values {
		if _, err := spider.ParseVariant(v); err != nil {
			t.Errorf("--variant %s offered: %v", v, err)
		}
	}
	for _, v := range flagChoices["cheat"].values {
		if _, err := spider.ParseCheatLevel(v); err != nil {
			t.Errorf("--cheat %s offered: %v", v, err)
		}
	}
	for _, v := range flagChoices["spectrum"].values {
		if _, err := arlington.ParseSpectrum(v); err != nil {
			t.Errorf("--spectrum %s offered: %v", v, err)
		}
	}
}
