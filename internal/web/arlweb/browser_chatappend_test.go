package arlweb

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// chatLineState is the chat list as the test reads it.
type chatLineState struct {
	New, Lines       int    // elements of the chat made since marked; its lines
	OldKept, SelKept bool   // the marked older line, and the selection in it, still there
	First, Made      string // the first line's words; createElement calls handling the line's message
}

// TestBrowserArlingtonChatAppends: Bob's new chat line makes its own
// elements in the chat list (the line, the name, the name's and the
// words' <bdi>) and no other: an older line the person has selected
// words of is the very element it was, and the selection stays. The
// list was made anew at each line (four elements a line: some 200 with
// 50 lines kept), and a screen reader lost its place. Past 50 lines the
// oldest goes.
func TestBrowserArlingtonChatAppends(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Limits{Burst: 10000})
	id := e.client().create("", "")
	p := seatTabIn(t, startBrowser(t), "Ann")
	p.beforeLoad(walkHooks)
	p.open(e.srv.URL, id)
	p.join("Ann")
	p.until(`window.__ws.seat === 0`)
	bob := e.client()
	bob.join(id, "Bob")
	w := bob.dial(id, -1)
	say := func(i int) { w.send(map[string]any{"type": "chat", "text": fmt.Sprintf("line %d", i)}) }
	for i := 1; i <= 3; i++ {
		say(i)
	}
	p.until(`document.querySelectorAll("#chat li").length === 3`)
	// Mark every element of the chat; select the first line's words.
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("#chat *").forEach((e) => { e.__kept = true; });
	  window.__old = document.querySelector("#chat li");
	  getSelection().selectAllChildren(window.__old.lastElementChild);
	  window.__walk.made = 0; window.__walk.views = 0`))
	state := `(() => {
	  const sel = getSelection();
	  return { new: [...document.querySelectorAll("#chat *")].filter((e) => !e.__kept).length, lines: document.querySelectorAll("#chat li").length,
	    oldKept: window.__old.isConnected, selKept: sel.rangeCount > 0 && window.__old.contains(sel.anchorNode) && sel.toString() === "line 1",
	    first: document.querySelector("#chat li > bdi").textContent, made: String(window.__walk.made) };
	})()`
	say(4)
	p.until(`document.querySelectorAll("#chat li").length === 4`)
	st := eval[chatLineState](p, state)
	t.Logf("a chat line: %s elements made handling its message (%d messages); %d new in the chat", st.Made, eval[int](p, `window.__walk.views`), st.New)
	if st.New != 4 || !st.OldKept || !st.SelKept {
		t.Errorf("a new chat line: %d elements of the chat made (want 4, its own); the older line kept: %v, the selection in it kept: %v", st.New, st.OldKept, st.SelKept)
	}
	// Past 50 lines kept, the oldest go. The server lets a person send
	// a line every few seconds, so the 48 lines more are handed to the
	// page's chat module as a view brings them.
	p.do(chromedp.Evaluate[chromedp.Void](`import("/arlington/chat.js").then((m) => {
	  const more = [];
	  for (let i = 5; i <= 52; i++) more.push({ n: i, seat: 1, name: "Bob", text: "line " + i, at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() });
	  m.addChat(more, false, 0);
	  m.renderChat();
	  window.__more = true;
	})`))
	p.until(`window.__more === true`)
	st = eval[chatLineState](p, state)
	if st.Lines != 50 || st.First != "line 3" {
		t.Errorf("after 52 lines the chat shows %d, the first %q; want 50, the first \"line 3\"", st.Lines, st.First)
	}
}
