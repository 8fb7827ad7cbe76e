package cli

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	neturl "net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardtable/arlington"
	"cardtable/internal/arlclient"
	"cardtable/internal/web/arlweb"
)

func TestArlingtonOnlineBots(t *testing.T) {
	// A table of two remote bots and a server bot plays to the end: both
	// clients exit 0 with the final scores, having seen the same log.
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,human,greedy", "--target", "4")
	_, waitA := arlConnect(t, link, "", "--bot", "greedy", "--name", "Ann")
	_, waitB := arlConnect(t, link, "", "--bot", "random")
	a, b := waitA(), waitB()
	ea, eb := arlCheckFinished(t, a), arlCheckFinished(t, b)
	arlSameEvents(t, ea, eb)
	for _, c := range []arlClient{a, b} {
		if !strings.Contains(c.out, "totals: ") || !strings.Contains(c.out, " (you) ") {
			t.Fatalf("no final totals or own moves:\n%s", c.out)
		}
	}
	// Each took an open seat, and the other's play by play names Ann.
	var seatA, seatB int
	if _, err := fmt.Sscanf(a.out[strings.Index(a.out, "you are seat"):], "you are seat %d", &seatA); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscanf(b.out[strings.Index(b.out, "you are seat"):], "you are seat %d", &seatB); err != nil {
		t.Fatal(err)
	}
	// Seats count from 1 at the terminal: the server's bot sits at 3.
	if seatA == seatB || seatA == 3 || seatB == 3 || !strings.Contains(b.out, fmt.Sprintf("seat %d (Ann) ", seatA)) {
		t.Fatalf("seats %d and %d:\n%s\n%s", seatA, seatB, a.out, b.out)
	}
	// B tells every event of the game, in order, in the words of the
	// page's log (arlington.Narrator), naming itself "you".
	names := make([]string, 3)
	names[seatA-1], names[seatB-1], names[2] = fmt.Sprintf("seat %d (Ann)", seatA), fmt.Sprintf("seat %d (you)", seatB), "seat 3 (greedy)"
	nar, rest := arlington.NewNarrator(names), b.out
	for _, e := range eb {
		want := nar.Tell(e) + "\n"
		i := strings.Index(rest, want)
		if i < 0 {
			t.Fatalf("event %d is not told as %q after what came before:\n%s", e.N, want, b.out)
		}
		rest = rest[i+len(want):]
	}
}

// arlPacedGame plays a whole game, greedy bot through connect against the
// server's greedy bot, on a server whose WebSocket allows burst messages
// at once and then one per every; it returns the client's refusals for
// coming too fast and the moves it made.
func arlPacedGame(t *testing.T, burst int, every time.Duration, target string) (refused, moves int) {
	t.Helper()
	arlWSLimits = arlweb.Limits{Burst: burst, Every: every}
	t.Cleanup(func() { arlWSLimits = arlweb.Limits{} })
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", target, "--turn-timer", "off")
	_, wait := arlConnect(t, link, "", "--bot", "greedy", "--identity", "")
	c := wait()
	arlCheckFinished(t, c)
	if strings.Contains(c.err, "too many messages") {
		t.Fatalf("the connection was cut for too many messages:\n%s", c.err)
	}
	return strings.Count(c.out, "refused: too many messages"), strings.Count(c.out, " (you) ")
}

// TestArlingtonConnectBotPaced: a bot seat through connect keeps to the
// allowance the server tells it (a burst, then one message per interval):
// a whole game, the bot faster than the allowance, meets no refusal. The
// allowance here is tight (3 at once, then one per 50 ms) so that a short
// game reaches it; TestLongArlingtonConnectBotPaced plays the default one.
func TestArlingtonConnectBotPaced(t *testing.T) {
	refused, moves := arlPacedGame(t, 3, 50*time.Millisecond, "3")
	t.Logf("%d moves of the bot through connect, %d refused", moves, refused)
	if refused != 0 {
		t.Fatalf("%d refusals for coming too fast in %d moves", refused, moves)
	}
}

// TestLongArlingtonConnectBotPaced: the same with the server's default
// allowance (20 at once, then one per 200 ms) and a longer game.
func TestLongArlingtonConnectBotPaced(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game at the default allowance: tens of seconds")
	}
	refused, moves := arlPacedGame(t, 0, 0, "32")
	t.Logf("%d moves of the bot through connect, %d refused", moves, refused)
	if refused != 0 {
		t.Fatalf("%d refusals for coming too fast in %d moves", refused, moves)
	}
}

