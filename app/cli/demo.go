package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"eval752/app/demo"
)

func init() {
	Register(Command{Name: "demo", Summary: "write the built-in demo bundle (or, with --bad, the mixed-bad one)", Run: runDemo})
}

// runDemo is `eval752 demo [--bad] OUT`. The bundle is built in memory and
// written in one go (a temporary file renamed over OUT), so a failed build
// never leaves half a zip where the page expects the demo.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bad := fs.Bool("bad", false, "write the mixed-bad bundle (the demo with planted problems, see docs/demo.md)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 demo [--bad] OUT\n\n"+
			"Writes the built-in demo bundle (%s) to OUT; the same bytes every time.\n"+
			"Use - as OUT for standard output.\n\n", demo.FileName)
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
	var b bytes.Buffer
	build := demo.Build
	if *bad {
		build = demo.BuildBad
	}
	if err := build(&b); err != nil {
		return cantRun(stderr, "demo", err)
	}
	out := fs.Arg(0)
	if out == "-" {
		if _, err := stdout.Write(b.Bytes()); err != nil {
			return cantRun(stderr, "demo", err)
		}
		return ExitOK
	}
	if err := writeFileAtomic(out, b.Bytes()); err != nil {
		return cantRun(stderr, "demo", err)
	}
	sum := sha256.Sum256(b.Bytes())
	fmt.Fprintf(stdout, "wrote %s (%d bytes, sha256 %s)\n", out, b.Len(), hex.EncodeToString(sum[:]))
	return ExitOK
}

// writeFileAtomic writes data to a temporary file beside path and renames it.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".demo-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
