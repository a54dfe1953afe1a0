package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/finding"
	"eval752/app/formats"
	"eval752/app/itemscore"
	"eval752/app/model"
	"eval752/app/report"
	"eval752/app/score"
	"eval752/app/stats"
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
	fs.Int64Var(&f.seed, "seed", score.DefaultOptions().Seed, "seed of the bootstrap resampling")
	fs.IntVar(&f.bootstrap, "bootstrap", score.DefaultOptions().Bootstrap, "number of bootstrap resamples over items")
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
		return fmt.Errorf("--bootstrap must be at least %d (got %d): a 95 %% percentile interval from fewer resamples is not meaningful; the default is %d", minBootstrap, n, score.DefaultOptions().Bootstrap)
	}
	return nil
}

// mustLimits is limits() once check() has accepted the flags.
func (f *scoreFlags) mustLimits() dataset.Limits {
	l, _ := f.limits()
	return l
}

func (f *scoreFlags) options() score.Options {
	o := score.DefaultOptions()
	o.Seed = f.seed
	o.Bootstrap = f.bootstrap
	o.Runs = slices.Clone(f.runs)
	return o
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

// loadSet reads the paths and scores every item of the given runs (nil =
// all). A load that produced error findings still scores what it read, with
// a one-line warning on stderr (validate shows the findings).
//
// When every path is a plain TREC file — one qrels file and one or more run
// files — the runs are streamed (itemscore.ScoreTRECFiles: per-query
// results only, never the run lines in memory), which gives the same Set,
// inputs and findings as dataset.Load + itemscore.Score; an ungrouped run
// or a repeated run name falls back to the in-memory path.
//
// The returned restore function undoes the soft memory limit the streaming
// path sets (see streamMemLimit); call it once the report is written.
func loadSet(ctx context.Context, cmd string, paths, runs []string, lim dataset.Limits, stderr io.Writer) (*itemscore.Set, []dataset.InputInfo, func(), error) {
	iopt := itemscore.DefaultOptions()
	iopt.Runs = slices.Clone(runs)
	if files, ok := trecFiles(paths); ok {
		restore := streamMemLimit(files)
		st, err := itemscore.ScoreTRECFiles(ctx, files, lim, iopt)
		switch {
		case err == nil:
			warnFindings(stderr, cmd, st.Findings)
			return st.Set, nonNilInputs(st.Inputs), restore, nil
		case !errors.Is(err, itemscore.ErrNotStreamable):
			restore()
			return nil, nil, nil, err
		}
		restore()
	}
	inputs, closeAll, err := openInputs(paths, model.FormatUnknown)
	if err != nil {
		return nil, nil, nil, err
	}
	defer closeAll()
	restore := loadMemLimit(inputs)
	// the validation rules run too, so the warning counts what `validate`
	// counts for the same files
	eo := engine.DefaultOptions()
	eo.Load.Limits = lim
	ds, findings, err := engine.Validate(ctx, inputs, eo, nil)
	if err != nil {
		restore()
		return nil, nil, nil, err
	}
	warnFindings(stderr, cmd, findings)
	set, err := itemscore.Score(ds, iopt)
	if err != nil {
		restore()
		return nil, nil, nil, err
	}
	return set, nonNilInputs(ds.Inputs), restore, nil
}

// streamMemLimit sets a soft memory limit (runtime/debug.SetMemoryLimit)
// for the streaming path, unless GOMEMLIMIT is set, and returns what undoes
// it. What the streaming path keeps grows with the qrels, not the run: about
// 18 bytes of heap per qrels byte (units, gold labels, per-query values and
// rankings, then the report). The JSON report is rendered into buffers as
// large as the output (~165 MB on the 20M-line benchmark), and with the
// default GOGC the heap doubles over that live set before a collection; a
// limit of max(512 MiB, 32 × qrels bytes) lets the collector reclaim them
// first (peak RSS 0.83 → 0.55 GB on the benchmark at the same CPU time)
// while leaving a larger live set room to grow without thrashing.
func streamMemLimit(files []itemscore.TRECFile) func() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	var qrels int64
	for _, f := range files {
		if st, err := os.Stat(f.Path); err == nil && f.Qrels {
			qrels = st.Size()
		}
	}
	prev := debug.SetMemoryLimit(max(512<<20, 32*qrels))
	return func() { debug.SetMemoryLimit(prev) }
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

// trecHead is how much of a file format detection looks at (dataset.Load's
// head size).
const trecHead = 64 << 10

// trecFiles reports whether paths are exactly one TREC qrels file and at
// least one TREC run file, detected from each file's head as dataset.Load
// detects them (no .zip, no other format).
func trecFiles(paths []string) ([]itemscore.TRECFile, bool) {
	var files []itemscore.TRECFile
	nq, nr := 0, 0
	for _, p := range paths {
		if strings.HasSuffix(strings.ToLower(p), ".zip") {
			return nil, false
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, false
		}
		head := make([]byte, trecHead)
		n, err := io.ReadFull(f, head)
		f.Close()
		complete := err != nil
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return nil, false
		}
		switch formats.Detect(p, head[:n], complete).Format {
		case model.FormatTRECQrels:
			nq++
			files = append(files, itemscore.TRECFile{Path: p, Qrels: true})
		case model.FormatTRECRun:
			nr++
			files = append(files, itemscore.TRECFile{Path: p})
		default:
			return nil, false
		}
	}
	return files, nq == 1 && nr >= 1
}

