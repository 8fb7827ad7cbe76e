package ascii

import "testing"

func TestLower(t *testing.T) {
	for in, want := range map[string]string{
		"":          "",
		"moves":     "moves",
		"AbİZ":      "abİz",
		"SPİDER":    "spİder",
		"moveſ":     "moveſ",
		"\u212Aind": "\u212Aind",
		"DEAL 1":    "deal 1",
	} {
		if got := Lower(in); got != want {
			t.Errorf("Lower(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"Suits", "suits", true},
		{"SUITS", "suits", true},
		{"ſuits", "suits", false},
		{"\u212Aind", "kind", false},
		{"suit", "suits", false},
		{"", "", true},
	} {
		if got := Equal(c.a, c.b); got != c.want {
			t.Errorf("Equal(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