func TestArlingtonConnectTerminal(t *testing.T) {
	// A person at the terminal: commands on standard input, answered on
	// standard output; a refused action is explained and the game goes
	// on (a seat past the table's size is refused by that size); 'auto'
	// plays the rest.
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", "3", "--turn-timer", "off")
	// "lead 7H" twice: the first is refused unless this seat has the lead
	// and holds the 7H (the cut for the dealer is random), and then the
	// second is, the card being gone; so one of them is refused.
	script := "help\nlegal\nfly away\nadd 7H 3/1\nlead 7H\nlead 7H\n99\nshow extra\n1\nrecord\nsay good luck\n" + strings.Repeat("auto\n", 2000)
	_, wait := arlConnect(t, link, script, "--seat", "1")
	c := wait()
	arlCheckFinished(t, c)
	for _, want := range []string{
		"you are seat 1",
		"say TEXT", "pickup 7H 3/1", // the help, with the actions' part of arlington play's
		"  1  ", // the numbered legal list
		`bad action "fly away"`,
		"seats are 1 to 2 at this table", // 3/1 at a table of two
		`refused, rule "`,                // one of the two leads of the 7H
		"no action 99",
		"show takes no arguments",
		"seat 1 (you) ",
		"arlington record", // the record
		"chat Terminal: good luck",
		"game over after",
	} {
		if !strings.Contains(c.out, want) {
			t.Errorf("no %q in:\n%s", want, c.out)
		}
	}
	// The refusals were this client's alone and the log holds them.
	_, types, _ := arlLogged(t, c.log)
	if !strings.Contains(strings.Join(types, " "), "error") {
		t.Fatalf("no error message logged: %v", types)
	}
}

func TestArlingtonConnectInputEnds(t *testing.T) {
	// Input ending before the game does leaves the table and exits 0, as
	// arlington play does; the server's answer says the seat is kept,
	// marked away, and the stand-in plays it, and so does the client.
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--turn-timer", "off")
	_, wait := arlConnect(t, link, "legal\n")
	c := wait()
	if c.code != exitOK || !strings.Contains(c.out, "input ended before the game did") ||
		!strings.Contains(c.out, "left the table; seat 1 is still yours, marked away: the server's stand-in bot plays it until you come back") {
		t.Fatalf("exit %d:\n%s\n%s", c.code, c.out, c.err)
	}
}

func TestArlingtonConnectReconnects(t *testing.T) {
	// The connection drops twice during the game (the proxy cuts it): the
	// client reconnects by itself, gets exactly what it missed, and
	// finishes the game. The seat is a person at the terminal fed one line
	// at a time, so the game cannot end before a cut: with two bots it
	// could, on a busy machine, between the first events and the cut.
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	p := startProxy(t, strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", "3")
	viaProxy := p.url() + strings.TrimPrefix(link, url)
	log, feed, finish := arlTerminal(t, viaProxy)
	arlWaitEvents(t, log, 1)
	for cut := range 2 {
		// The game holds while nobody is connected, so it goes on from
		// where each cut left it. A line goes in before each cut, and
		// the second cut comes once the client has a new connection (one
		// more passed on, and a new message logged after this cut).
		if !feed() {
			t.Fatalf("cut %d: the client took no line", cut)
		}
		lines, conns := arlLines(t, log), p.accepted.Load()
		p.cut()
		for deadline := time.Now().Add(time.Minute); p.accepted.Load() == conns || arlLines(t, log) <= lines; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("cut %d: no new connection", cut)
			}
		}
	}
	c := finish()
	arlCheckFinished(t, c)
	if n := strings.Count(c.err, "reconnecting"); n < 2 {
		t.Fatalf("%d reconnections reported, want 2:\n%s", n, c.err)
	}
	_, types, _ := arlLogged(t, log)
	if types[0] != "view" {
		t.Fatalf("first message %q", types[0])
	}
}

