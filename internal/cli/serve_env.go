package cli

import (
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The server's flags may be set in the environment: --foo-bar as
// CARDTABLE_FOO_BAR (docs/cli.md). A flag given on the command line wins;
// the environment keeps a secret such as a database URL out of `ps`.

// envName is the environment variable of flag name.
func envName(name string) string {
	return "CARDTABLE_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// envFlag reports whether a flag may come from the environment.
func envFlag(f *pflag.Flag) bool {
	return f.Name != "help" && f.Name != "version"
}

// markEnvFlags names each flag's variable in its help.
func markEnvFlags(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if envFlag(f) {
			f.Usage += " [env " + envName(f.Name) + "]"
		}
	})
}

// envValue is variable name's value; ok is false when it is unset or
// empty: an empty variable (CARDTABLE_MAX_TABLES= in an environment
// file, a shell's VAR= ) means the flag's default, for every flag, as
// shells and systemd users expect (docs/cli.md).
func envValue(name string) (string, bool) {
	v := os.Getenv(name)
	return v, v != ""
}

// envDefaults sets each flag not given on the command line from its
// variable, if set and not empty; a bad value is a usage error naming
// the variable.
func envDefaults(c *cobra.Command, _ []string) error {
	var err error
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed || !envFlag(f) {
			return
		}
		v, ok := envValue(envName(f.Name))
		if !ok {
			return
		}
		if serr := f.Value.Set(v); serr != nil {
			// The value is not echoed: it may be a secret.
			if w := valueProblem(f.Value.Type(), serr); w != "" {
				err = flagErr("%s, for --%s: its value %s", envName(f.Name), f.Name, w)
				return
			}
			err = flagErr("%s: not a valid %s for --%s", envName(f.Name), f.Value.Type(), f.Name)
		}
	})
	return err
}

// envSet is the flags of fs whose value came from the environment:
// envDefaults set them, the command line did not.
func envSet(fs *pflag.FlagSet) map[string]bool {
	m := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) {
		if _, ok := envValue(envName(f.Name)); ok && !f.Changed && envFlag(f) {
			m[f.Name] = true
		}
	})
	return m
}

// envMiss is a CARDTABLE_ variable that names no flag but nearly names
// one, with the variable it was likely meant as.
type envMiss struct{ name, meant string }

// envNearMisses is the variables of environ that start CARDTABLE_, name
// no flag of fs, and nearly name one (CARDTABLE_MAXTABLES,
// CARDTABLE_TRUSTED_PROXIES): a typo in a service's environment file was
// ignored without a word, and the server ran with the default, such as
// no trusted proxy, every player then counted as the proxy by the rate
// limits. serve logs each at WARN, naming the variable, never its value
// (docs/cli.md). Variables far from every flag's (a test suite's own,
// CARDTABLE_REQUIRE_BROWSER) are other programs' business.
func envNearMisses(fs *pflag.FlagSet, environ []string) []envMiss {
	var flags []string
	known := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) {
		if envFlag(f) {
			flags = append(flags, envName(f.Name))
			known[envName(f.Name)] = true
		}
	})
	var misses []envMiss
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "CARDTABLE_") || known[name] {
			continue
		}
		// The nearest flag's, not the first near one's: CARDTABLE_MAX_SAVE
		// is CARDTABLE_MAX_SAVES's, not CARDTABLE_MAX_SAVE_MB's.
		best, bestD := "", 0
		for _, flag := range flags {
			if d, ok := nearName(normEnv(name), normEnv(flag)); ok && (best == "" || d < bestD) {
				best, bestD = flag, d
			}
		}
		if best != "" {
			misses = append(misses, envMiss{name, best})
		}
	}
	return misses
}

// normEnv is a variable's name as nearName compares it: without
// CARDTABLE_, in lower case, its words joined by dashes as a flag's are.
func normEnv(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(s, "CARDTABLE_")), "_", "-")
}
