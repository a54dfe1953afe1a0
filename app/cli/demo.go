package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"

	"eval752/app/demo"
	"eval752/app/finding"
)

func init() {
	Register(Command{Name: "demo", Summary: "write the built-in demo bundle (or, with --bad, the mixed-bad one)", Run: runDemo})
}

// runDemo is `eval752 demo [--bad] [--force] OUT`. The bundle is built in
// memory and written in one go (a temporary file renamed over OUT), so a
// failed build never leaves half a zip where the page expects the demo; an
// existing OUT is replaced only with --force (CheckOut).
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bad := fs.Bool("bad", false, "write the mixed-bad bundle (the demo with planted problems, see docs/demo.md)")
	force := fs.Bool("force", false, "replace OUT when it exists")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 demo [--bad] [--force] OUT\n\n"+
			"Writes the built-in demo bundle (%s) to OUT; the same bytes every time.\n"+
			"An existing OUT is replaced only with --force. Use - as OUT for standard output.\n\n", demo.FileName)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitCantRun
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return ExitCantRun
	}
	out := fs.Arg(0)
	if out != "-" {
		if err := CheckOut(out, OutFile, nil, *force); err != nil {
			return cantRun(stderr, "demo", err)
		}
	}
	var b bytes.Buffer
	build := demo.Build
	if *bad {
		build = demo.BuildBad
	}
	if err := build(&b); err != nil {
		return cantRun(stderr, "demo", err)
	}
	if out == "-" {
		if _, err := stdout.Write(b.Bytes()); err != nil {
			return cantRun(stderr, "demo", err)
		}
		return ExitOK
	}
	if err := WriteFileAtomic(out, b.Bytes()); err != nil {
		return cantRun(stderr, "demo", err)
	}
	sum := sha256.Sum256(b.Bytes())
	fmt.Fprintf(stdout, "wrote %s (%d bytes, sha256 %s)\n", finding.Inert(out), b.Len(), hex.EncodeToString(sum[:]))
	return ExitOK
}