func TestArlingtonOnlineUsage(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	full := arlNewTable(t, url, "--seats", "greedy,greedy")
	// A port nobody listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"new-table", "--server", "ftp://x", "--seats", "human,human"}, exitUsage, "not a server address"},
		{[]string{"new-table", "--server", url}, exitUsage, "--seats is required"},
		{[]string{"new-table", "--server", strings.TrimSuffix(url, "/") + "/arlington/", "--seats", "human,human"}, exitUsage, "without a path"},
		{[]string{"new-table", "--server", url, "--seats", "human"}, exitUsage, "2 to 6"},
		{[]string{"new-table", "--server", url, "--seats", "human,h,h,h,h,h,h"}, exitUsage, "2 to 6"},
		{[]string{"new-table", "--server", url, "--seats", "human,wizard"}, exitUsage, `--seats "human,wizard": seat 2 is "wizard": want human or a bot level`},
		{[]string{"new-table", "--server", url, "--seats", "human,,greedy"}, exitUsage, "seat 2 is empty"},
		{[]string{"new-table", "--server", url, "--seats", "human,greedy", "--target", "0"}, exitUsage, `--target "0": want 1 to 500`},
		{[]string{"new-table", "--server", url, "--seats", "human,greedy", "--turn-timer", "2s"}, exitUsage, "from 5s to 1h"},
		{[]string{"new-table", "--server", url, "--seats", "human,greedy", "--turn-timer", "soon"}, exitUsage, "--turn-timer"},
		{[]string{"new-table", "--server", url, "--seats", "human,greedy", "extra"}, exitUsage, "unexpected argument"},
		{[]string{"new-table", "--server", dead, "--seats", "human,greedy"}, exitFail, "cannot reach http:"},
		{[]string{"connect"}, exitUsage, "give the table's link (http://HOST:PORT/arlington/t/ID) or its code"},
		{[]string{"connect", full, "extra"}, exitUsage, "unexpected argument"},
		{[]string{"connect", "http://localhost/spider/t/x"}, exitUsage, "not a table link"},
		{[]string{"connect", "table-seven"}, exitUsage, `"table-seven" is neither a table's link (http://HOST:PORT/arlington/t/ID) nor its code (six letters and digits, never 0, O, 1, I or L`},
		{[]string{"connect", full, "--server", url}, exitUsage, "--server goes with a table's code"},
		{[]string{"connect", "222-222", "--server", url}, exitFail, "says: no table has the code 222222"},
		{[]string{"connect", "222222", "--server", "ftp://x"}, exitUsage, `not a server address: "ftp://x"`},
		{[]string{"connect", "222222", "--server", strings.TrimSuffix(url, "/") + "/arlington/"}, exitUsage, "is a page's address"},
		{[]string{"connect", "222222", "--server", strings.TrimSuffix(url, "/") + "/arlington"}, exitUsage, "is a page's address"},
		{[]string{"connect", "3H5M5L", "--server", url}, exitUsage, `"3H5M5L" is not a table's code: a code never has 0, O, 1, I or L`},
		{[]string{"connect", "table7"}, exitUsage, `"table7" is not a table's code: a code never has 0, O, 1, I or L`},
		{[]string{"connect", full, "--bot", "wizard"}, exitUsage, "--bot"},
		{[]string{"connect", full, "--seat", "-2"}, exitUsage, `--seat "-2": want 1 to 6`},
		{[]string{"connect", full, "--seat", "0"}, exitUsage, `--seat "0": want 1 to 6`},
		// Past the table's two seats: counted from 1, as the flag is (the
		// server's own words count from 0).
		{[]string{"connect", full, "--seat", "3"}, exitUsage, `--seat "3": the table has 2 seats: want 1 to 2`},
		{[]string{"connect", full, "--log", filepath.Join(t.TempDir(), "no", "dir", "log")}, exitUsage, "cannot write"},
		{[]string{"connect", strings.TrimSuffix(url, "/") + "/arlington/t/NOSUCHTABLE"}, exitFail, "no table at"},
		{[]string{"connect", full}, exitFail, "cannot sit at"},
		{[]string{"connect", full, "--name", "Greedy"}, exitFail, `"Greedy" is the name of a bot level; choose another with --name`},
		{[]string{"connect", full, "--name", "Bot 2 (medium)"}, exitUsage, `"Bot 2 (medium)" reads as the table's own words for a bot`},
		{[]string{"connect", full, "--name", "Seat 1"}, exitUsage, `"Seat 1" reads as the table's own words`},
		{[]string{"connect", full, "--name", "X (watching)"}, exitUsage, `"X (watching)" reads as the table's own words`},
		{[]string{"connect", dead + "/arlington/t/ABC"}, exitFail, "cannot reach http:"},
		{[]string{"new-table", "-h"}, exitOK, "--seats"},
		{[]string{"connect", "-h"}, exitOK, "--bot"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errs, code := arlRun(t, "", append([]string{"arlington"}, tc.args...)...)
			got := errs // errors on stderr, help on stdout
			if tc.code == exitOK {
				got = out
			}
			if code != tc.code || !strings.Contains(got, tc.want) {
				t.Fatalf("exit %d, want %d; stderr %q, want %q in it; stdout %q", code, tc.code, errs, tc.want, out)
			}
			if code != exitOK && out != "" {
				t.Fatalf("stdout %q on failure", out)
			}
		})
	}
}

