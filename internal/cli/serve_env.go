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

// envDefaults sets each flag not given on the command line from its
// variable, if set; a bad value is a usage error naming the variable.
func envDefaults(c *cobra.Command, _ []string) error {
	var err error
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed || !envFlag(f) {
			return
		}
		v, ok := os.LookupEnv(envName(f.Name))
		if !ok {
			return
		}
		if serr := f.Value.Set(v); serr != nil {
			// The value is not echoed: it may be a secret.
			if w := valueProblem(f.Value.Type(), serr); w != "" {
				err = usageErr("%s, for --%s: its value %s", envName(f.Name), f.Name, w)
				return
			}
			err = usageErr("%s: not a valid %s for --%s", envName(f.Name), f.Value.Type(), f.Name)
		}
	})
	return err
}

// envSet is the flags of fs whose value came from the environment:
// envDefaults set them, the command line did not.
func envSet(fs *pflag.FlagSet) map[string]bool {
	m := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) {
		if _, ok := os.LookupEnv(envName(f.Name)); ok && !f.Changed && envFlag(f) {
			m[f.Name] = true
		}
	})
	return m
}
