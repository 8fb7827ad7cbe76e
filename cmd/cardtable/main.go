// Command cardtable plays Arachnid, Spider and Arlington: a server with a
// browser UI, and a command line for scripting, solving and terminal play.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"cardtable/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
