package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/finding"
	"eval752/app/model"
	"eval752/app/report"
)

func init() {
	Register(Command{Name: "score", Summary: "score runs: per-stratum figures with n/denominator, 95% CIs and thresholds", Run: runScore})
	Register(Command{Name: "compare", Summary: "paired comparison of two runs (paired bootstrap, McNemar)", Run: runCompare})
}

// parseScoreArgs parses flags that may appear before, between or after
// the positional arguments ("score a.jsonl --json b.jsonl"); everything
// after "--" is positional.
func parseScoreArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// scoreFlags are the flags score and compare share.
type scoreFlags struct {
	json, md, csv bool
	itemsCSV      bool // score --items-csv: the per-item CSV
	seed          int64
	bootstrap     int
	runs          multiFlag
	split         string
	failOnTarget  bool
	limitFlags
}

func (f *scoreFlags) register(fs *flag.FlagSet, csv, runs bool) {
	fs.BoolVar(&f.json, "json", false, "print the report as JSON (with per-item details)")
	fs.BoolVar(&f.md, "md", false, "print the report as Markdown")
	if csv {
		fs.BoolVar(&f.csv, "csv", false, "print every table as long-format CSV")
		fs.BoolVar(&f.itemsCSV, "items-csv", false, "print the per-item CSV: one row per item and run (answer, verdict, flags, per-item metrics)")
	}
	fs.Int64Var(&f.seed, "seed", engine.DefaultOptions().Score.Seed, "seed of the bootstrap resampling")
	fs.IntVar(&f.bootstrap, "bootstrap", engine.DefaultOptions().Score.Bootstrap, "number of bootstrap resamples over items")
	if runs {
		fs.Var(&f.runs, "run", "score only this run (repeatable; default: every run)")
		fs.BoolVar(&f.failOnTarget, "fail-on-target", false, "exit 1 when a headline figure fails its seed target (the summary's headline tables; each failure is named on stderr)")
	}
	fs.StringVar(&f.split, "split", "", "score only the units of this split (the items' split field: dev, test, …)")
	f.limitFlags.register(fs)
}

func (f *scoreFlags) check() error {
	n := 0
	for _, b := range []bool{f.json, f.md, f.csv, f.itemsCSV} {
		if b {
			n++
		}
	}
	if n > 1 {
		return errors.New("choose one of --json, --md, --csv, --items-csv")
	}
	if err := checkBootstrap(f.bootstrap); err != nil {
		return err
	}
	_, err := f.limits()
	return err
}

// minBootstrap is the fewest resamples a percentile interval is drawn
// from: with nearest-rank 2.5th / 97.5th percentiles, fewer than 40 make the
// bounds the extreme replicates, and a single one gives an interval that
// need not contain its own estimate.
const minBootstrap = 100

func checkBootstrap(n int) error {
	if n < minBootstrap {
		return fmt.Errorf("--bootstrap must be at least %d (got %d): a 95 %% percentile interval from fewer resamples is not meaningful; the default is %d", minBootstrap, n, engine.DefaultOptions().Score.Bootstrap)
	}
	return nil
}

// mustLimits is limits() once check() has accepted the flags.
func (f *scoreFlags) mustLimits() dataset.Limits {
	l, _ := f.limits()
	return l
}

func (f *scoreFlags) write(w io.Writer, r *report.Report) error {
	switch {
	case f.json:
		return r.WriteJSON(w)
	case f.md:
		return r.WriteMarkdown(w)
	case f.csv:
		return r.WriteCSV(w)
	case f.itemsCSV:
		return report.WriteItemsCSV(w, r.Items)
	}
	return r.WriteText(w)
}

// scoreOptions are the engine options of score and compare: the reading
// limits, the bootstrap's seed and resamples, --split, and the soft memory
// limit of the streaming path (Options.SoftMemLimit).
func (f *scoreFlags) scoreOptions() engine.ScoreOptions {
	o := engine.ScoreOptions{Options: engine.DefaultOptions(), Split: f.split, Runs: slices.Clone(f.runs)}
	o.Load.Limits = f.mustLimits()
	o.Score.Seed = f.seed
	o.Score.Bootstrap = f.bootstrap
	o.SoftMemLimit = true
	return o
}

