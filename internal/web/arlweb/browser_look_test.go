package arlweb

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"cardtable/internal/table"
	"cardtable/internal/web/webtest"
)

// TestBrowserArlingtonInviteOpenWhileWaiting: while seats wait for
// players, the status line asks to share the table's link or its code,
// and the code is there to share: named in that line, and the invitation
// open. Before, the line asked for a code that sat in a closed box. The
// box is opened once: closed by the player, it stays closed.
func TestBrowserArlingtonInviteOpenWhileWaiting(t *testing.T) {
	t.Parallel()
	e, got, bctx, p := annWaiting(t, 3)
	// The code comes with the table's summary, which the status line is
	// written again with.
	p.until(`document.getElementById("invite-code").textContent !== ""`)
	if status := eval[string](p, `document.getElementById("status").textContent`); !strings.Contains(status, got.Code) {
		t.Errorf("waiting for players, the status line says %q: not the code %s", status, got.Code)
	}
	if !eval[bool](p, `document.getElementById("invite-box").open`) {
		t.Error("waiting for players, the invitation (link and code) is closed")
	}
	p.shot("arlington-invite-open-390")
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("invite-box").open = false`))
	b := newSeatTab(t, bctx, "Bob")
	b.open(e.srv.URL, got.ID)
	b.join("Bob")
	p.until(`document.getElementById("players").textContent.includes("Bob")`)
	if eval[bool](p, `document.getElementById("invite-box").open`) {
		t.Error("the invitation the player closed opened again when another player sat down")
	}
}

// TestBrowserArlingtonFoldedGroupMarked: a folded group of actions, and
// the side column's boxes, show a mark that they open (▸, ▾ once open),
// a mark drawn only: a screen reader read it in the summary's name.
// Laid out as flex, their summaries had lost the browser's triangle: a
// folded "Answer with a higher set (35, …)" above a lone Pass button read
// as a heading with nothing under it.
func TestBrowserArlingtonFoldedGroupMarked(t *testing.T) {
	t.Parallel()
	p := seatedAt(t, 390, 844, "Ann", longGame, "", "random")
	// Ann plays her first unfolded action each turn until a group is
	// folded (more than eight sets or additions: a joker in hand).
	p.untilPlayed(`(() => {
	  if (document.querySelector("#actions details.act-group:not([open])")) return true;
	  const b = document.querySelector("#actions div.act-group button[data-action]:not(:disabled)");
	  if (b) b.click();
	  return false;
	})()`)
	mark := func(sel string) string {
		// The mark, without its alt text ("▸" / "").
		c := eval[string](p, `getComputedStyle(document.querySelector(`+q(sel)+`), "::before").content`)
		return strings.TrimSuffix(c, ` / ""`)
	}
	for _, sel := range []string{"#actions details.act-group:not([open]) > summary", "#keys-box > summary"} {
		if m := mark(sel); m != `"▸"` {
			t.Errorf("%s, folded, is marked %s, want \"▸\"", sel, m)
		}
	}
	p.shot("arlington-folded-group-390")
	marked := func() {
		var bad []string
		for _, name := range p.axNames() {
			if strings.ContainsAny(name, "▸▾") && !slices.Contains(bad, name) {
				bad = append(bad, name)
			}
		}
		if len(bad) > 0 {
			t.Errorf("names read aloud hold the marks (drawn, not words): %q", bad)
		}
	}
	marked()
	for _, sel := range []string{"#actions details.act-group", "#keys-box"} {
		p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector(` + q(sel) + `).open = true`))
		if m := mark(sel + " > summary"); m != `"▾"` {
			t.Errorf("%s, open, is marked %s, want \"▾\"", sel, m)
		}
	}
	marked()
}

