package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"eval752/app/engine"
	"eval752/app/finding"
)

func init() {
	Register(Command{Name: "audit", Summary: "set-design audit: seed 002 gates, refusal audit, leakage, coverage", Run: runAudit})
}

func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object {report, findings, counts}")
	asMD := fs.Bool("md", false, "print the report as Markdown, then the findings")
	asCSV := fs.Bool("csv", false, "print the report's tables as long-format CSV (findings go to stderr)")
	draft := fs.Bool("draft", false, "draft mode (seed 002 validate.py --draft): check only the questions of --category")
	category := fs.String("category", "", "category of the draft: direct, conditional, cross or refuse (implies --draft)")
	draftTarget := fs.Int("draft-target", 0, "expected number of questions in the draft (0: do not check the count)")
	def := engine.DefaultOptions().Audit
	threshold := fs.Float64("refusal-threshold", def.RefusalThreshold, "similarity (idf²-weighted n-gram coverage, 0–1) at or above which a refuse question is flagged")
	bound := fs.Float64("concentration", def.ConcentrationBound, "largest share of citations one document may supply (0–1)")
	split := fs.String("split", "", "keep only the findings located on a record of this split (questions, documents), and those located on no split-bearing record; the tables still cover every split")
	var lim limitFlags
	lim.register(fs)
	var gate gateFlags
	gate.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 audit [--json|--md|--csv] [--draft] [--category C] [--split NAME] [--strict] [--select RULE]... [--ignore RULE]... PATH...\n\n"+
			"Audits a test set's design: seed 002's gates (quotas, provenance, verbatim answers, clause reuse,\n"+
			"splits, coverage, concentration), the refusal audit (closest corpus passage of every refuse question),\n"+
			"leakage across splits and coverage tables. Findings print as  path:line: severity code: message.\n"+
			"--select / --ignore keep or drop findings by rule code (a code, or a prefix ending in \"*\":\n"+
			"audit.leak-*); --strict counts warnings as errors.\n"+
			"Exit status: 0 no errors, 1 errors found (or warnings with --strict), 2 cannot run.\n\n")
		fs.PrintDefaults()
	}
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitCantRun
	}
	if len(paths) == 0 {
		fs.Usage()
		return ExitCantRun
	}
	n := 0
	for _, b := range []bool{*asJSON, *asMD, *asCSV} {
		if b {
			n++
		}
	}
	if n > 1 {
		return cantRun(stderr, "audit", errors.New("choose one of --json, --md, --csv"))
	}
	if *category != "" {
		*draft = true
	}
	switch {
	case *draft && *category == "":
		return cantRun(stderr, "audit", fmt.Errorf("--draft needs --category, one of %s", strings.Join(engine.AuditCategories, ", ")))
	case *draft && !slices.Contains(engine.AuditCategories, *category):
		return cantRun(stderr, "audit", fmt.Errorf("unknown --category %q: want one of %s", *category, strings.Join(engine.AuditCategories, ", ")))
	case *draftTarget != 0 && !*draft:
		return cantRun(stderr, "audit", errors.New("--draft-target counts the questions of a draft: give --category too"))
	case !(*threshold >= 0 && *threshold <= 1):
		return cantRun(stderr, "audit", fmt.Errorf("--refusal-threshold must be between 0 and 1, got %v", *threshold))
	case !(*bound > 0 && *bound <= 1):
		return cantRun(stderr, "audit", fmt.Errorf("--concentration must be in (0, 1], got %v", *bound))
	}
	sel, err := gate.selector()
	if err != nil {
		return cantRun(stderr, "audit", err)
	}
	opt := def
	opt.DraftTarget = *draftTarget
	opt.RefusalThreshold = *threshold
	opt.ConcentrationBound = *bound

	limits, err := lim.limits()
	if err != nil {
		return cantRun(stderr, "audit", err)
	}
	inputs, closeAll, err := openInputs(paths, "")
	if err != nil {
		return cantRun(stderr, "audit", err)
	}
	defer closeAll()
	eo := engine.AuditOptions{Options: engine.DefaultOptions(), Draft: *draft, Category: *category, Split: *split, Select: sel}
	eo.Load.Limits = limits
	eo.Audit = opt
	out, err := engine.Audit(ctx, inputs, eo)
	if err != nil {
		return cantRun(stderr, "audit", err)
	}
	rep, findings, dropped := out.Report, out.Findings, out.Dropped
	counts := findings.Counts()

	switch {
	case *asJSON:
		if err := engine.WriteAuditJSON(stdout, rep, findings); err != nil {
			return cantRun(stderr, "audit", err)
		}
	case *asCSV && rep != nil:
		if err := rep.WriteCSV(stdout); err != nil {
			return cantRun(stderr, "audit", err)
		}
		writeFindings(stderr, findings)
		summary(stderr, counts, gate.note(sel, dropped))
	case *asCSV:
		// a draft has no report: its findings are the CSV
		if err := engine.WriteFindingsCSV(stdout, findings); err != nil {
			return cantRun(stderr, "audit", err)
		}
		summary(stderr, counts, gate.note(sel, dropped))
	case *asMD:
		if err := engine.WriteAuditMarkdown(stdout, rep, findings); err != nil {
			return cantRun(stderr, "audit", err)
		}
	default:
		if rep != nil {
			if err := rep.WriteText(stdout); err != nil {
				return cantRun(stderr, "audit", err)
			}
			fmt.Fprintln(stdout)
		}
		writeFindings(stdout, findings)
		summary(stdout, counts, gate.note(sel, dropped))
	}
	if counts.Failed(gate.strict) {
		return ExitErrors
	}
	return ExitOK
}

func summary(w io.Writer, c finding.Counts, tail string) {
	fmt.Fprintf(w, "%d error(s), %d warning(s), %d info%s\n", c.Error, c.Warning, c.Info, tail)
}