// scoreInputs opens paths and runs one engine command on them; a command
// that read the inputs warns about their error findings on stderr (figures
// rest on the records that could be read) before anything else.
func scoreInputs(cmd string, paths []string, stderr io.Writer, run func([]dataset.Input) (*engine.Scored, error)) (*engine.Scored, error) {
	inputs, closeAll, err := openInputs(paths, model.FormatUnknown)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	out, err := run(inputs)
	if out != nil {
		warnFindings(stderr, cmd, out.Findings)
	}
	if err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// warnFindings says on stderr that the figures rest on inputs with errors,
// and where the first errors are (a NaN score, a broken line: located, so
// the user need not re-run validate to find them).
func warnFindings(stderr io.Writer, cmd string, fs finding.List) {
	n := fs.Counts().Error
	if n == 0 {
		return
	}
	fmt.Fprintf(stderr, "eval752 %s: warning: the inputs have %d error finding(s); figures rest on the records that could be read (run 'eval752 validate' for details)\n", cmd, n)
	shown := 0
	for _, f := range fs {
		if f.Severity != finding.Error {
			continue
		}
		if shown == maxWarned {
			fmt.Fprintf(stderr, "  … and %d more\n", n-shown)
			break
		}
		fmt.Fprintf(stderr, "  %s\n", f.String())
		shown++
	}
}

// maxWarned is how many error findings warnFindings lists.
const maxWarned = 10

func runScore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f scoreFlags
	f.register(fs, true, true)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 score [--json|--md|--csv] [--seed N] [--bootstrap N] [--run NAME]... [--split NAME] [--fail-on-target] PATH...\n\n"+
			"Scores every run in the inputs (bundles, sets, results, predictions) and prints, per run and\n"+
			"stratum (split, modality, type, difficulty, source), each metric with n/denominator, a 95%%\n"+
			"percentile bootstrap CI and the seeds' pass/fail thresholds, plus missing items, the gold\n"+
			"resolution table and the input sha256s.\n"+
			"Exit status: 0 report printed, 1 a headline target failed (--fail-on-target), 2 cannot run.\n\n")
		fs.PrintDefaults()
	}
	paths, err := parseScoreArgs(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitCantRun
	}
	if err := f.check(); err != nil {
		return cantRun(stderr, "score", err)
	}
	if len(paths) == 0 {
		fs.Usage()
		return ExitCantRun
	}
	out, err := scoreInputs("score", paths, stderr, func(in []dataset.Input) (*engine.Scored, error) {
		return engine.Score(ctx, in, f.scoreOptions())
	})
	if err != nil {
		return cantRun(stderr, "score", err)
	}
	defer out.Release()
	if len(out.Runs) == 0 {
		fmt.Fprintf(stderr, "eval752 score: warning: no run results found in the inputs (results.jsonl, predictions.jsonl); every unit is reported without figures\n")
	}
	rep := out.Report
	if err := f.write(stdout, rep); err != nil {
		return cantRun(stderr, "score", err)
	}
	if f.failOnTarget {
		failed := engine.FailedTargets(rep)
		for _, m := range failed {
			fmt.Fprintf(stderr, "eval752 score: target failed: %s\n", m)
		}
		if len(failed) > 0 {
			fmt.Fprintf(stderr, "eval752 score: %d headline target(s) failed (--fail-on-target)\n", len(failed))
			return ExitErrors
		}
	}
	return ExitOK
}