// TestBrowserArlingtonSixSeatsDesktop: at six seats and 1280×800 the
// score sheet in the side column names each bot's column in full, "Bot 2"
// to "Bot 6", its level in the title: cut with an ellipsis, five columns
// read "Bot …" alike. The names under the trick's cards stay clear of
// their cards, as a card moves in and once the trick is taken
// (trickClear).
func TestBrowserArlingtonSixSeatsDesktop(t *testing.T) {
	t.Parallel()
	p := seatedAt(t, 1280, 800, "Ann", longGame, "", "random", "greedy", "random", "greedy", "random")
	p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("sheet-box").open = true`))
	p.until(`document.querySelectorAll("#sheet thead th").length === 7`)
	type head struct {
		Text, Title string
		Cut         bool
	}
	heads := eval[[]head](p, `[...document.querySelectorAll("#sheet thead th")].slice(1).map((th) => ({ text: th.textContent, title: th.title, cut: th.scrollWidth > th.clientWidth }))`)
	levels := []string{"", "random", "greedy", "random", "greedy", "random"}
	for i, h := range heads[1:] {
		seat := i + 2
		want := fmt.Sprintf("Bot %d", seat)
		if h.Text != want || h.Cut || h.Title != fmt.Sprintf("Bot %d (%s)", seat, levels[seat-1]) {
			t.Errorf("seat %d's column on the sheet reads %q (cut: %v, title %q), want %q whole, its level in the title", seat, h.Text, h.Cut, h.Title, want)
		}
	}
	p.shot("arlington-sheet-six-1280")
	trickClear(t, p, 3)
}

// TestLongBrowserArlingtonLogNumbersFit (long: a six-seat hand played
// out, more than 2 s under -race): a hand of more than 99 events numbers
// them in the room the log's list gives: "149." lost its 1 at the left
// edge of the log.
func TestLongBrowserArlingtonLogNumbersFit(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("long: make test-long runs it")
	}
	p := seatedAt(t, 1280, 800, "Ann", longGame, "", "random", "random", "random", "random", "random")
	p.auto(true)
	p.untilPlayed(`[...document.querySelectorAll("#log ol")].some((ol) => ol.children.length >= 100)`)
	p.auto(false)
	type room struct{ Pad, Need float64 }
	r := eval[room](p, `(() => {
	  const ol = [...document.querySelectorAll("#log ol")].find((ol) => ol.children.length >= 100);
	  const s = document.createElement("span");
	  s.textContent = ol.children.length + ".";
	  s.style.font = getComputedStyle(ol.lastElementChild).font;
	  document.body.appendChild(s);
	  const need = s.getBoundingClientRect().width;
	  s.remove();
	  return { pad: parseFloat(getComputedStyle(ol).paddingLeft), need };
	})()`)
	if r.Pad < r.Need+4 {
		t.Errorf("a hand's log of 100 events or more gives its numbers %.1f px; %.1f px needed (and the gap after)", r.Pad, r.Need)
	}
}

// TestBrowserArlingtonOtherWindowNotStandIn: a person may play their seat
// from two windows of one browser; a move made in one is theirs in the
// other's log too. It was told there as "A bot played for you".
func TestBrowserArlingtonOtherWindowNotStandIn(t *testing.T) {
	t.Parallel()
	e, got, p := annAgainstBot(t)
	// The second window shows play at once as the first does (it has no
	// reduced motion of its own): the speed is kept in the browser.
	p.do(chromedp.Evaluate[chromedp.Void](`localStorage.setItem("arlington.speed", "instant")`))
	other := openTab(t, p.ctx, 390, 844) // the same browser context: the same person
	if err := webtest.Do(other, "opening the table in a second window", chromedp.Navigate(e.srv.URL+"/arlington/t/"+got.ID)); err != nil {
		t.Fatal(err)
	}
	if err := webtest.Wait(other, `document.querySelector("#hand [data-card]")`, "the second window's hand"); err != nil {
		t.Fatal(err)
	}
	// Ann plays three moves from the first window.
	for range 3 {
		p.until(enabledAction)
		p.play()
	}
	n := p.events()
	if err := webtest.Wait(other, fmt.Sprintf(`[...document.querySelectorAll("#log li")].length >= %d`, n), "the second window's log"); err != nil {
		t.Fatal(err)
	}
	var lines []string
	if err := webtest.Eval(other, standInLines, &lines); err != nil {
		t.Fatal(err)
	}
	if len(lines) > 0 {
		t.Errorf("the second window tells Ann's own moves from the first as the stand-in's: %q", lines)
	}
	if mine := eval[[]string](p, standInLines); len(mine) > 0 {
		t.Errorf("the window Ann played in tells her moves as the stand-in's: %q", mine)
	}
}

// TestBrowserArlingtonJoinKeepsFocus: a person who takes a seat from the
// keyboard (Enter in the name's field) keeps a focus on the page: on
// Leave the seat while the table waits, then on their hand once the game
// starts. The form went away with the focus, and the next Tab started
// from the page's top.
func TestBrowserArlingtonJoinKeepsFocus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	var got created
	if code := e.client().do("POST", "/api/arlington/tables", table.Config{Players: 3, Bots: []string{"", "", "random"}, TurnSeconds: -1}, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	bctx := startBrowser(t)
	ann := seatTabIn(t, bctx, "Ann")
	ann.open(e.srv.URL, got.ID)
	ann.until(`!document.querySelector(` + q(selJoin) + `).hidden`)
	ann.do(chromedp.SendKeys(chromedp.CSS(selName), "Ann\r"))
	ann.until(`window.__ws.seat >= 0 && !document.getElementById("seated").hidden`)
	if f := eval[string](ann, `document.activeElement.id || document.activeElement.tagName`); f != "leave" {
		t.Errorf("seated by the keyboard, the focus is on %q, want Leave the seat", f)
	}
	bob := newSeatTab(t, bctx, "Bob")
	bob.open(e.srv.URL, got.ID)
	bob.join("Bob")
	ann.until(`document.querySelector("#hand button")`)
	// The view that deals draws the hand and places the focus at once.
	if f := eval[string](ann, `document.activeElement.closest("#hand, #actions") ? "hand" : document.activeElement.id || document.activeElement.tagName`); f != "hand" {
		t.Errorf("once the game starts, the focus is on %q, want the hand", f)
	}
}

// TestBrowserArlingtonBothWindowsSendNotStandIn: a person clicks the same
// turn in two windows of one browser (the second still showing the turn:
// its action is refused) twenty times, then plays from the second
// window. The first window kept every count the second told it (its own
// moves did not clear them, the refusals were never withdrawn) until its
// 16 were full, and then told the second window's move as "A bot played
// for you".
func TestBrowserArlingtonBothWindowsSendNotStandIn(t *testing.T) {
	t.Parallel()
	e, got, p := annAgainstBot(t)
	p.do(chromedp.Evaluate[chromedp.Void](`localStorage.setItem("arlington.speed", "instant")`))
	other := seatTabIn(t, webtest.OpenTab(t, p.ctx, 390, 844), "Ann-2") // the same browser context: the same person
	other.open(e.srv.URL, got.ID)
	for range 20 {
		p.until(enabledAction)
		other.until(enabledAction + ` && window.__ws.count === ` + fmt.Sprint(p.events()))
		// The second window stops receiving views, so it still shows
		// the turn when the first has played it.
		other.do(chromedp.Evaluate[chromedp.Void](`(() => {
		  const s = window.__ws.socks[window.__ws.viewSock];
		  const page = s.onmessage, held = [];
		  s.onmessage = (ev) => { if (JSON.parse(ev.data).type === "view") held.push(ev); else page(ev); };
		  window.__release = () => { s.onmessage = page; for (const ev of held) page(ev); };
		})()`))
		p.play()
		sent := eval[int](other, `window.__ws.sent.length`)
		other.do(chromedp.Evaluate[chromedp.Void](enabledAction + `.click()`))
		other.until(fmt.Sprintf(`window.__ws.sent.length > %d`, sent))
		other.do(chromedp.Evaluate[chromedp.Void](`window.__release()`))
	}
	// Now Ann plays from the second window alone.
	p.until(enabledAction)
	other.until(enabledAction + ` && window.__ws.count === ` + fmt.Sprint(p.events()))
	other.play()
	p.until(fmt.Sprintf(`document.querySelectorAll("#log li").length >= %d`, other.events()))
	if lines := eval[[]string](p, standInLines); len(lines) > 0 {
		t.Errorf("after twenty clicks in both windows, the first tells Ann's moves as the stand-in's: %q", lines)
	}
}

// TestBrowserArlingtonLogRetoldKeepsScroll: a player who scrolled the log
// up to read stays there when a move already told as the stand-in's is
// told again as theirs (the word from another window came late) and the
// log is drawn again. The rebuilt log was scrolled back to its end.
func TestBrowserArlingtonLogRetoldKeepsScroll(t *testing.T) {
	t.Parallel()
	_, got, p := annAgainstBot(t)
	// Ann plays until the log is long enough to scroll.
	for eval[bool](p, `(() => { const l = document.getElementById("log"); return l.scrollHeight < l.clientHeight + 200; })()`) {
		p.until(enabledAction + " && " + shownAll)
		p.play()
	}
	// One move sent on the page's connection but not by the page: told
	// as the stand-in's (no window said it sent it).
	p.until(enabledAction + " && " + shownAll)
	p.do(chromedp.Evaluate[chromedp.Void](`window.__ws.socks[window.__ws.viewSock].send(JSON.stringify({ type: "action", action: ` + enabledAction + `.dataset.action }))`))
	p.until(`!!document.querySelector("#log li.stand-in")`)
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
	  document.getElementById("log").scrollTop = 0;
	  const n = Number(document.querySelector("#log li.stand-in").dataset.n);
	  const action = window.__ws.evs.find((e) => e.n === n).action;
	  new BroadcastChannel("arlington-sent-%s").postMessage({ seat: window.__ws.seat, at: n, action });
	})()`, got.ID)))
	p.until(`!document.querySelector("#log li.stand-in")`)
	if top := eval[float64](p, `document.getElementById("log").scrollTop`); top > 0 {
		t.Errorf("the log, scrolled to its top, is at %.0f px after a move was retold: the player lost their place", top)
	}
}

