package cli

import (
	"time"

	"github.com/spf13/pflag"
)

// durationValue is a duration flag's value that keeps the text typed, so
// that a message about a value out of range quotes what the user typed
// (`--time "-90s"`), not the parsed duration written back ("-1m30s",
// which the user never typed). Its Type is pflag's own duration's, so a
// value that does not parse gets the same words (valueProblem).
type durationValue struct {
	d     *time.Duration
	typed string
}

func (v *durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*v.d, v.typed = d, s
	return nil
}

func (v *durationValue) Type() string { return "duration" }

// String is the text typed, or the default's. A zero default reads "0",
// the one way pflag's help leaves a zero default of a value of its own
// type unsaid, as it does for its own durations.
func (v *durationValue) String() string {
	switch {
	case v.typed != "":
		return v.typed
	case *v.d == 0:
		return "0"
	}
	return v.d.String()
}

// durationVar defines a duration flag of fs, stored in p, as
// fs.DurationVar does, and returns its value, whose String is the text
// typed: give it, not *p, to a message about the value (flagRule).
func durationVar(fs interface {
	Var(pflag.Value, string, string)
}, p *time.Duration, name string, def time.Duration, usage string) *durationValue {
	*p = def
	v := &durationValue{d: p}
	fs.Var(v, name, usage)
	return v
}
