// Package cli implements the eval752 command line. Each subcommand lives in
// its own file and registers itself; main only calls Main.
//
// Exit status, for every subcommand: 0 success (no error findings), 1 the
// input has errors (or a paired test / threshold the command enforces
// failed), 2 the command could not run (bad flags, unreadable path).
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"eval752/app/engine"
	"eval752/app/finding"
	"eval752/app/version"
)

// Command is one subcommand.
type Command struct {
	Name    string
	Summary string // one line for the usage list
	Run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands = map[string]Command{}

// Register adds a subcommand; called from init functions.
func Register(c Command) {
	if _, dup := commands[c.Name]; dup {
		panic("cli: duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

// Exit statuses.
const (
	ExitOK      = 0
	ExitErrors  = 1
	ExitCantRun = 2
)

// Main runs the command line args (without the program name). A panic of
// any command is recovered here (the commands that go through the engine
// are already netted there) and printed as one internal.error finding on
// stderr, exit status 2.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			ie := engine.Recovered(p, pathArgs(args))
			writeFindings(stderr, finding.List{ie.Finding})
			code = ExitCantRun
		}
	}()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return ExitCantRun
		}
		return ExitOK
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintf(stdout, "%s %s\n", version.Name, version.Version)
		return ExitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "eval752: unknown command %q\n\n", args[0])
		usage(stderr)
		return ExitCantRun
	}
	return c.Run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "usage: eval752 <command> [flags] [args]\n\ncommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-14s %s\n", n, commands[n].Summary)
	}
	fmt.Fprintf(w, "  %-14s %s\n", "version", "print the version")
	fmt.Fprintf(w, "\nRun 'eval752 <command> -h' for a command's flags.\n")
}

// multiFlag collects repeated string flags (-m a -m b).
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// pathArgs names the arguments that are existing paths: the files a command
// was reading when it panicked outside the loader (which names its file
// itself).
func pathArgs(args []string) string {
	var paths []string
	if len(args) == 0 {
		return ""
	}
	for _, a := range args[1:] {
		if _, err := os.Stat(a); err == nil && !strings.HasPrefix(a, "-") {
			paths = append(paths, a)
		}
	}
	return strings.Join(paths, ", ")
}