// TestBrowserArlingtonInviteClosesAtStart: the invitation the page opened
// while seats waited closes when the last seat is taken and the game
// starts. It stayed open, nobody left to invite.
func TestBrowserArlingtonInviteClosesAtStart(t *testing.T) {
	t.Parallel()
	e, got, bctx, p := annWaiting(t, 2)
	p.until(`document.getElementById("invite-box").open`)
	b := newSeatTab(t, bctx, "Bob")
	b.open(e.srv.URL, got.ID)
	b.join("Bob")
	p.until(`!!document.querySelector("#hand [data-card]")`)
	if eval[bool](p, `document.getElementById("invite-box").open`) {
		t.Error("the game started and the invitation the page opened is still open")
	}
}

// TestBrowserArlingtonOtherSeatWordsIgnored: the windows' words name their
// seat, and a page keeps only those about its own: another person in the
// same browser profile, at another seat of the table, tells of their
// actions on the same channel. Twenty such words, one of them at the
// count and of the action of a move the stand-in then makes for Ann,
// leave that move the stand-in's.
func TestBrowserArlingtonOtherSeatWordsIgnored(t *testing.T) {
	t.Parallel()
	_, got, p := annAgainstBot(t)
	p.until(enabledAction + " && " + shownAll)
	n := p.events()
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
	  const c = new BroadcastChannel("arlington-sent-%s"), n = window.__ws.count, action = `+enabledAction+`.dataset.action;
	  for (let i = 19; i >= 0; i--) c.postMessage({ seat: window.__ws.seat + 1, at: n + i, action });
	  // Sent on the page's connection but not by the page: the stand-in's.
	  window.__ws.socks[window.__ws.viewSock].send(JSON.stringify({ type: "action", action }));
	})()`, got.ID)))
	p.until(fmt.Sprintf(`!!document.querySelector('#log li[data-n="%d"]')`, n))
	if !toldStandIn(p, n) {
		t.Error("a move the page did not send, at a count another seat's window told of, is told as Ann's own")
	}
}

// TestBrowserArlingtonPeerWordsBounded: the words other windows of the
// seat send (the action they sent and the count at which they sent it)
// each explain one move at most, and only while they stand. Each step
// fails on one rule alone: a refused action's word withdrawn; a move at
// or after a word's count, that action, the person's; a word of another
// action claims no move; a late word naming the first stand-in move at
// or after its count that is its action, even past it; at most 16 words,
// the oldest dropped.
func TestBrowserArlingtonPeerWordsBounded(t *testing.T) {
	t.Parallel()
	_, got, p := annAgainstBot(t)
	// tell posts the words as another window would, and waits until the
	// page has had them (one channel's messages arrive in order); in
	// words, n is the page's count and a the action standIn would send.
	tell := func(words string) {
		p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		  window.__heard = false;
		  const c = new BroadcastChannel("arlington-sent-%[1]s"), d = new BroadcastChannel("arlington-sent-%[1]s");
		  d.onmessage = (ev) => { if (ev.data.ping) { window.__heard = true; d.close(); c.close(); } };
		  const seat = window.__ws.seat, n = window.__ws.count, a = %[3]s.dataset.action;
		  for (const w of %[2]s) c.postMessage({ seat, ...w });
		  c.postMessage({ ping: true });
		})()`, got.ID, words, enabledAction)))
		p.until(`window.__heard`)
	}
	// standIn sends Ann's first legal action on the page's connection but
	// not through the page (as the stand-in would), and says whether the
	// page tells the move as the stand-in's.
	standIn := func(n int) bool {
		p.do(chromedp.Evaluate[chromedp.Void](`window.__ws.socks[window.__ws.viewSock].send(JSON.stringify({ type: "action", action: ` + enabledAction + `.dataset.action }))`))
		p.until(fmt.Sprintf(`!!document.querySelector('#log li[data-n="%d"]')`, n))
		return toldStandIn(p, n)
	}
	// turn waits for Ann's turn, played on until the count just after her
	// last move is before the current one (a word there names the move to
	// come, not hers before); it returns both.
	turn := func() (after, n int) {
		for {
			p.until(enabledAction + " && " + shownAll)
			n = p.events()
			after = eval[int](p, `window.__ws.evs.filter((e) => e.kind === "move" && e.seat === window.__ws.seat).reduce((m, e) => Math.max(m, e.n + 1), 0)`)
			if after < n {
				return after, n
			}
			p.play()
		}
	}

	_, n := turn()
	tell(`[{ at: n, action: a }, { at: n, action: a, refused: true }]`)
	if !standIn(n) {
		t.Error("a word withdrawn (its action refused) still made the stand-in's move the person's")
	}
	after, n := turn()
	tell(fmt.Sprintf(`[{ at: %d, action: a }]`, after))
	if standIn(n) {
		t.Error("a move after the count another window told of (its view was older) is told as the stand-in's")
	}
	_, n = turn()
	tell(`[{ at: n, action: "pass " + a }]`) // an action this move is not
	if !standIn(n) {
		t.Error("a word of another action made the stand-in's move the person's")
	}
	after, n = turn()
	if !standIn(n) {
		t.Fatal("a move no window sent is not told as the stand-in's")
	}
	moved := eval[string](p, fmt.Sprintf(`window.__ws.evs.find((e) => e.n === %d).action`, n))
	tell(fmt.Sprintf(`[{ at: %d, action: %q }]`, after, moved))
	if toldStandIn(p, n) {
		t.Error("a word arriving after the move it tells of, its count before the move, left the move the stand-in's")
	}
	_, n = turn()
	tell(`[{ at: n, action: a }, ...Array.from({ length: 16 }, (_, i) => ({ at: n + 100000 + i, action: a }))]`)
	if !standIn(n) {
		t.Error("seventeen words kept: the oldest was not dropped for the newest")
	}
}

