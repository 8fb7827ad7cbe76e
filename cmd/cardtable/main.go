// Command cardtable plays Arachnid, Spider and Arlington: a server with a
// browser UI, and a command line for scripting, solving and terminal play.
package main

import (
	"context"
	"os"

	"cardtable/internal/cli"
)

func main() {
	// SIGINT and SIGTERM end the context with cli.Interrupt as its cause:
	// serve drains, another command stops and exits 128+N (docs/cli.md).
	ctx, stop := cli.SignalContext(context.Background())
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
