// Command eval752 validates and scores evaluation benchmarks: the same core
// the web page runs, for CI. See README.md for the commands.
package main

import (
	"context"
	"os"
	"os/signal"

	"eval752/app/cli"
	_ "eval752/app/ui/server" // registers serve and export-static
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
