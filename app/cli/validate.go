package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

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
	var gate gateFlags
	gate.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 validate [--json] [--format F] [--strict] [--select RULE]... [--ignore RULE]... PATH...\n\n"+
			"Checks .eval752.zip bundles and JSONL/JSON/YAML/TREC files (a folder: the files under it)\n"+
			"and prints one line per finding:\n"+
			"  path:line: severity code: message\n"+
			"--select / --ignore keep or drop findings by rule code (a code, or a prefix ending in \"*\":\n"+
			"audit.leak-*); --strict counts warnings as errors.\n"+
			"Exit status: 0 no errors, 1 errors found (or warnings with --strict), 2 cannot run.\n\n")
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
	sel, err := gate.selector()
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
	defer loadMemLimit(inputs)()
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
	findings, dropped := sel.Apply(findings)
	counts := findings.Counts()
	if *asJSON {
		if err := engine.WriteValidateJSON(stdout, ds.Inputs, findings); err != nil {
			return cantRun(stderr, "validate", err)
		}
	} else {
		writeFindings(stdout, findings)
		fmt.Fprintf(stdout, "%d error(s), %d warning(s), %d info in %d file(s)%s\n", counts.Error, counts.Warning, counts.Info, len(ds.Inputs), gate.note(sel, dropped))
		for _, pc := range findings.PerCode() {
			fmt.Fprintf(stdout, "  %-40s %-7s %d\n", pc.Code, pc.Severity, pc.Count)
		}
	}
	if counts.Failed(gate.strict) {
		return ExitErrors
	}
	return ExitOK
}

// gateFlags are the CI gate flags of validate and audit: rule selection and
// warnings-as-errors.
type gateFlags struct {
	strict   bool
	sel, ign multiFlag
}

func (g *gateFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&g.strict, "strict", false, "count warnings as errors: exit 1 when any warning is left (after --select / --ignore)")
	fs.Var(&g.sel, "select", "keep only findings of this rule code, or of codes starting with a prefix ending in '*' (repeatable, or comma-separated)")
	fs.Var(&g.ign, "ignore", "drop findings of this rule code or prefix* (repeatable, or comma-separated; wins over --select)")
}

func (g *gateFlags) selector() (finding.Selector, error) {
	return finding.NewSelector(g.sel, g.ign)
}

// note is the summary line's tail: what the gate flags changed.
func (g *gateFlags) note(sel finding.Selector, dropped int) string {
	var parts []string
	if sel.Active() {
		parts = append(parts, fmt.Sprintf("%d finding(s) left out by %s", dropped, sel.Describe()))
	}
	if g.strict {
		parts = append(parts, "strict: warnings count as errors")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
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
