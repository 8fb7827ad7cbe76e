package cli

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardtable/arlington/bot"
	"cardtable/card"
	"cardtable/spider"
)

// TestErrorLineShape pins the one shape of the line a failing command
// ends with (docs/cli.md, "One error line"): "cardtable: COMMAND: message", the
// command as typed below the program's name (none for the root command),
// whatever the failure: bad usage, bad input, a failure while running.
// Commands' own words once started differently: bare ("cardtable:
// --players must be ..."), with a part of the command ("cardtable:
// connect: ..."), or with it twice.
// TestConnectDefaultRefused: a table's code looked up with no --server,
// nothing listening at the default address, names that address and says
// to give --server; it once said to "check --server", never typed.
func TestConnectDefaultRefused(t *testing.T) {
	was := arlDefaultServer
	arlDefaultServer = "http://127.0.0.1:1" // nothing listens on port 1
	t.Cleanup(func() { arlDefaultServer = was })
	_, errOut, code := run(t, "", "arlington", "connect", "ABCDEF", "--bot", "random")
	want := "cardtable: arlington connect: the code ABCDEF: cannot reach http://127.0.0.1:1: the server refuses connections: it is stopped or restarting, " +
		"or not at http://127.0.0.1:1, the address asked when no --server is given: give the server's address with --server (serve prints it when it starts)\n"
	if code != exitFail || errOut != want {
		t.Errorf("exit %d, stderr %q; want exit %d, %q", code, errOut, exitFail, want)
	}
}

// TestNewTableDefaultServer: new-table without --server makes its table
// on the server connect asks by default, where serve listens by default
// (it was refused, "--server is required"); with nothing listening there,
// it names that address and says to give --server.
func TestNewTableDefaultServer(t *testing.T) {
	url, _ := serveInProcess(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	was := arlDefaultServer
	t.Cleanup(func() { arlDefaultServer = was })
	arlDefaultServer = strings.TrimSuffix(url, "/")
	out, errOut, code := run(t, "", "arlington", "new-table", "--seats", "human,greedy")
	if code != exitOK || !strings.HasPrefix(out, arlDefaultServer+"/arlington/t/") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 0 and a link on %s", code, out, errOut, arlDefaultServer)
	}
	arlDefaultServer = "http://127.0.0.1:1" // nothing listens on port 1
	_, errOut, code = run(t, "", "arlington", "new-table", "--seats", "human,greedy")
	want := "cardtable: arlington new-table: cannot reach http://127.0.0.1:1: the server refuses connections: it is stopped or restarting, " +
		"or not at http://127.0.0.1:1, the address asked when no --server is given: give the server's address with --server (serve prints it when it starts)\n"
	if code != exitFail || errOut != want {
		t.Errorf("exit %d, stderr %q; want exit %d, %q", code, errOut, exitFail, want)
	}
}