// runCompareMany is `compare --baseline A [--run B]... PATH...`.
func runCompareMany(ctx context.Context, f *scoreFlags, baseline string, runs []string, mo engine.ManyOptions, latex bool, perms int, paths []string, stdout, stderr io.Writer) int {
	if len(paths) == 0 {
		return cantRun(stderr, "compare", errors.New("--baseline: give the input PATHs"))
	}
	if f.csv || (latex && (f.json || f.md)) {
		return cantRun(stderr, "compare", errors.New("choose one of --json, --md, --latex"))
	}
	if perms < 100 {
		return cantRun(stderr, "compare", fmt.Errorf("--permutations must be at least 100 (got %d)", perms))
	}
	out, err := scoreInputs("compare", paths, stderr, func(in []dataset.Input) (*engine.Scored, error) {
		return engine.CompareMany(ctx, in, f.scoreOptions(), baseline, runs, mo)
	})
	if err != nil {
		return cantRun(stderr, "compare", err)
	}
	defer out.Release()
	rep := out.Report
	warnNotes(stderr, "compare", rep)
	if latex {
		err = rep.WriteLaTeX(stdout, "many.table", "ablation.table")
	} else {
		err = f.write(stdout, rep)
	}
	if err != nil {
		return cantRun(stderr, "compare", err)
	}
	return ExitOK
}

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f scoreFlags
	f.register(fs, false, false)
	baseline := fs.String("baseline", "", "compare every --run (default: every other run) with this run: paired tests, Holm–Bonferroni adjusted p-values, one comparison table")
	var manyRuns, manyMetrics multiFlag
	fs.Var(&manyRuns, "run", "with --baseline: a run to compare with the baseline (repeatable; default every other run)")
	fs.Var(&manyMetrics, "metric", "with --baseline: a figure of the comparison table, e.g. ndcg@10 (repeatable; default the headline metrics)")
	budget := fs.Int("test-budget", engine.DefaultTestBudget, "with --baseline: comparisons on the test split past which the report warns (seed 002: 5); -1 never warns")
	perms := fs.Int("permutations", engine.DefaultPermutations, "with --baseline: random sign assignments of the randomization test when it is not exact")
	ablation := fs.String("ablation-metric", "", "with --baseline: the quality figure of the ablation table (default ndcg@10 when present)")
	latex := fs.Bool("latex", false, "with --baseline: print the comparison table(s) as LaTeX (booktabs) instead of the report")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 compare [--json|--md] [--seed N] [--bootstrap N] [--split NAME] RUN_A RUN_B PATH...\n"+
			"       eval752 compare --baseline A [--run B]... [--metric M]... [--test-budget N] [--json|--md|--latex] PATH...\n\n"+
			"Paired comparison of two runs on the same items: each metric's difference B − A with its\n"+
			"paired bootstrap CI, win/tie/loss, McNemar's test for binary metrics (exact when b + c < 25),\n"+
			"and the items where the runs disagree. \"~\" marks a difference that is not significant.\n"+
			"With --baseline: every run against the baseline in one table (▲/▼ significant after\n"+
			"Holm–Bonferroni), raw and adjusted p-values, and the comparisons made on the test split\n"+
			"counted against a budget (a warning on stderr past it).\n"+
			"Exit status: 0 report printed, 2 cannot run.\n\n")
		fs.PrintDefaults()
	}
	pos, err := parseScoreArgs(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitCantRun
	}
	if err := f.check(); err != nil {
		return cantRun(stderr, "compare", err)
	}
	if *baseline != "" {
		mo := engine.ManyOptions{TestBudget: *budget, Permutations: *perms, AblationMetric: *ablation}
		if len(manyMetrics) > 0 {
			mo.Metrics = slices.Clone(manyMetrics)
		}
		return runCompareMany(ctx, &f, *baseline, manyRuns, mo, *latex, *perms, pos, stdout, stderr)
	}
	if len(manyRuns) > 0 || len(manyMetrics) > 0 || *latex {
		return cantRun(stderr, "compare", errors.New("--run, --metric and --latex go with --baseline"))
	}
	if len(pos) < 3 {
		fs.Usage()
		return ExitCantRun
	}
	runA, runB, paths := pos[0], pos[1], pos[2:]
	out, err := scoreInputs("compare", paths, stderr, func(in []dataset.Input) (*engine.Scored, error) {
		return engine.Compare(ctx, in, f.scoreOptions(), runA, runB)
	})
	if err != nil {
		return cantRun(stderr, "compare", err)
	}
	defer out.Release()
	rep := out.Report
	warnNotes(stderr, "compare", rep)
	if err := f.write(stdout, rep); err != nil {
		return cantRun(stderr, "compare", err)
	}
	return ExitOK
}

// warnNotes repeats on stderr the report's notes that are warnings
// ("WARNING: …"): runs judged by different truth sets, a test budget
// exceeded.
func warnNotes(stderr io.Writer, cmd string, rep *report.Report) {
	for _, s := range rep.Sections {
		for _, n := range s.Notes {
			if m, ok := strings.CutPrefix(n, "WARNING: "); ok {
				fmt.Fprintf(stderr, "eval752 %s: warning: %s\n", cmd, m)
			}
		}
	}
}
