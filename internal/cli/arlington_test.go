package cli

// arlington set and compare: a set's spectra and points, refusals in
// words, and the comparison of two sets.

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// arlRun runs cardtable with args and stdin, returning stdout, stderr and
// the exit status.
func arlRun(tb testing.TB, stdin string, args ...string) (string, string, int) {
	tb.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestArlingtonSetJSON(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"DQ", "JK"}, `{"legal":true,"spectra":["multiples","couples","runs"],"points":8}`},
		{[]string{"S7 H7 D7 C7 JK"}, `{"legal":false,"spectra":[],"points":0,"why":"Not a set: a joker must stand for a card not in the set, and with all four 7s in it none is left for a joker (rule \"Jokered Sets\")."}`},
		{[]string{"SK", "SQ"}, `{"legal":true,"spectra":["couples","runs"],"points":8}`},
		{[]string{"QS", "KS"}, `{"legal":true,"spectra":["couples","runs"],"points":8}`},
		{[]string{"H2"}, `{"legal":true,"spectra":["couples"],"points":2}`},
		{[]string{"SA,HA,DA"}, `{"legal":true,"spectra":["aces","multiples"],"points":4}`},
		{[]string{"HT", "HJ", "HQ"}, `{"legal":true,"spectra":["runs"],"points":4}`},
		{[]string{"SA", "S2"}, `{"legal":false,"spectra":[],"points":0,"why":"Not a run: aces are high, not next to the 2, so a run with both holds every rank of its suit; 11 missing, and 0 joker(s) to fill them (rule \"Runs\")."}`},
		{[]string{"JK"}, `{"legal":true,"spectra":["aces","couples"],"points":2}`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := arlRun(t, "", append([]string{"arlington", "set", "--json"}, tc.args...)...)
			if code != 0 || strings.TrimSpace(out) != tc.want {
				t.Fatalf("exit %d, out %q, err %q; want %s", code, out, errOut, tc.want)
			}
			var v struct {
				Legal   bool     `json:"legal"`
				Spectra []string `json:"spectra"`
				Points  int      `json:"points"`
				Why     string   `json:"why"`
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			if (v.Why == "") != v.Legal {
				t.Fatalf("legal %v with why %q: an illegal group is told why, a set is not", v.Legal, v.Why)
			}
		})
	}
}

func TestArlingtonSetText(t *testing.T) {
	out, _, code := arlRun(t, "", "arlington", "set", "DK", "DQ")
	if code != 0 || out != "{KD, QD}: legal set\nspectra: couples runs\npoints: 8\n" {
		t.Fatalf("exit %d: %q", code, out)
	}
	out, _, code = arlRun(t, "", "arlington", "set", "SQ", "HT")
	// An illegal group is told why, in the words the page uses.
	const why = "why: Not a set: these cards are not of one rank, not a run of one suit and not a couple (rule \"Sets\"). A set is"
	if code != 0 || !strings.HasPrefix(out, "{QS, TH}: not a legal set\n"+why) || strings.Count(out, "\n") != 2 {
		t.Fatalf("exit %d: %q", code, out)
	}
}

func TestArlingtonBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown card", []string{"set", "SQ", "XX"}, "bad card"},
		{"card twice", []string{"set", "SQ", "QS"}, "QS given twice"},
		{"three jokers", []string{"set", "--json", "JK", "JK", "JK"}, "more than two jokers"},
		{"no cards", []string{"set"}, "no cards"},
		{"compare without spectrum", []string{"compare", "SA", "HA"}, "--spectrum is required"},
		{"compare unknown spectrum", []string{"compare", "--spectrum", "flush", "SA", "HA"}, `unknown spectrum "flush" (want aces, multiples, couples or runs)`},
		{"compare one set", []string{"compare", "--spectrum", "aces", "SA"}, "want two sets"},
		{"compare not in spectrum", []string{"compare", "--spectrum", "runs", "7S JK", "7H 7D"}, "not a legal set in runs"},
		{"compare duplicate", []string{"compare", "--spectrum", "aces", "SA SA", "HA"}, "given twice"},
		{"selfplay players", []string{"selfplay", "--players", "7"}, `--players "7": want 2 to 6`},
		{"selfplay seats", []string{"selfplay", "--players", "2", "--seats", "random,smart"}, "unknown bot"},
		{"selfplay too many seats", []string{"selfplay", "--players", "2", "--seats", "random,random,random"}, `--seats "random,random,random" lists 3 bots for --players "2"`},
		{"play seat", []string{"play", "--players", "3", "--seat", "4"}, `--seat "4": want 1 to 3`},
		{"play seat 0", []string{"play", "--players", "3", "--seat", "0"}, `--seat "0": want 1 to 3`},
		{"play seed", []string{"play", "--seed", "x"}, "--seed must be a whole number"},
		{"play target 0", []string{"play", "--target", "0"}, `--target "0": want 1 to 1000`},
		{"play target too large", []string{"play", "--target", "1001"}, `--target "1001": want 1 to 1000`},
		{"selfplay target 0", []string{"selfplay", "--target", "0"}, `--target "0": want 1 to 1000`},
		{"selfplay target too large", []string{"selfplay", "--target", "100000"}, `--target "100000": want 1 to 1000`},
		{"bench target too large", []string{"bench", "--target", "1000000"}, `--target "1000000": want 1 to 1000`},
		{"selfplay seeds wrap", []string{"selfplay", "--seed", "18446744073709551615", "--games", "2"}, "runs past the largest seed"},
		{"bench seeds wrap", []string{"bench", "--seed", "18446744073709551610", "--games", "7"}, "runs past the largest seed"},
		{"play stray argument", []string{"play", "extra"}, `unexpected argument "extra"`},
		{"unknown subcommand", []string{"fly"}, `unknown command "fly" for "cardtable arlington"`},
		{"no subcommand", nil, "arlington: missing subcommand"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := arlRun(t, "", append([]string{"arlington"}, tc.args...)...)
			if code != 2 || !strings.Contains(errOut, tc.want) || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tc.want)
			}
		})
	}
}

func TestArlingtonCompare(t *testing.T) {
	for _, tc := range []struct {
		sp, a, b, want string
	}{
		{"multiples", "7S JK", "7H JK", "equal"},
		{"multiples", "S3 H3 D3 C3", "S7 H7 D7", "higher"},
		{"multiples", "S7 H7 C7", "S7 H7 D7", "lower"},
		{"multiples", "S8 C8", "H8 D8", "higher"},
		{"couples", "H2", "SK HQ", "higher"},
		{"couples", "H2", "CQ CJ", "lower"},
		{"runs", "{S5, S6, S7}", "HA HK", "higher"},
		{"aces", "JK", "SA", "equal"},
	} {
		t.Run(tc.sp+" "+tc.a+" "+tc.b, func(t *testing.T) {
			out, errOut, code := arlRun(t, "", "arlington", "compare", "--spectrum", tc.sp, tc.a, tc.b)
			if code != 0 || strings.TrimSpace(out) != tc.want {
				t.Fatalf("exit %d, %q %q; want %s", code, out, errOut, tc.want)
			}
		})
	}
}

// The unknown-spectrum message blames the spectrum, not the cards.
func TestArlingtonCompareSpectrumMessage(t *testing.T) {
	_, errOut, code := arlRun(t, "", "arlington", "compare", "--spectrum", "foo", "SA", "HA")
	if code != 2 || strings.Contains(errOut, "bad card") || !strings.Contains(errOut, `unknown spectrum "foo"`) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