// TestArlingtonConnectServerPrefix: --server with a path prefix (a server
// behind a proxy that strips it) is taken as the server's address, as the
// part of a table's link before /arlington/t/ is: the code is looked up
// and the join asked there (refused only because bots fill the table).
func TestArlingtonConnectServerPrefix(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "greedy,greedy")
	_, id, err := arlclient.FromLink(link)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(strings.TrimSuffix(url, "/") + "/api/arlington/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	var tb struct{ Code string }
	err = json.NewDecoder(resp.Body).Decode(&tb)
	resp.Body.Close()
	if err != nil || tb.Code == "" {
		t.Fatalf("the table's code: %q, %v", tb.Code, err)
	}
	target, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(http.StripPrefix("/cards", httputil.NewSingleHostReverseProxy(target)))
	defer proxy.Close()
	for _, server := range []string{proxy.URL + "/cards", proxy.URL + "/cards/"} {
		_, errs, code := arlRun(t, "", "arlington", "connect", tb.Code, "--server", server, "--identity", "")
		if code != exitFail || !strings.Contains(errs, "cannot sit at "+proxy.URL+"/cards/arlington/t/"+id) {
			t.Fatalf("--server %s: exit %d, want %d; stderr %q", server, code, exitFail, errs)
		}
	}
}

// TestChatLine: a spectator's chat line says it is a spectator's, so a
// spectator cannot pass for a seated player of the same name.
func TestChatLine(t *testing.T) {
	for _, c := range []struct {
		line arlclient.ChatLine
		want string
	}{
		{arlclient.ChatLine{Seat: 0, Name: "Ann", Text: "hi"}, "chat Ann: hi"},
		{arlclient.ChatLine{Seat: -1, Name: "Ann", Text: "hi"}, "chat Ann (watching): hi"},
	} {
		if got := chatLine(c.line); got != c.want {
			t.Errorf("seat %d: %q, want %q", c.line.Seat, got, c.want)
		}
	}
}

func TestArlingtonConnectSaysTurnTimer(t *testing.T) {
	// A person at the terminal is told the table's turn timer at the
	// start, as the page tells it on each turn: a turn left longer is
	// played by the server's stand-in, which the terminal said nothing
	// of until "stand-in: seat 2 (you) plays ..." appeared. A table
	// without a timer says none.
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	for _, c := range []struct{ timer, want string }{
		{"90s", "turn timer: if others are waiting, after 1 min 30 s the server's stand-in bot plays a turn you have not played."},
		{"off", ""},
	} {
		link := arlNewTable(t, url, "--seats", "human,greedy", "--turn-timer", c.timer)
		_, wait := arlConnect(t, link, "quit\n")
		got := wait()
		has := strings.Contains(got.out, "turn timer:")
		if c.want != "" && !strings.Contains(got.out, c.want) || c.want == "" && has {
			t.Errorf("--turn-timer %s: the terminal said:\n%s\nwant %q", c.timer, got.out, c.want)
		}
	}
}

// TestArlingtonConnectByCode: connect takes a table's code, as the table
// page shows it to invite a friend, in place of its link, looked up on
// the server of --server; the run takes a seat there and plays it.
func TestArlingtonConnectByCode(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	link := arlNewTable(t, url, "--seats", "human,greedy", "--target", "4", "--turn-timer", "off")
	c, id, err := arlclient.FromLink(link)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(strings.TrimSuffix(url, "/") + "/api/arlington/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	var tab struct{ Code string }
	err = json.NewDecoder(resp.Body).Decode(&tab)
	resp.Body.Close()
	if err != nil || len(tab.Code) != 6 {
		t.Fatalf("the table's code %q: %v", tab.Code, err)
	}
	// Typed as a person might: lower case, a dash in the middle.
	typed := strings.ToLower(tab.Code[:3] + "-" + tab.Code[3:])
	out, errs, code := arlRun(t, "", "arlington", "connect", typed, "--server", c.Origin(), "--bot", "greedy", "--identity", "")
	if code != exitOK || !strings.Contains(out, "you are seat 1") || !strings.Contains(out, "game over") {
		t.Fatalf("connect %s --server %s: exit %d\nstdout:\n%s\nstderr:\n%s", typed, c.Origin(), code, out, errs)
	}
}
