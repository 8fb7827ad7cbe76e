package web

import (
	"strings"
	"testing"
)

func TestNormalizeHost(t *testing.T) {
	tests := []struct {
		in, want string // want "" for an error
	}{
		{"localhost", "localhost"},
		{"Cards.Example.", "cards.example"},
		{" cards.example ", "cards.example"},
		{"xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"192.168.1.20", "192.168.1.20"},
		{"[2001:DB8::7]", "2001:db8::7"},
		{"2001:db8::7", "2001:db8::7"},
		{"::ffff:10.0.0.1", "10.0.0.1"},
		{"my-box", "my-box"},
		{"", ""},
		{"cards.example:8080", ""},
		{"192.168.1.20:8080", ""},
		{"a..b", ""},
		{"-a.example", ""},
		{"a-.example", ""},
		{"under_score.example", ""},
		{"*", ""},
		{"*.example", ""},
		{"http://cards.example", ""},
		{"fe80::1%eth0", ""},
		{strings.Repeat("a", 64) + ".example", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := NormalizeHost(tc.in)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("NormalizeHost(%q) = %q, want an error", tc.in, got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("NormalizeHost(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}