// TestBrowserArlingtonInviteReopenedStays: the invitation the page opened
// while seats waited, closed and opened again by the player, is theirs:
// it stays open when the game starts. It was closed as if the page's.
func TestBrowserArlingtonInviteReopenedStays(t *testing.T) {
	t.Parallel()
	e, got, bctx, p := annWaiting(t, 2)
	p.until(`document.getElementById("invite-box").open`)
	p.do(chromedp.Click(chromedp.CSS("#invite-box summary")))
	p.until(`!document.getElementById("invite-box").open`)
	p.do(chromedp.Click(chromedp.CSS("#invite-box summary")))
	p.until(`document.getElementById("invite-box").open`)
	b := newSeatTab(t, bctx, "Bob")
	b.open(e.srv.URL, got.ID)
	b.join("Bob")
	p.until(`!!document.querySelector("#hand [data-card]")`)
	if !eval[bool](p, `document.getElementById("invite-box").open`) {
		t.Error("the game started and the invitation the player had closed and opened again was closed")
	}
}

// annWaiting is a table of people only, Ann seated at it in a
// browser context of her own (bctx), waiting for the others.
func annWaiting(t *testing.T, players int) (*env, created, context.Context, *seatTab) {
	e := newEnv(t, Limits{Burst: 10000})
	var got created
	cfg := table.Config{Players: players, Bots: make([]string, players), TurnSeconds: -1}
	if code := e.client().do("POST", "/api/arlington/tables", cfg, &got); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	bctx := startBrowser(t)
	p := seatTabIn(t, bctx, "Ann")
	p.open(e.srv.URL, got.ID)
	p.join("Ann")
	return e, got, bctx, p
}

// annAgainstBot is a table of a long game with Ann seated, a random bot
// the other player.
func annAgainstBot(t *testing.T) (*env, created, *seatTab) {
	e := newEnv(t, Limits{Burst: 10000})
	got, _, p := openTable(t, e, "Ann", longGame, "", "random")
	p.join("Ann")
	return e, got, p
}

// enabledAction finds the first action the seat may take now; standInLines
// is the log's lines told as the stand-in's.
var enabledAction = `document.querySelector(` + q(selLegal+":not(:disabled)") + `)`

const standInLines = `[...document.querySelectorAll("#log li.stand-in")].map((li) => li.textContent)`

// toldStandIn reports whether p's log tells move n as the stand-in's.
func toldStandIn(p *seatTab, n int) bool {
	return eval[bool](p, fmt.Sprintf(`document.querySelector('#log li[data-n="%d"]').classList.contains("stand-in")`, n))
}
