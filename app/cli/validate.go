package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/finding"
)

func init() {
	Register(Command{Name: "validate", Summary: "check bundles and sets; print located findings", Run: runValidate})
}

func runValidate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object {inputs, findings, counts}")
	format := fs.String("format", "", "force the format of every PATH (default: detect from content)")
	var lim limitFlags
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 validate [--json] [--format F] PATH...\n\n"+
			"Checks .eval752.zip bundles and JSONL/JSON/YAML/TREC files (a folder: the files under it)\n"+
			"and prints one line per finding:\n"+
			"  path:line: severity code: message\n"+
			"Exit status: 0 no errors, 1 errors found, 2 cannot run.\n\n")
		fs.PrintDefaults()
	}
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitCantRun
	}
	if len(paths) == 0 {
		fs.Usage()
		return ExitCantRun
	}
	f, err := parseFormat(*format)
	if err != nil {
		return cantRun(stderr, "validate", err)
	}
	opt := engine.DefaultOptions()
	if opt.Load.Limits, err = lim.limits(); err != nil {
		return cantRun(stderr, "validate", err)
	}
	inputs, closeAll, err := openInputs(paths, f)
	if err != nil {
		return cantRun(stderr, "validate", err)
	}
	defer closeAll()
	ds, findings, err := engine.Validate(ctx, inputs, opt, nil)
	if ie, ok := engine.AsInternal(err); ok {
		// the panic net's finding is validate's output, in its format
		fl := finding.List{ie.Finding}
		if *asJSON {
			infos := make([]dataset.InputInfo, 0, len(inputs))
			for _, in := range inputs {
				infos = append(infos, dataset.InputInfo{Path: in.Name, Size: in.Size})
			}
			if err := engine.WriteValidateJSON(stdout, infos, fl); err != nil {
				return cantRun(stderr, "validate", err)
			}
		} else {
			writeFindings(stdout, fl)
		}
		return ExitCantRun
	}
	if err != nil {
		return cantRun(stderr, "validate", err)
	}
	if findings == nil {
		findings = finding.List{}
	}
	counts := findings.Counts()
	if *asJSON {
		if err := engine.WriteValidateJSON(stdout, ds.Inputs, findings); err != nil {
			return cantRun(stderr, "validate", err)
		}
	} else {
		writeFindings(stdout, findings)
		fmt.Fprintf(stdout, "%d error(s), %d warning(s), %d info in %d file(s)\n", counts.Error, counts.Warning, counts.Info, len(ds.Inputs))
		for _, pc := range findings.PerCode() {
			fmt.Fprintf(stdout, "  %-40s %-7s %d\n", pc.Code, pc.Severity, pc.Count)
		}
	}
	if counts.Error > 0 {
		return ExitErrors
	}
	return ExitOK
}

// writeFindings prints findings as "path:line: severity code: message", with
// the JSON pointer and the hint on indented lines below. Path, message,
// pointer and hint are printed inert (finding.Inert): a control character in
// an entry name or a quoted value shows as \n, \x1b…, so each line is one
// finding and nothing drives the terminal.
func writeFindings(w io.Writer, l finding.List) {
	for _, f := range l {
		fmt.Fprintf(w, "%s:%d: %s %s: %s\n", finding.Inert(f.Path), f.Line, f.Severity, f.Code, finding.Inert(f.Message))
		if f.Pointer != "" {
			fmt.Fprintf(w, "    at %s\n", finding.Inert(f.Pointer))
		}
		if f.Hint != "" {
			fmt.Fprintf(w, "    hint: %s\n", finding.Inert(f.Hint))
		}
	}
}
