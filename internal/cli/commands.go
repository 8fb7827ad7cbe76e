package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cardtable/internal/buildinfo"
)

// newRoot builds cardtable's command tree. The root command is also serve
// (`cardtable` and `cardtable --addr X` serve), with serve's flags.
func newRoot(env *Env) *cobra.Command {
	root := leaf(env, "cardtable", "play Arachnid, Spider and Arlington: a server with a browser UI, and a command line",
		"cardtable plays Arachnid and Spider solitaire and Arlington: a server with a browser UI,\n"+
			"and a command line for scripting, solving and terminal play. With no command it serves\n"+
			"the browser UI (cardtable serve).\n\n"+
			"Flags are long and take two dashes (--deal 5 or --deal=5). Shell completion:\n"+
			"cardtable completion bash|zsh|fish|powershell (see cardtable completion --help).",
		runServe)
	bi := buildinfo.Read()
	setUpRoot(root, env, bi)
	root.AddCommand(serveCmd(env), spiderCmd(env), arlingtonCmd(env), backupCmd(env), restoreCmd(env), dbCmd(env), versionCmd(env, bi))
	root.SetHelpCommand(helpCmd(root))
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	rewordCompletion(root)
	completeFlagValues(root)
	return root
}

// setUpRoot gives the root command what every command inherits from it:
// the standard streams, one way of reporting errors and of printing help
// and usage, and --version. The root serves, so it also reads serve's
// flags from the environment.
func setUpRoot(root *cobra.Command, env *Env, bi buildinfo.Info) {
	root.Args = noArgsOrSub
	root.PreRunE = envDefaults
	root.Annotations = map[string]string{stopsOnSignalAnnotation: "true"}
	markEnvFlags(root.Flags())
	root.SilenceErrors, root.SilenceUsage = true, true
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetIn(env.Stdin)
	root.SetFlagErrorFunc(flagError)
	root.SetHelpFunc(helpFunc)
	root.SetUsageFunc(func(c *cobra.Command) error {
		_, err := fmt.Fprint(c.ErrOrStderr(), usageText(c))
		return err
	})
	root.Version = bi.Version
	root.SetVersionTemplate(bi.String() + "\n")
	root.Flags().BoolP("version", "v", false, "print the version, commit and commit time")
}

// serveCmd is `cardtable serve` and its load benchmark.
func serveCmd(env *Env) *cobra.Command {
	serve := leaf(env, "serve", "serve the browser UI (the default with no command)",
		"Serve the browser UI: Arachnid, Spider and live Arlington tables, with the games\n"+
			"kept in a SQLite database, or in PostgreSQL with --db postgres://USER@HOST/DB.\n"+
			"Each flag may also be set in the environment: --foo-bar as CARDTABLE_FOO_BAR\n"+
			"(CARDTABLE_DB keeps a database password out of ps); a flag on the command line wins.",
		runServe)
	serve.PreRunE = envDefaults
	serve.Annotations = map[string]string{stopsOnSignalAnnotation: "true"}
	markEnvFlags(serve.Flags())
	serve.AddCommand(leaf(env, "bench", "load benchmark: simulated players against a server, or several on one database",
		"Measure the server under load: simulated players send moves over HTTP on loopback\n"+
			"to a server on a fresh database, and the request rate and latencies are printed.\n\n"+
			"With --servers N (or --target URLS) simulated people play live Arlington tables\n"+
			"through N cardtable serve processes on one database instead, each request and\n"+
			"connection to the next server in turn; printed: action to view, each server's\n"+
			"memory, PostgreSQL's writes per action and, with --kills, how long a killed\n"+
			"server's tables take to move on (docs/scaling.md).",
		runServeBench))
	return serve
}

