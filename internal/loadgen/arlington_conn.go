package loadgen

// The load run's requests and WebSockets: creating and joining tables as
// an identity, opening a person's connection and closing it.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

const playerCookie = "cardtable_player"

// post sends a JSON request as the identity cookie (none: a new one) and
// returns the identity the answer sets, or the same one. A rate-limited
// request (429 with Retry-After: a server creating tables for one address
// only so fast) is sent again after the wait the answer asks for; another
// status than want is a *statusError.
func (r *arlRun) post(ctx context.Context, path, cookie, xff string, body any, want int, v any) (string, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return "", err
	}
	var resp *http.Response
	for {
		req, err := http.NewRequestWithContext(ctx, "POST", r.url()+path, strings.NewReader(string(b)))
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/json")
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: playerCookie, Value: cookie})
		}
		if resp, err = r.hc.Do(req); err != nil {
			return "", err
		}
		// Only a rate limit says when to come back; a 429 without
		// Retry-After (too many tables open) is final.
		secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if resp.StatusCode != http.StatusTooManyRequests || err != nil || secs < 1 {
			break
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		wait := time.Duration(secs) * time.Second
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", ctx.Err()
		case <-t.C:
		}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != want {
		return "", &statusError{path: path, status: resp.Status, code: resp.StatusCode, body: data}
	}
	for _, c := range resp.Cookies() {
		if c.Name == playerCookie {
			cookie = c.Value
		}
	}
	if cookie == "" {
		return "", fmt.Errorf("POST %s: no identity cookie", path)
	}
	if v != nil {
		return cookie, json.Unmarshal(data, v)
	}
	return cookie, nil
}

// url is the next server in turn.
func (r *arlRun) url() string {
	return r.cfg.URLs[(r.nextURL.Add(1)-1)%uint64(len(r.cfg.URLs))]
}

// connect opens p's WebSocket and says hello (a full view, please).
func (r *arlRun) connect(ctx context.Context, p *person) error {
	u := "ws" + strings.TrimPrefix(r.url(), "http") + "/api/arlington/tables/" + p.t.id + "/ws"
	h := http.Header{}
	h.Set("Cookie", (&http.Cookie{Name: playerCookie, Value: p.cookie}).String())
	if p.t.xff != "" {
		h.Set("X-Forwarded-For", p.t.xff)
	}
	c, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: r.hc, HTTPHeader: h})
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
			return refused(resp, int(r.open.Load()))
		}
		return fmt.Errorf("connecting seat %d: %w", p.seat, err)
	}
	c.SetReadLimit(4 << 20) // a full view of a long game
	p.cmu.Lock()
	p.c = c
	p.cmu.Unlock()
	r.open.Add(1)
	p.live.Store(true)
	if err := send(ctx, c, map[string]any{"type": "hello", "since": -1}); err != nil {
		r.closeConn(p) // not left open behind a retry
		return err
	}
	return nil
}

// closeConn closes p's connection and counts it out of those open.
func (r *arlRun) closeConn(p *person) {
	p.conn().CloseNow()
	if p.live.Swap(false) {
		r.open.Add(-1)
	}
}

// conn is p's connection now.
func (p *person) conn() *websocket.Conn {
	p.cmu.Lock()
	defer p.cmu.Unlock()
	return p.c
}

func send(ctx context.Context, c *websocket.Conn, m any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.Write(ctx, websocket.MessageText, b)
}
