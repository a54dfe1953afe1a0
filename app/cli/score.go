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
	}
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
	// the validation rules run too, so the warning counts what `validate`
	// counts for the same files
	eo := engine.DefaultOptions()
	eo.Load.Limits = lim
	ds, findings, err := engine.Validate(ctx, inputs, eo, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	warnFindings(stderr, cmd, findings)
	set, err := itemscore.Score(ds, iopt)
	if err != nil {
		return nil, nil, nil, err
	}
	return set, nonNilInputs(ds.Inputs), func() {}, nil
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

func warnFindings(stderr io.Writer, cmd string, fs finding.List) {
	if n := fs.Counts().Error; n > 0 {
		fmt.Fprintf(stderr, "eval752 %s: warning: the inputs have %d error finding(s); figures rest on the records that could be read (run 'eval752 validate' for details)\n", cmd, n)
	}
}

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
		fmt.Fprintf(stderr, "usage: eval752 score [--json|--md|--csv] [--seed N] [--bootstrap N] [--run NAME]... PATH...\n\n"+
			"Scores every run in the inputs (bundles, sets, results, predictions) and prints, per run and\n"+
			"stratum (split, modality, type, difficulty, source), each metric with n/denominator, a 95%%\n"+
			"percentile bootstrap CI and the seeds' pass/fail thresholds, plus missing items, the gold\n"+
			"resolution table and the input sha256s.\n"+
			"Exit status: 0 report printed, 2 cannot run.\n\n")
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
	rep := score.Score(set, f.options())
	rep.Inputs = inputs
	if err := f.write(stdout, rep); err != nil {
		return cantRun(stderr, "score", err)
	}
	return ExitOK
}

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f scoreFlags
	f.register(fs, false, false)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 compare [--json|--md] [--seed N] [--bootstrap N] RUN_A RUN_B PATH...\n\n"+
			"Paired comparison of two runs on the same items: each metric's difference B − A with its\n"+
			"paired bootstrap CI, win/tie/loss, McNemar's test for binary metrics (exact when b + c < 25),\n"+
			"and the items where the runs disagree. \"~\" marks a difference that is not significant.\n"+
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
	if err := f.write(stdout, rep); err != nil {
		return cantRun(stderr, "compare", err)
	}
	return ExitOK
}
