package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"

	"eval752/app/engine"
	"eval752/app/finding"
)

func init() {
	Register(Command{Name: "results", Summary: "write the results bundle: every report in every format, with a manifest of inputs and files", Run: runResults})
}

// runResults is `eval752 results [--seed N] [--bootstrap N] [--run-a A
// --run-b B] OUT PATH...`: one zip holding what validate, score, compare
// and audit print for PATH (JSON, Markdown, CSV), a manifest.json with the
// sha256 of every input and every file, and a README.md. The page's
// "results bundle" export writes the same bytes for the same files.
func runResults(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("results", flag.ContinueOnError)
	fs.SetOutput(stderr)
	d := engine.DefaultOptions().Score
	seed := fs.Int64("seed", d.Seed, "seed of the bootstrap resampling")
	boot := fs.Int("bootstrap", d.Bootstrap, "number of bootstrap resamples over items")
	runA := fs.String("run-a", "", "run A of the comparison (default: the first run)")
	runB := fs.String("run-b", "", "run B of the comparison (default: the second run)")
	force := fs.Bool("force", false, "replace OUT when it exists (OUT is never one of the inputs, nor inside an input folder)")
	var lim limitFlags
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 results [--seed N] [--bootstrap N] [--run-a A --run-b B] [--force] OUT PATH...\n\n"+
			"Writes OUT, a zip with eval752-results/: README.md, manifest.json (tool, inputs with sha256,\n"+
			"counts, runs, files with sha256), findings.json/.csv, overview.md, score.json/.md/.csv,\n"+
			"compare.json/.md/.csv, audit.json/.md/.csv — each byte for byte what the matching command prints.\n"+
			"OUT is never an input nor inside an input folder; an existing OUT is replaced only with --force.\n"+
			"Use - as OUT for standard output.\n"+
			"Exit status: 0 written (no errors), 1 written (validation or the audit found errors), 2 cannot run.\n\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitCantRun
	}
	if len(pos) < 2 {
		fs.Usage()
		return ExitCantRun
	}
	if err := checkBootstrap(*boot); err != nil {
		return cantRun(stderr, "results", err)
	}
	if (*runA == "") != (*runB == "") {
		return cantRun(stderr, "results", errors.New("give both --run-a and --run-b, or neither"))
	}
	limits, err := lim.limits()
	if err != nil {
		return cantRun(stderr, "results", err)
	}
	out, paths := pos[0], pos[1:]
	if out != "-" {
		if err := CheckOut(out, OutFile, paths, *force); err != nil {
			return cantRun(stderr, "results", err)
		}
	}
	inputs, closeAll, err := openInputs(paths, "")
	if err != nil {
		return cantRun(stderr, "results", err)
	}
	defer closeAll()
	eo := engine.DefaultOptions()
	eo.Load.Limits = limits
	eo.Score.Seed, eo.Score.Bootstrap = *seed, *boot
	eo.CompareA, eo.CompareB = *runA, *runB
	res, err := engine.Evaluate(ctx, inputs, eo, nil)
	if err != nil {
		return cantRun(stderr, "results", err)
	}
	var b bytes.Buffer
	if err := engine.WriteResultsZip(&b, res); err != nil {
		return cantRun(stderr, "results", err)
	}
	if out == "-" {
		if _, err := stdout.Write(b.Bytes()); err != nil {
			return cantRun(stderr, "results", err)
		}
	} else {
		if err := WriteFileAtomic(out, b.Bytes()); err != nil {
			return cantRun(stderr, "results", err)
		}
		sum := sha256.Sum256(b.Bytes())
		fmt.Fprintf(stdout, "wrote %s (%d bytes, sha256 %s); validation: %d error(s), %d warning(s), %d info\n",
			finding.Inert(out), b.Len(), hex.EncodeToString(sum[:]), res.Counts.Error, res.Counts.Warning, res.Counts.Info)
		if res.Audit != nil {
			c := res.AuditFindings.Counts()
			fmt.Fprintf(stdout, "set-design audit: %d error(s), %d warning(s), %d info\n", c.Error, c.Warning, c.Info)
		}
	}
	// errors found by validation or by the audit (leakage is an error
	// there), as `validate` and `audit` exit
	if res.Counts.Error > 0 || (res.Audit != nil && res.AuditFindings.Counts().Error > 0) {
		return ExitErrors
	}
	return ExitOK
}