// spiderCmd is `cardtable spider` and its commands.
func spiderCmd(env *Env) *cobra.Command {
	spider := group("spider", "Arachnid and Spider solitaire: deals, terminal play, solver, benchmarks")
	spider.AddCommand(
		leaf(env, "new", "print the opening tableau of a deal", "", runSpiderNew),
		leaf(env, "play", "play in the terminal, one command a line", "Play in the terminal: read one command a line from standard input.\n\n"+spiderPlayHelp, runSpiderPlay),
		leaf(env, "solve", "solve a deal or position with every card known", "", runSpiderSolve),
		leaf(env, "autoplay", "play a deal fairly, seeing only what a player sees", "", runSpiderAutoplay),
		leaf(env, "bench", "solve or autoplay a range of deals and summarise", "", runSpiderBench),
		leaf(env, "pool", "prove deals spread over the whole range winnable, for the winnable pool",
			"Prove deals spread over the whole deal range winnable and print them as\n"+
				"VARIANT SUITS DEAL lines, the format of spider/solver/winnable.txt.", runSpiderPool),
	)
	spider.AddCommand(leaf(env, "value-train", "label positions of training deals and fit the fair player's learned value (maintenance)",
		"Label positions of training deals with the full-information solver, fit the fair\n"+
			"player's learned value to them and print it (docs/solver.md, \"The learned value\");\n"+
			"--out writes it, as spider/solver/value.txt.", runSpiderValueTrain))
	analyze := leaf(env, "analyze --load FILE", "find where a saved game was lost, with every card known", "", runSpiderAnalyze)
	analyze.AddCommand(leaf(env, "bench", "analyse the games a player makes of a range of deals (greedy, or fair with --player fair) and time it", "", runAnalyzeBench))
	spider.AddCommand(analyze)
	return spider
}

// arlingtonCmd is `cardtable arlington` and its commands.
func arlingtonCmd(env *Env) *cobra.Command {
	arl := group("arlington", "Arlington: sets, self-play, terminal play, live tables")
	arl.AddCommand(
		leaf(env, "set CARD...", "analyse a set: legal?, spectra, points",
			"Analyse a set: whether it is legal (if not, why), its spectra and its points.\n"+
				"Cards are rank and suit in either order (SQ, QS, HT, C2), JK a joker; one argument\n"+
				"may hold several cards (\"SQ HQ\").", runArlingtonSet),
		leaf(env, `compare --spectrum NAME "SET A" "SET B"`, "compare two sets in a spectrum: higher, lower or equal", "", runArlingtonCompare),
		leaf(env, "selfplay", "play bots against each other and report wins and points", "", runArlingtonSelfplay),
		leaf(env, "play", "play one seat in the terminal against bots",
			"Play one seat in the terminal against bots: one command a line on standard input.\n\n"+arlPlayHelp, runArlingtonPlay),
		leaf(env, "bench", "measure self-play speed in games per second", "", runArlingtonBench),
		leaf(env, "new-table --seats SPEC", "create a table on a server and print its link",
			"Create a table on a server and print its link alone on standard output.", runArlingtonNewTable),
		leaf(env, "connect LINK|CODE", "join a table on a server and play a seat, or let a bot play it",
			"Join the table at LINK (http://HOST:PORT/arlington/t/ID), or the one with CODE (the six\n"+
				"characters its page shows) on the server of --server, and play a seat to the end of\n"+
				"the game, from the terminal (one command a line) or with a bot. The identity the server\n"+
				"knows you by is kept for later runs, as a browser keeps its cookie (--identity): they\n"+
				"are the same player, with your rated name, rating and seat.\n\n"+arlConnectHelp, runArlingtonConnect),
		leaf(env, "loadtest", "load benchmark of live tables: simulated people over WebSockets", "", runArlingtonLoadtest),
	)
	return arl
}

// dbCmd is `cardtable db`: the database's maintenance.
func dbCmd(env *Env) *cobra.Command {
	db := group("db", "the server's database: copy it between SQLite and PostgreSQL")
	db.AddCommand(leaf(env, "copy", "copy a whole database into a new one, SQLite or PostgreSQL, and check the copy",
		"Copy every row of the database --from into the new database --to, then check both\n"+
			"hold the same rows (a count and a SHA-256 per table). Each is a --db value: a SQLite\n"+
			"file, or postgres://USER@HOST/DB?... for PostgreSQL. The target must be empty (a new\n"+
			"file, or a database with no cardtable rows); stop the server of the source first.", runDBCopy))
	return db
}

// backupCmd is `cardtable backup`.
func backupCmd(env *Env) *cobra.Command {
	return leaf(env, "backup --to FILE", "copy the database, checked, while the server runs",
		"Write a consistent copy of the database to a new file while a server may be running on it,\n"+
			"check it (SQLite's integrity check) and only then give it its name. An existing file is\n"+
			"never overwritten. See docs/operating.md, \"Backups and restore\".", runBackup)
}

