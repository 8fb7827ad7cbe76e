package arlweb

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserArlingtonSpokenCards: the page's own spoken (common.js, the
// module the table page loads) puts in words only whole card tokens,
// with a comma between every card of a row, the joker too; names it is
// given are read as written, but for a name that is only cards (one held
// from before the server refused them), whose card is said in words (a
// seated "A♠" kept "A♠" unsaid as a card); a burst of lines keeps them
// all. Then a spectator named "Ace♠" writes "OK♥ 7♠": the chat line is
// said as written ("Oking of hearts" was said).
func TestBrowserArlingtonSpokenCards(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	tbl, _, p := openTable(t, e, "Cy", 0, "", "")
	cases := []struct {
		text string
		keep []string
		want string
	}{
		{"Ann leads the set 10♣ joker Q♣", nil, "Ann leads the set ten of clubs, joker, queen of clubs"},
		{"joker 7♠ 7♥ (a couple).", nil, "joker, seven of spades, seven of hearts (a couple)."},
		{"known in hand: 7♠ 8♠: a run", nil, "known in hand: seven of spades, eight of spades: a run"},
		{"OK♥ and A♠vian", nil, "OK♥ and A♠vian"},
		{"A♠ takes the trick with the K♠.", []string{"A♠"}, "ace of spades takes the trick with the king of spades."},
		{"Ann 7♠ leads 7♠ 8♠", []string{"Ann 7♠"}, "Ann 7♠ leads seven of spades, eight of spades"},
		{"K leads 2♦; K's turn", []string{"K"}, "K leads two of diamonds; K's turn"},
	}
	p.do(chromedp.Evaluate[chromedp.Void](`import("/arlington/common.js").then((m) => { window.__common = m; })`))
	p.until(`!!window.__common`)
	for _, c := range cases {
		got := eval[string](p, `window.__common.spoken(`+q(c.text)+`, `+jsList(c.keep)+`)`)
		if got != c.want {
			t.Errorf("spoken(%q, %q) = %q, want %q", c.text, c.keep, got, c.want)
		}
	}
	// A burst (a page back from a dropped connection hears its missed
	// plays and lines at once) keeps its first lines: with four kept,
	// they went before a screen reader reached them.
	kept := eval[int](p, `(() => { for (let i = 0; i < 8; i++) window.__common.say("burst line " + i);
	  return [...document.querySelectorAll("#say p")].filter((e) => e.textContent.startsWith("burst line ")).length; })()`)
	if kept != 8 {
		t.Errorf("a burst of 8 lines leaves %d of them in #say, want all 8", kept)
	}
	p.recordSaid()
	other := e.client().dial(tbl.ID, noHello)
	other.send(map[string]any{"type": "hello", "since": -1, "name": "Ace♠"})
	other.send(map[string]any{"type": "chat", "text": "OK♥ 7♠"})
	p.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	if said := p.said(); saidCount(said, "say: Ace♠ (watching): OK♥ 7♠") != 1 {
		t.Errorf("a chat line arrived; the page said %q, want it once, as written", said)
	}
}

// TestBrowserArlingtonOwnChatSaid: a person's own chat line is not said
// back to them whole (it was, seated and watching): its taking is said,
// "Sent.", once; the others' lines are still said.
func TestBrowserArlingtonOwnChatSaid(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	tbl, bctx, ann := openTable(t, e, "Ann", 0, "", "random")
	ann.join("Ann")
	watcher := newSeatTab(t, bctx, "Wes")
	watcher.open(e.srv.URL, tbl.ID) // stays a spectator
	for _, p := range []*seatTab{ann, watcher} {
		p.recordSaid()
	}
	ann.say("good luck all")
	watcher.until(`document.querySelectorAll(` + q(selChat) + `).length === 1`)
	watcher.say("fold now")
	for _, p := range []*seatTab{ann, watcher} {
		p.until(`document.querySelectorAll(` + q(selChat) + `).length === 2 && document.getElementById("chat-text").value === ""`)
	}
	ann.until(`[...document.querySelectorAll("#say p")].some((e) => e.textContent.includes("fold now"))`)
	cases := []struct {
		p           *seatTab
		own, theirs string
	}{{ann, "good luck all", "fold now"}, {watcher, "fold now", "good luck all"}}
	for _, c := range cases {
		said := c.p.said()
		if n := saidCount(said, c.own); n != 0 {
			t.Errorf("%s's own line was said back %d times: %q", c.p.name, n, said)
		}
		if n := saidCount(said, "say: Sent."); n != 1 {
			t.Errorf("%s's line's taking was said %d times, want once: %q", c.p.name, n, said)
		}
		if n := saidCount(said, c.theirs); n != 1 {
			t.Errorf("%s heard the other's line %d times, want once: %q", c.p.name, n, said)
		}
	}
}