func TestErrorLineShape(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte("not a database"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.txt")
	for _, tc := range []struct {
		args []string
		code int
		want string // the whole of standard error
	}{
		{[]string{"arlington", "play", "--players", "9"}, exitUsage,
			"cardtable: arlington play: --players \"9\": want 2 to 6\nRun 'cardtable arlington play --help' for usage.\n"},
		{[]string{"arlington", "selfplay", "--games", "0"}, exitUsage,
			"cardtable: arlington selfplay: --games \"0\": want at least 1\nRun 'cardtable arlington selfplay --help' for usage.\n"},
		{[]string{"arlington", "connect", "http://127.0.0.1:1/t/abc"}, exitUsage,
			"cardtable: arlington connect: not a table link: \"http://127.0.0.1:1/t/abc\" (want http://HOST:PORT/arlington/t/ID)\n"},
		{[]string{"arlington", "connect", "http://127.0.0.1:1/arlington/t/abcdefgh", "--bot", "random", "--identity", ""}, exitFail,
			"cardtable: arlington connect: cannot reach http://127.0.0.1:1: the server refuses connections: it is stopped or restarting\n"},
		// A --server typed where nothing listens may be a mistyped port:
		// the refusal says to check it.
		{[]string{"arlington", "new-table", "--server", "http://127.0.0.1:1", "--seats", "human,random"}, exitFail,
			"cardtable: arlington new-table: cannot reach http://127.0.0.1:1: the server refuses connections: it is stopped or restarting, " +
				"or not at that address: check --server (serve prints its address when it starts)\n"},
		{[]string{"arlington", "connect", "ABC-DEF", "--server", "http://127.0.0.1:1", "--bot", "random"}, exitFail,
			"cardtable: arlington connect: the code ABCDEF: cannot reach http://127.0.0.1:1: the server refuses connections: it is stopped or restarting, " +
				"or not at that address: check --server (serve prints its address when it starts)\n"},
		{[]string{"spider", "play", "--load", missing}, exitUsage,
			"cardtable: spider play: cannot read " + missing + ": no such file or directory\n"},
		{[]string{"spider", "solve", "--nope"}, exitUsage,
			"cardtable: spider solve: unknown flag: --nope\nRun 'cardtable spider solve --help' for usage.\n"},
		{[]string{"restore", "--db", filepath.Join(dir, "live.db"), "--from", junk}, exitUsage,
			"cardtable: restore: " + junk + " is not a usable backup: it is not an SQLite database at all; nothing changed\n"},
		// A file that is no SQLite database is first the wrong file
		// named, not one to restore from a backup; SQLite's words
		// ("file is not a database (26)") not shown.
		{[]string{"serve", "--addr", "127.0.0.1:0", "--db", junk}, exitFail,
			"cardtable: serve: " + junk + " is not an SQLite database: check that --db (or CARDTABLE_DB) names the server's database. " +
				"If it does, the file is damaged and cardtable will not use it. Do not delete it: move it aside (with its -wal and -shm files, if any) " +
				"and put a backup in its place, or leave it aside and start with an empty database (the next start creates one). " +
				"The sqlite3 shell's .dump command can copy what is still readable into a new file (docs/api.md, \"A damaged database\")\n"},
		{[]string{"serve", "--db", filepath.Join(dir, "s.db"), "--acme", "bad_name!"}, exitUsage,
			"cardtable: serve: --acme: host \"bad_name!\": want a host name or an IP address, without a port\nRun 'cardtable serve --help' for usage.\n"},
		// The root command serves: its serve errors read as serve's. It
		// once said "cardtable: serve --acme: ..." where serve said
		// "cardtable: serve: --acme: ...".
		{[]string{"--db", filepath.Join(dir, "s.db"), "--acme", "bad_name!"}, exitUsage,
			"cardtable: serve: --acme: host \"bad_name!\": want a host name or an IP address, without a port\nRun 'cardtable --help' for usage.\n"},
		{[]string{"--nope"}, exitUsage,
			"cardtable: unknown flag: --nope\nRun 'cardtable --help' for usage.\n"},
		// A value refused is quoted as given, as every flag's refusal
		// is: these once said only "--jobs must be at least 1".
		{[]string{"spider", "bench", "--jobs", "0"}, exitUsage,
			"cardtable: spider bench: --jobs \"0\": want 1 to 64\nRun 'cardtable spider bench --help' for usage.\n"},
		// Every --jobs has one bound: each job takes its own memory.
		{[]string{"spider", "bench", "--jobs", "999"}, exitUsage,
			"cardtable: spider bench: --jobs \"999\": want 1 to 64\nRun 'cardtable spider bench --help' for usage.\n"},
		{[]string{"spider", "value-train", "--jobs", "65"}, exitUsage,
			"cardtable: spider value-train: --jobs \"65\": want 1 to 64\nRun 'cardtable spider value-train --help' for usage.\n"},
		{[]string{"spider", "bench", "--deals", "1-2000000"}, exitUsage,
			"cardtable: spider bench: --deals \"1-2000000\": at most a million deals at a time\nRun 'cardtable spider bench --help' for usage.\n"},
		{[]string{"spider", "pool", "--count", "0"}, exitUsage,
			"cardtable: spider pool: --count \"0\": want 1 to 1000000\nRun 'cardtable spider pool --help' for usage.\n"},
		{[]string{"spider", "pool", "--jobs", "65"}, exitUsage,
			"cardtable: spider pool: --jobs \"65\": want 1 to 64\nRun 'cardtable spider pool --help' for usage.\n"},
		{[]string{"spider", "value-train", "--jobs", "0"}, exitUsage,
			"cardtable: spider value-train: --jobs \"0\": want 1 to 64\nRun 'cardtable spider value-train --help' for usage.\n"},
		{[]string{"arlington", "selfplay", "--players", "2", "--seats", "easy,easy,easy"}, exitUsage,
			"cardtable: arlington selfplay: --seats \"easy,easy,easy\" lists 3 bots for --players \"2\"\nRun 'cardtable arlington selfplay --help' for usage.\n"},
		{[]string{"arlington", "new-table", "--server", "http://127.0.0.1:1", "--seats", "human,,easy"}, exitUsage,
			"cardtable: arlington new-table: --seats \"human,,easy\": seat 2 is empty (want human or a bot level)\nRun 'cardtable arlington new-table --help' for usage.\n"},
		// --bot-seed once read as --seed, whose reader it shares.
		{[]string{"arlington", "play", "--bot-seed", "x"}, exitUsage,
			"cardtable: arlington play: --bot-seed \"x\": want a whole number from 0 to 18446744073709551615\nRun 'cardtable arlington play --help' for usage.\n"},
		// A level refused is quoted as typed, not lower-cased.
		{[]string{"arlington", "selfplay", "--seats", "easy,Wizard"}, exitUsage,
			"cardtable: arlington selfplay: --seats: unknown bot \"Wizard\" (want " + strings.Join(bot.Names, ", ") + ")\nRun 'cardtable arlington selfplay --help' for usage.\n"},
		{[]string{"arlington", "play", "--bots", "Wizard"}, exitUsage,
			"cardtable: arlington play: --bots: unknown bot \"Wizard\" (want " + strings.Join(bot.Names, ", ") + ")\nRun 'cardtable arlington play --help' for usage.\n"},
		{[]string{"spider", "analyze", "bench", "--deals", "1-200000"}, exitUsage,
			"cardtable: spider analyze bench: --deals \"1-200000\": at most 100 000 deals at a time\nRun 'cardtable spider analyze bench --help' for usage.\n"},
		{[]string{"spider", "analyze", "bench", "--max-moves", "0"}, exitUsage,
			"cardtable: spider analyze bench: --max-moves \"0\": want 1 to 100000\nRun 'cardtable spider analyze bench --help' for usage.\n"},
		{[]string{"spider", "value-train", "--deals", "1000-900000"}, exitUsage,
			"cardtable: spider value-train: --deals \"1000-900000\": at most 100000 deals at a time\nRun 'cardtable spider value-train --help' for usage.\n"},
		{[]string{"spider", "value-train", "--deals", "1-10"}, exitUsage,
			"cardtable: spider value-train: --deals \"1-10\": deals 1-400 are the measured deals; train on others\nRun 'cardtable spider value-train --help' for usage.\n"},
		{[]string{"spider", "value-train", "--out", "/no/such/dir/v.json"}, exitUsage,
			"cardtable: spider value-train: --out \"/no/such/dir/v.json\": no such directory /no/such/dir\n"},
		// These five once each had words of their own ("--mode must be
		// solve or autoplay, not \"x\"", "--player: greedy or fair, not ...").
		{[]string{"arlington", "play", "--seed", "x"}, exitUsage,
			"cardtable: arlington play: --seed \"x\": want a whole number from 0 to 18446744073709551615\nRun 'cardtable arlington play --help' for usage.\n"},
		{[]string{"arlington", "new-table", "--server", "http://127.0.0.1:1", "--seats", "human,Wizard"}, exitUsage,
			"cardtable: arlington new-table: --seats \"human,Wizard\": seat 2 is \"Wizard\": want human or a bot level (" + strings.Join(bot.Names, ", ") + ")\nRun 'cardtable arlington new-table --help' for usage.\n"},
		{[]string{"spider", "bench", "--mode", "x"}, exitUsage,
			"cardtable: spider bench: --mode \"x\": want solve or autoplay\nRun 'cardtable spider bench --help' for usage.\n"},
		{[]string{"spider", "analyze", "bench", "--player", "human"}, exitUsage,
			"cardtable: spider analyze bench: --player \"human\": want greedy or fair\nRun 'cardtable spider analyze bench --help' for usage.\n"},
		{[]string{"arlington", "connect", "--bot", "wizard", "http://127.0.0.1:1/arlington/t/abc"}, exitUsage,
			"cardtable: arlington connect: --bot \"wizard\": want one of " + strings.Join(bot.Names, ", ") + "\nRun 'cardtable arlington connect --help' for usage.\n"},
		{[]string{"spider", "analyze", "bench", "--value", "--suits", "2"}, exitUsage,
			"cardtable: spider analyze bench: --value: no learned value for --suits \"2\" (see docs/solver.md, \"The learned value\")\nRun 'cardtable spider analyze bench --help' for usage.\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := run(t, "", tc.args...)
			if code != tc.code || errOut != tc.want || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr\n%q\nwant exit %d and\n%q", code, out, errOut, tc.code, tc.want)
			}
		})
	}
}