func runNames(set *itemscore.Set) []string {
	var out []string
	for _, r := range set.Runs {
		out = append(out, r.Run)
	}
	return out
}

// listRuns names the runs found, for an error message.
func listRuns(set *itemscore.Set) string {
	if len(set.Runs) == 0 {
		return " (no matching run results found)"
	}
	return " (runs: " + strings.Join(runNames(set), ", ") + ")"
}

func nonNilInputs(in []dataset.InputInfo) []dataset.InputInfo {
	if in == nil {
		return []dataset.InputInfo{}
	}
	return in
}

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
	set, inputs, restore, err := loadSet(ctx, "score", paths, f.runs, f.mustLimits(), stderr)
	if err != nil {
		return cantRun(stderr, "score", err)
	}
	defer restore()
	for _, want := range f.runs {
		if !slices.Contains(runNames(set), want) {
			return cantRun(stderr, "score", fmt.Errorf("no run named %q in the inputs%s", want, listRuns(set)))
		}
	}
	if len(set.Runs) == 0 {
		fmt.Fprintf(stderr, "eval752 score: warning: no run results found in the inputs (results.jsonl, predictions.jsonl); every unit is reported without figures\n")
	}
	if set, err = f.onlySplit(set); err != nil {
		return cantRun(stderr, "score", err)
	}
	rep := score.Score(set, f.options())
	rep.Inputs = inputs
	if err := f.write(stdout, rep); err != nil {
		return cantRun(stderr, "score", err)
	}
	if f.failOnTarget {
		failed := failedTargets(rep)
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
func runCompareMany(ctx context.Context, f *scoreFlags, baseline string, runs []string, mo score.ManyOptions, latex bool, perms int, paths []string, stdout, stderr io.Writer) int {
	if len(paths) == 0 {
		return cantRun(stderr, "compare", errors.New("--baseline: give the input PATHs"))
	}
	if f.csv || (latex && (f.json || f.md)) {
		return cantRun(stderr, "compare", errors.New("choose one of --json, --md, --latex"))
	}
	if perms < 100 {
		return cantRun(stderr, "compare", fmt.Errorf("--permutations must be at least 100 (got %d)", perms))
	}
	var want []string
	if len(runs) > 0 {
		want = append([]string{baseline}, runs...)
	}
	set, inputs, restore, err := loadSet(ctx, "compare", paths, want, f.mustLimits(), stderr)
	if err != nil {
		return cantRun(stderr, "compare", err)
	}
	defer restore()
	if set, err = f.onlySplit(set); err != nil {
		return cantRun(stderr, "compare", err)
	}
	var rs []string
	if len(runs) > 0 {
		rs = slices.Clone(runs)
	}
	rep, _, err := score.CompareMany(set, baseline, rs, f.options(), mo)
	if err != nil {
		return cantRun(stderr, "compare", fmt.Errorf("%v%s", err, listRuns(set)))
	}
	rep.Inputs = inputs
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

// onlySplit narrows set to --split's units (set itself without the flag).
func (f *scoreFlags) onlySplit(set *itemscore.Set) (*itemscore.Set, error) {
	if f.split == "" {
		return set, nil
	}
	return set.OnlySplit(f.split)
}

// failedTargets names every figure of the summary's headline tables whose
// target fails ("run dense: ndcg@10 (all units) = 0.6124, target ≥ 0.65").
// Those are the figures over all units (per set when the inputs mix sets)
// with the target of the unit's seed that applies to the run (a rerank
// target for a reranking run); per-stratum breakdowns are not gates — a
// stratum of a few units fails by chance.
func failedTargets(rep *report.Report) []string {
	var out []string
	for _, sec := range rep.Sections {
		for _, t := range sec.Tables {
			if !strings.HasPrefix(t.ID, "summary.headline") {
				continue
			}
			for _, row := range t.Rows {
				for _, c := range row {
					if c.Pass != nil && !*c.Pass {
						out = append(out, fmt.Sprintf("run %s: %s (%s) = %s, target %s", c.Run, c.Metric, c.Stratum, c.FormatValue(), c.Threshold))
					}
				}
			}
		}
	}
	return out
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
	budget := fs.Int("test-budget", score.DefaultTestBudget, "with --baseline: comparisons on the test split past which the report warns (seed 002: 5); -1 never warns")
	perms := fs.Int("permutations", stats.DefaultPermutations, "with --baseline: random sign assignments of the randomization test when it is not exact")
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
		mo := score.ManyOptions{TestBudget: *budget, Permutations: *perms, AblationMetric: *ablation}
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
	set, inputs, restore, err := loadSet(ctx, "compare", paths, []string{runA, runB}, f.mustLimits(), stderr)
	if err != nil {
		return cantRun(stderr, "compare", err)
	}
	defer restore()
	if set, err = f.onlySplit(set); err != nil {
		return cantRun(stderr, "compare", err)
	}
	rep, err := score.Compare(set, runA, runB, f.options())
	if err != nil {
		// set holds only the two requested runs; name every run the inputs have.
		if all, _, restoreAll, lerr := loadSet(ctx, "compare", paths, nil, f.mustLimits(), io.Discard); lerr == nil {
			restoreAll()
			set = all
		}
		return cantRun(stderr, "compare", fmt.Errorf("%v%s", err, listRuns(set)))
	}
	rep.Inputs = inputs
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
