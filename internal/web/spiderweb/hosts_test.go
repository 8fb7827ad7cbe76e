package spiderweb

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"cardtable/internal/web"
)

// hostRequest sends method path with the given Host header.
func hostRequest(tb testing.TB, h *harness, method, path, host, body string) *httptest.ResponseRecorder {
	tb.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = host
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return h.serve(req) // one browser: the harness's cookie
}

func TestHostCheck(t *testing.T) {
	h := newServerHarness(t, Options{}, web.Options{CheckHost: true, Hosts: []string{"cards.example", "192.168.1.20", "[2001:db8::7]"}})
	tests := []struct {
		host string
		code int
	}{
		{"localhost:8080", 200},
		{"localhost", 200},
		{"LocalHost.:8080", 200},
		{"127.0.0.1:8080", 200},
		{"127.0.0.2", 200},
		{"[::1]:8080", 200},
		{"[::ffff:127.0.0.1]:8080", 200},
		{"cards.example:8080", 200},
		{"CARDS.example.", 200},
		{"192.168.1.20:8080", 200},
		{"[2001:db8::7]:8080", 200},
		// A DNS-rebinding page sends its own name.
		{"evil.example:8080", 421},
		{"evil.example", 421},
		{"localhost.evil.example", 421},
		{"127.0.0.1.evil.example", 421},
		{"cards.example.evil.example", 421},
		// Not configured: other addresses, subdomains of localhost.
		{"192.168.1.21:8080", 421},
		{"app.localhost", 421},
		{"", 421},
		{"bad host", 421},
	}
	for _, tc := range tests {
		t.Run(tc.host, func(t *testing.T) {
			rec := hostRequest(t, h, "GET", "/api/stats", tc.host, "")
			if rec.Code != tc.code {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.code, rec.Body)
			}
			if tc.code == 421 {
				var e errorBody
				if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || !strings.Contains(e.Error, "refused") {
					t.Fatalf("body %s: want a JSON error saying the host is refused", rec.Body)
				}
			}
		})
	}

	t.Run("the page is refused too", func(t *testing.T) {
		if rec := hostRequest(t, h, "GET", "/", "evil.example", ""); rec.Code != 421 {
			t.Fatalf("GET / status %d, want 421", rec.Code)
		}
	})
	t.Run("the message says how to allow the name", func(t *testing.T) {
		rec := hostRequest(t, h, "GET", "/api/stats", "Box.example:8080", "")
		if !strings.Contains(rec.Body.String(), "--host box.example") {
			t.Fatalf("body %s: want it to suggest --host box.example", rec.Body)
		}
	})
	t.Run("a refused write changes nothing", func(t *testing.T) {
		if rec := hostRequest(t, h, "PUT", "/api/settings", "localhost", `{"a":1}`); rec.Code != 200 {
			t.Fatalf("PUT from localhost: status %d: %s", rec.Code, rec.Body)
		}
		if rec := hostRequest(t, h, "PUT", "/api/settings", "evil.example", `{"a":2}`); rec.Code != 421 {
			t.Fatalf("PUT from evil.example: status %d, want 421", rec.Code)
		}
		if rec := hostRequest(t, h, "GET", "/api/settings", "localhost", ""); strings.TrimSpace(rec.Body.String()) != `{"a":1}` {
			t.Fatalf("settings are %s after the refused write, want {\"a\":1}", rec.Body)
		}
	})
	t.Run("without CheckHost every name is answered", func(t *testing.T) {
		h := newHarness(t, Options{})
		if rec := hostRequest(t, h, "GET", "/api/stats", "evil.example", ""); rec.Code != 200 {
			t.Fatalf("status %d, want 200", rec.Code)
		}
	})
}