// restoreCmd is `cardtable restore`.
func restoreCmd(env *Env) *cobra.Command {
	return leaf(env, "restore --from FILE", "put a backup in place of the database while no server runs",
		"Put a backup in place of the database: refused while a server holds it; the backup is\n"+
			"checked first and renamed into place whole; the database it replaces is kept beside it\n"+
			"(PATH.replaced-TIME). See docs/operating.md, \"Backups and restore\".", runRestore)
}

// rewordCompletion makes cobra's completion command follow this
// program's rules, not only in words: its descriptions in this help's
// style; Args and RunE (groupRun, noArgs) that make a missing or unknown
// shell, or an argument after one, bad usage, exit 2 (docs/cli.md); and
// the group annotation, which gives its help the layout of the other
// groups (no synopsis line of its own).
func rewordCompletion(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.Name() == "completion" { // cobra's: its words and exit statuses in this help's style
			c.Short = "print a shell completion script: bash, zsh, fish or powershell"
			c.Args, c.RunE = cobra.ArbitraryArgs, groupRun // cobra printed its help, exit 0, for an unknown shell
			c.Annotations = map[string]string{groupAnnotation: "true"}
			for _, s := range c.Commands() {
				s.Short = "print the completion script for " + s.Name()
				s.Args = noArgs // cobra's NoArgs was a failure, exit 1, not bad usage
			}
		}
	}
}

// leaf makes a command whose flags setup registers; use is its name and
// arguments. long defaults to short.
func leaf(env *Env, use, short, long string, setup func(*pflag.FlagSet) runFunc) *cobra.Command {
	c := &cobra.Command{Use: use, Short: short, Long: long, Args: cobra.ArbitraryArgs}
	run := setup(c.Flags())
	c.RunE = func(c *cobra.Command, args []string) error {
		env.cmd = c
		return run(c.Context(), env, args)
	}
	return c
}

// groupAnnotation marks a command that only holds subcommands.
const groupAnnotation = "group"

// group makes a command that only holds subcommands; alone or with an
// unknown subcommand it is a usage error.
func group(name, short string) *cobra.Command {
	return &cobra.Command{Use: name, Short: short, Args: cobra.ArbitraryArgs, RunE: groupRun,
		Annotations: map[string]string{groupAnnotation: "true"}}
}

// helpCmd is `cardtable help [COMMAND...]`: the command's own help; an
// unknown command is a usage error.
func helpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND...]",
		Short: "help for any command (the same as COMMAND --help)",
		RunE: func(_ *cobra.Command, args []string) error {
			c, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 {
				return noArgsOrSub(c, rest)
			}
			c.InitDefaultHelpFlag()
			c.InitDefaultVersionFlag()
			return c.Help()
		},
	}
}

// versionCmd is `cardtable version`, the same as `cardtable --version`.
func versionCmd(env *Env, bi buildinfo.Info) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the version, commit and commit time",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(env.Stdout, bi.String())
			return err
		},
	}
}

// helpFunc prints a command's help: its description and usage.
func helpFunc(c *cobra.Command, _ []string) {
	text := c.Long
	if text == "" {
		text = strings.ToUpper(c.Short[:1]) + c.Short[1:] + "."
	}
	fmt.Fprintf(c.OutOrStdout(), "%s\n\n%s", strings.TrimRight(text, "\n"), usageText(c))
}

// usageText is the usage of every command in one layout: synopsis lines,
// subcommands, flags with their defaults.
func usageText(c *cobra.Command) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	if c.Runnable() && c.Annotations[groupAnnotation] == "" {
		fmt.Fprintf(&b, "  %s\n", c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "  %s COMMAND\n", c.CommandPath())
		b.WriteString("\nCommands:\n")
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				fmt.Fprintf(&b, "  %-*s %s\n", c.NamePadding(), s.Name(), s.Short)
			}
		}
	}
	if c.HasAvailableLocalFlags() {
		fmt.Fprintf(&b, "\nFlags:\n%s\n", strings.TrimRight(c.LocalFlags().FlagUsages(), " \n"))
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\nRun '%s COMMAND --help' for a command's help.\n", c.CommandPath())
	}
	return b.String()
}