// TestBrowserArlingtonRematchSaid: Ann's page shows her finished game's
// "Play again"; the rematch is made (by another page: here the API) and
// the button becomes "Rematch ready: join", which the page says, once
// (the result stopped being a live region, so nothing said it).
func TestBrowserArlingtonRematchSaid(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000}) // finishedBy sends its moves at once
	ann := e.client()
	id := finishedBy(t, ann)
	p := seatTabIn(t, startBrowser(t), "Ann")
	browserIs(p, e, ann)
	p.open(e.srv.URL, id)
	p.until(`document.getElementById("btn-rematch") && document.getElementById("btn-rematch").textContent === "Play again"`)
	p.recordSaid()
	var re rematched
	if code := ann.do("POST", "/api/arlington/tables/"+id+"/rematch", nil, &re); code != http.StatusCreated {
		t.Fatalf("rematch: %d", code)
	}
	p.until(`document.getElementById("btn-rematch").textContent === "Rematch ready: join"`)
	if said := p.said(); saidCount(said, "say: The rematch is ready") != 1 {
		t.Errorf("the rematch became ready; the page said %q, want it said once", said)
	}
}

// TestBrowserArlingtonConnSaid: the connection line is no live region
// (#say is the one for what happens at the table); a dropped connection
// is said there, "reconnecting…", once, and "connected" once it is back.
func TestBrowserArlingtonConnSaid(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{})
	_, _, p := openTable(t, e, "Cy", 0, "", "")
	p.until(`document.getElementById("conn").textContent === "connected"`)
	live := eval[[]string](p, `[...document.querySelectorAll("[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]")].map((e) => e.id)`)
	if strings.Join(live, " ") != "rp-pos say chat-msg copy-msg" {
		t.Errorf("the page's live regions are %q, want #say, the two replies by their fields (chat-msg, copy-msg) and the replay's step line (rp-pos)", live)
	}
	p.recordSaid()
	p.do(chromedp.Evaluate[chromedp.Void](`import("/arlington/connection.js").then((m) => m.conn.ws.close())`))
	p.until(`[...document.querySelectorAll("#say p")].some((e) => e.textContent === "reconnecting…")`)
	p.until(`document.getElementById("conn").textContent === "connected" && [...document.querySelectorAll("#say p")].pop().textContent === "connected"`)
	said := p.said()
	if saidCount(said, "say: reconnecting…") != 1 || saidCount(said, "say: connected") != 1 || saidCount(said, "connecting…") != 1 {
		t.Errorf("after a dropped connection the page said %q, want \"reconnecting…\" then \"connected\", once each, in #say", said)
	}
}

// TestBrowserArlingtonOwnChatForgotten: a watcher's line whose echo
// never came (lost on its way) is forgotten after 30 s: another
// watcher's same words later are said, not taken for the page's own.
// Within the 30 s they are taken for its own, as a watcher's line is
// known by its words. The page's clock is moved on, not waited for.
func TestBrowserArlingtonOwnChatForgotten(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 100}) // Olga sends her lines at once
	tbl, _, p := openTable(t, e, "Wes", 0, "", "")
	p.until(`document.getElementById("conn").textContent === "connected"`)
	// The page's chat lines are dropped on their way (never sent, so
	// never echoed nor answered), and its clock can be moved on.
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
	  const s = window.__ws.socks[window.__ws.viewSock], send = s.send;
	  s.send = (d) => { if (!/"type":"chat"/.test(d)) send(d); };
	  const now = Date.now;
	  window.__skew = 0;
	  Date.now = () => now() + window.__skew;
	})()`))
	lost := func(text string) {
		eval[bool](p, `(() => { document.getElementById("chat-text").value = `+q(text)+`; document.getElementById("chat-form").requestSubmit(); return true })()`)
	}
	p.recordSaid()
	other := e.client().dial(tbl.ID, noHello)
	other.send(map[string]any{"type": "hello", "since": -1, "name": "Olga"})
	lines := 0
	theirs := func(text string) {
		other.send(map[string]any{"type": "chat", "text": text})
		// The line is in the chat the table sends (or refused: said).
		m := other.waitFor(func(m srvMsg) bool {
			return m.Type == "error" || (len(m.Chat) > 0 && m.Chat[len(m.Chat)-1].Text == text)
		})
		if m.Type == "error" {
			t.Fatalf("Olga's %q refused: %s", text, m.Error)
		}
		lines++
		p.until(fmt.Sprintf(`document.querySelectorAll(%s).length === %d`, q(selChat), lines))
	}
	lost("gg")
	theirs("gg") // within 30 s: taken for the page's own
	lost("gl")
	p.do(chromedp.Evaluate[chromedp.Void](`window.__skew = 31000`))
	theirs("gl")   // 31 s on: the lost line forgotten
	theirs("done") // a line said for sure, so that all before it were
	p.until(`[...document.querySelectorAll("#say p")].some((e) => e.textContent === "Olga (watching): done")`)
	said := p.said()
	if n := saidCount(said, "say: Olga (watching): gg"); n != 0 {
		t.Errorf("Olga's \"gg\" within 30 s of the page's own lost \"gg\" was said %d times, want none (taken for its own): %q", n, said)
	}
	if n := saidCount(said, "say: Olga (watching): gl"); n != 1 {
		t.Errorf("Olga's \"gl\" 31 s after the page's own lost \"gl\" was said %d times, want once: %q", n, said)
	}
}