// TestUsageErrorKeepsCause: a usage error made from a cause keeps it, so
// errors.Is finds the sentinel under it (docs/cli.md, "Exit statuses"):
// they were once formatted with %v, their cause lost.
func TestUsageErrorKeepsCause(t *testing.T) {
	_, err := (&gameFlags{deal: "x"}).dealNumber()
	if !errors.Is(err, errUsage) || !errors.Is(err, card.ErrBadDeal) {
		t.Errorf("--deal x: %v: want a usage error wrapping card.ErrBadDeal", err)
	}
	_, err = (&gameFlags{suits: 3}).options()
	if !errors.Is(err, errUsage) || !errors.Is(err, card.ErrBadSuits) {
		t.Errorf("--suits 3: %v: want a usage error wrapping card.ErrBadSuits", err)
	}
	_, err = (&gameFlags{suits: 4, variant: "x"}).options()
	if !errors.Is(err, errUsage) || !errors.Is(err, spider.ErrFormat) {
		t.Errorf("--variant x: %v: want a usage error wrapping spider.ErrFormat", err)
	}
	err = within("serve: --acme-ca", usageErr("--x: %w", card.ErrBadDeal))
	if !errors.Is(err, errUsage) || !errors.Is(err, card.ErrBadDeal) || err.Error() != "usage: serve: --acme-ca: --x: bad deal" {
		t.Errorf("within: %q: want a usage error wrapping its cause, under the prefix", err)
	}
}

