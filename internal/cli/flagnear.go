package cli

import (
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unknownLong finds the name in pflag's "unknown flag: --too".
var unknownLong = regexp.MustCompile(`^unknown flag: --([^\s=]+)`)

// nearFlag is the command's flag nearest to the unknown one pflag
// refused in err ("to" for --too), by the rule that finds a mistyped
// environment variable's flag (nearName), or "" when none is near.
// Hidden flags are not offered: the help does not show them either.
func nearFlag(c *cobra.Command, err error) string {
	m := unknownLong.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "") }
	typed := norm(m[1])
	best, bestD := "", 0
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name := norm(f.Name)
		if d := editDistance(typed, name); nearName(typed, name, d) && (best == "" || d < bestD) {
			best, bestD = f.Name, d
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	return best
}
