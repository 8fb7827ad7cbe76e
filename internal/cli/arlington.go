package cli

import "context"

// runArlington is filled in by the Arlington work (issue 3).
func runArlington(ctx context.Context, env *Env, args []string) error {
	return subcommand(ctx, env, "arlington", args, nil)
}