// TestNoteShape: a note a command writes while it goes on takes the
// error line's shape (docs/cli.md): self-play's progress once read
// "selfplay: 1 of 2 deals, 0 s".
func TestNoteShape(t *testing.T) {
	defer func(d time.Duration) { selfplayProgressEvery = d }(selfplayProgressEvery)
	selfplayProgressEvery = -1 // every deal
	_, errOut, code := run(t, "", "arlington", "selfplay", "--games", "2")
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if code != exitOK || len(lines) != 2 {
		t.Fatalf("exit %d, stderr %q; want 0 and a note a deal", code, errOut)
	}
	for _, l := range lines {
		if !regexp.MustCompile(`^cardtable: arlington selfplay: [12] of 2 deals, \d+ s$`).MatchString(l) {
			t.Errorf("note %q, want cardtable: arlington selfplay: N of 2 deals, S s", l)
		}
	}
}

// TestFlagValueErrorsEndAlike: a flag's value the command itself finds
// wrong ends, as a value the flag parser refuses does, with the pointer
// to the command's help (a bad --deal once ended bare, where a bad
// --memory got the pointer).
func TestFlagValueErrorsEndAlike(t *testing.T) {
	for _, tc := range []struct{ cmd, flags string }{
		{"serve", "--max-saves 0"},
		{"serve bench", "--duration -5s"},
		{"spider new", "--deal x"},
		{"spider play", "--deal x"},
		{"spider solve", "--deal x"},
		{"spider autoplay", "--deal x"},
		{"spider bench", "--deals x"},
		{"spider analyze bench", "--deals x"},
		{"spider value-train", "--deals x"},
		{"arlington loadtest", "--tables 0"},
		{"arlington loadtest", "--people 4 --bots 3"},
		// Values only the command's own checks refuse: they once ended
		// with the error line alone.
		{"spider new", "--suits 3"},
		{"spider new", "--variant zz"},
		{"spider new", "--winnable --deal 5"},
		{"spider bench", "--jobs 0"},
		{"spider bench", "--mode fast"},
		{"spider solve", "--deal 1 --time -1s"},
		{"spider solve", "--deal 1 --load x.txt"},
		{"spider autoplay", "--deal 1 --samples 0"},
		{"spider pool", "--count 0"},
		{"spider pool", "--jobs 65"},
		{"spider analyze bench", "--player best"},
		{"spider value-train", "--jobs 0"},
		{"arlington play", "--players 7"},
		{"arlington selfplay", "--jobs 0"},
		{"arlington selfplay", "--seats zz"},
		{"arlington play", "--bots zz"},
		{"arlington compare", "--spectrum zz"},
		{"arlington new-table", "--server http://127.0.0.1:1 --seats human,medium --target 0"},
		{"arlington new-table", "--server http://127.0.0.1:1 --seats human"},
		{"arlington connect", "--seat 9 http://127.0.0.1:1/arlington/t/x"},
		{"backup", ""},
		{"db copy", "--from a.db"},
		{"serve", "--bot-workers -1"},
		{"serve", "--tls-cert x"},
		{"serve", "--log-format xml"},
		{"serve bench", "--servers -1"},
		{"serve bench", "--servers 1 --kills -1"},
	} {
		args := append(strings.Fields(tc.cmd), strings.Fields(tc.flags)...)
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			if tc.cmd == "serve" {
				args = append(args, "--db", filepath.Join(t.TempDir(), "s.db"))
			}
			_, errOut, code := run(t, "", args...)
			want := "\nRun 'cardtable " + tc.cmd + " --help' for usage.\n"
			if code != exitUsage || !strings.HasSuffix(errOut, want) || strings.Count(errOut, "\n") != 2 {
				t.Errorf("exit %d, stderr %q; want exit 2, one error line and %q", code, errOut, want)
			}
		})
	}
}
