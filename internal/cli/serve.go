package cli

import (
	"context"
	"errors"
)

// runServe is filled in by the web work (issue 5).
func runServe(ctx context.Context, env *Env, args []string) error {
	return errors.New("serve: not built yet")
}
