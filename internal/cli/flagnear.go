package cli

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unknownLong finds the name in pflag's "unknown flag: --too".
var unknownLong = regexp.MustCompile(`^unknown flag: --([^\s=]+)`)

// unknownName is the flag's name pflag refused in err ("too" for
// --too), "" for another error.
func unknownName(err error) string {
	if m := unknownLong.FindStringSubmatch(err.Error()); m != nil {
		return m[1]
	}
	return ""
}

// flagHint is what follows pflag's refusal of an unknown flag name in
// c: that it is another command's flag, exactly as typed (--max-moves in
// serve is spider analyze bench's, not a typo of serve's --max-saves),
// or else c's flag nearest to it by nearName ("did you mean --to?" for
// --too); both when c's is one slip away (--bots in arlington connect:
// its --bot, or arlington play's --bots); "" when neither. Hidden flags
// are not offered: the help does not show them either.
func flagHint(c *cobra.Command, name string) string {
	if name == "" {
		return ""
	}
	near, d := nearFlag(c, name)
	if others := flagOwners(c, name); others != "" {
		other := fmt.Sprintf("--%s is a flag of %s", name, others)
		if near != "" && d <= 1 {
			return "did you mean --" + near + "? " + other
		}
		return other
	}
	if near != "" {
		return "did you mean --" + near + "?"
	}
	return ""
}

// nearFlag is c's flag nearest to the name typed, and how far, or "".
func nearFlag(c *cobra.Command, typed string) (string, int) {
	typed = strings.ToLower(typed)
	best, bestD := "", 0
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if d, ok := nearName(typed, strings.ToLower(f.Name)); ok && (best == "" || d < bestD) {
			best, bestD = f.Name, d
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	return best, bestD
}

// flagOwners names the shown commands other than c with a shown flag
// called name, as the error line names commands ("`spider analyze
// bench`", the root "`cardtable`"), three at most and how many more; ""
// when none has it.
func flagOwners(c *cobra.Command, name string) string {
	var owners []string
	var walk func(*cobra.Command)
	walk = func(o *cobra.Command) {
		if o.Hidden {
			return
		}
		if o != c {
			f := o.Flags().Lookup(name)
			if f == nil {
				f = o.PersistentFlags().Lookup(name)
			}
			if f != nil && !f.Hidden {
				path := strings.TrimPrefix(o.CommandPath(), o.Root().Name()+" ")
				owners = append(owners, "`"+path+"`")
			}
		}
		for _, sub := range o.Commands() {
			walk(sub)
		}
	}
	walk(c.Root())
	switch n := len(owners); {
	case n == 0:
		return ""
	case n == 1:
		return owners[0]
	case n <= 3:
		return strings.Join(owners[:n-1], ", ") + " and " + owners[n-1]
	default:
		return strings.Join(owners[:3], ", ") + " and " + plural(n-3, "other command")
	}
}

// nearName reports whether a name typed, a, is likely a mistyped b (both
// in lower case, words joined by dashes: a flag's name or normEnv's), and
// how far apart they are (editDistance, dashes aside): the same but for
// dashes or case, a letter or two off (one for names under 6 letters; two
// neighbouring letters swapped count as one), or b with another ending of
// its last word (trusted-proxies for trusted-proxy). A further word is
// another name, not an ending: serve-onl is not server.
func nearName(a, b string) (int, bool) {
	as, bs := strings.ReplaceAll(a, "-", ""), strings.ReplaceAll(b, "-", "")
	d := editDistance(as, bs)
	limit := 2
	if len(bs) < 6 {
		limit = 1
	}
	if d <= limit {
		return d, true
	}
	common := 0
	for common < min(len(as), len(bs)) && as[common] == bs[common] {
		common++
	}
	if len(bs) < 6 || common < len(bs)-1 {
		return d, false
	}
	letters := 0 // of a, up to the dash
	for i := range len(a) {
		if a[i] != '-' {
			letters++
		} else if letters >= common {
			return d, false // a word starts where a leaves b
		}
	}
	return d, true
}

// editDistance is the number of letters put in, taken out, changed or
// swapped with the next to make a b (two ASCII names): the Levenshtein
// distance, but for a swap counted once, as a typing slip is one slip.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev = prev, cur
	}
	return prev[len(b)]
}
