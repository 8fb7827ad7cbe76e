package cli

import "context"

// runSpider dispatches the Spider subcommands.
func runSpider(ctx context.Context, env *Env, args []string) error {
	return subcommand(ctx, env, "spider", args, nil)
}
