package engine

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"eval752/app/audit"
	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/itemscore"
	"eval752/app/report"
	"eval752/app/score"
	"eval752/app/stats"
)

// The commands of the CLI, each one engine call: Validate (`validate`),
// Score (`score`), Compare (`compare A B`), CompareMany (`compare
// --baseline`), Audit (`audit`, `audit --draft`) and Evaluate (`results`
// and the page's worker). app/cli only parses flags, calls one of them and
// prints what it returns, so the page and the command line agree by
// construction.

// ManyOptions are the options of CompareMany's table (score.ManyOptions).
type ManyOptions = score.ManyOptions

// DefaultTestBudget is seed 002's budget of comparisons on the test split
// (score.DefaultTestBudget); DefaultPermutations the randomization test's
// sign assignments when it is not exact (stats.DefaultPermutations).
const (
	DefaultTestBudget   = score.DefaultTestBudget
	DefaultPermutations = stats.DefaultPermutations
)

// AuditCategories are the question categories of a draft (audit.Categories).
var AuditCategories = audit.Categories

// ScoreOptions configure Score, Compare and CompareMany: Options (reading
// limits, the score options: seed, bootstrap), the runs to score (nil:
// every run) and the split to score (empty: every unit).
type ScoreOptions struct {
	Options
	Runs  []string
	Split string
}

// Scored is a score or comparison report with what it was made from.
type Scored struct {
	Report *report.Report
	Inputs []dataset.InputInfo
	// Findings are the inputs' validation findings (what `validate`
	// prints): figures rest on the records that could be read.
	Findings finding.List
	// Runs names the runs scored, in report order.
	Runs []string

	v *Validation
}

// Release undoes what the evaluation set for its duration (the soft memory
// limit of Options.SoftMemLimit); call it once the report is written.
func (s *Scored) Release() {
	if s != nil {
		s.v.Release()
	}
}

// scoreSet validates inputs and scores the runs of o (every run when runs
// is nil), keeping the units of o.Split. out is set (inputs, findings, runs)
// as soon as the inputs are read, also when err says the command cannot go
// on, so a caller can warn about the findings first.
func scoreSet(ctx context.Context, inputs []dataset.Input, o ScoreOptions, runs []string) (out *Scored, set *itemscore.Set, err error) {
	defer guard(inputs, &err)
	opt := o.Options
	opt.Items.Runs = slices.Clone(runs)
	v, err := check(ctx, inputs, opt, nil)
	if err != nil {
		return nil, nil, err
	}
	out = &Scored{Inputs: nonNilInputs(v.Inputs), Findings: v.Findings, v: v}
	// the records are read once, here: the run records go as the set is
	// built, the rest once it is (the reports need only the set)
	opt.Items.DropRecords = true
	set, err = v.set(opt.Items)
	v.ds = nil
	if err != nil {
		v.Release()
		return nil, nil, err
	}
	out.Runs = runNames(set)
	return out, set, nil
}

// onlySplit narrows set to split's units (set itself when split is empty).
func onlySplit(set *itemscore.Set, split string) (*itemscore.Set, error) {
	if split == "" {
		return set, nil
	}
	return set.OnlySplit(split)
}

// Score is `eval752 score`: every run of o.Runs (nil: every run) scored per
// stratum with n/denominator, bootstrap CIs and the seeds' thresholds. A run
// of o.Runs missing from the inputs, or an o.Split no unit has, is an error
// (out still holds the inputs and findings).
func Score(ctx context.Context, inputs []dataset.Input, o ScoreOptions) (*Scored, error) {
	out, set, err := scoreSet(ctx, inputs, o, o.Runs)
	if err != nil {
		return out, err
	}
	for _, want := range o.Runs {
		if !slices.Contains(out.Runs, want) {
			return out, fmt.Errorf("no run named %q in the inputs%s", want, listRuns(set))
		}
	}
	if set, err = onlySplit(set, o.Split); err != nil {
		return out, err
	}
	so := o.Score
	so.Runs = slices.Clone(o.Runs)
	out.Report = score.Score(set, so)
	out.Report.Inputs = out.Inputs
	return out, nil
}

// Compare is `eval752 compare A B`: the paired comparison of runs a (A) and
// b (B) on the same items. An unknown run is an error naming every run of
// the inputs.
func Compare(ctx context.Context, inputs []dataset.Input, o ScoreOptions, a, b string) (*Scored, error) {
	out, set, err := scoreSet(ctx, inputs, o, []string{a, b})
	if err != nil {
		return out, err
	}
	if set, err = onlySplit(set, o.Split); err != nil {
		return out, err
	}
	rep, err := score.Compare(set, a, b, o.Score)
	if err != nil {
		// set holds only the two requested runs; name every run the inputs have
		if all, allSet, lerr := scoreSet(ctx, inputs, o, nil); lerr == nil {
			all.Release()
			set = allSet
		}
		return out, fmt.Errorf("%v%s", err, listRuns(set))
	}
	rep.Inputs = out.Inputs
	out.Report = rep
	return out, nil
}

// CompareMany is `eval752 compare --baseline A [--run B]...`: every run of
// runs (nil: every other run) against baseline in one table, paired tests
// with Holm–Bonferroni adjusted p-values, the test-split comparisons counted
// against mo.TestBudget.
func CompareMany(ctx context.Context, inputs []dataset.Input, o ScoreOptions, baseline string, runs []string, mo ManyOptions) (*Scored, error) {
	var want []string
	if len(runs) > 0 {
		want = append([]string{baseline}, runs...)
	}
	out, set, err := scoreSet(ctx, inputs, o, want)
	if err != nil {
		return out, err
	}
	if set, err = onlySplit(set, o.Split); err != nil {
		return out, err
	}
	var rs []string
	if len(runs) > 0 {
		rs = slices.Clone(runs)
	}
	rep, _, err := score.CompareMany(set, baseline, rs, o.Score, mo)
	if err != nil {
		return out, fmt.Errorf("%v%s", err, listRuns(set))
	}
	rep.Inputs = out.Inputs
	out.Report = rep
	return out, nil
}

// FailedTargets names every figure of the summary's headline tables whose
// target fails ("run dense: ndcg@10 (all units) = 0.6124, target ≥ 0.65"):
// `score --fail-on-target`. Those are the figures over all units (per set
// when the inputs mix sets) with the target of the unit's seed that applies
// to the run (a rerank target for a reranking run); per-stratum breakdowns
// are not gates — a stratum of a few units fails by chance.
func FailedTargets(rep *report.Report) []string {
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

// AuditOptions configure Audit: Options (reading limits, Audit: draft
// target, refusal threshold, concentration bound), a draft of one category
// (seed 002 validate.py --draft), the split whose findings to keep, and the
// rule selection (--select / --ignore).
type AuditOptions struct {
	Options
	Draft    bool
	Category string
	Split    string
	Select   finding.Selector
}

// Audited is what `eval752 audit` prints.
type Audited struct {
	// Report is the set-design audit; nil for a draft (its findings are
	// its output).
	Report *report.Report
	// Findings are every validation finding of the inputs (seed 002's
	// validate.py checks fields, ids and duplicates too), then the audit's
	// own (or the draft's gates), after the split and rule selection.
	Findings finding.List
	// Dropped counts the findings the rule selection left out.
	Dropped int
}

// Audit is `eval752 audit`: the set-design audit of the inputs (seed 002's
// gates, refusal audit, leakage, coverage), or with o.Draft the gates of a
// draft of o.Category. With o.Split only the findings located on records of
// that split (and those on no split-bearing record) are kept; the tables
// still cover every split.
func Audit(ctx context.Context, inputs []dataset.Input, o AuditOptions) (_ *Audited, err error) {
	defer guard(inputs, &err)
	opt := o.Options
	opt.SkipAudit = o.Draft // a draft gets audit.Draft's gates, not the whole set's
	v, err := check(ctx, inputs, opt, nil)
	if err != nil {
		return nil, err
	}
	defer v.Release()
	ds := v.ds
	out := &Audited{}
	findings := v.Findings
	if o.Draft {
		findings = append(findings, audit.Draft(ds, o.Category, opt.Audit)...)
	} else {
		var af finding.List
		out.Report, af = audit.Audit(ds, opt.Audit)
		findings = append(findings, af...)
	}
	findings = findings.Normalize()
	if findings == nil {
		findings = finding.List{}
	}
	outside := 0
	if o.Split != "" {
		if findings, outside, err = onlySplitFindings(ds, findings, o.Split); err != nil {
			return nil, err
		}
	}
	findings, out.Dropped = o.Select.Apply(findings)
	if rep := out.Report; rep != nil {
		if o.Split != "" {
			rep.Config = append(rep.Config, report.KV{Key: "split", Value: fmt.Sprintf("%s (findings on records of other splits left out: %d; tables cover every split)", o.Split, outside)})
		}
		if o.Select.Active() {
			rep.Config = append(rep.Config, report.KV{Key: "rules", Value: fmt.Sprintf("%s (%d finding(s) left out)", o.Select.Describe(), out.Dropped)})
		}
	}
	out.Findings = findings
	return out, nil
}

// onlySplitFindings keeps the findings of `audit --split NAME`: those
// located on a record that carries a split (eval752 item meta.split, b-2
// annotation, v2 / seed-003 question, seed-003 document) only when that
// split is NAME, and every finding located elsewhere (a file, the corpus, a
// chunk). A cross-split leak is reported on both records' lines, so a leak
// touching NAME stays. It is an error when no record has the split.
func onlySplitFindings(ds *dataset.Dataset, fs finding.List, name string) (finding.List, int, error) {
	at := map[dataset.Where]string{}
	var splits []string
	add := func(l dataset.Loc, split string) {
		if split == "" {
			return
		}
		at[ds.Where(l)] = split
		if !slices.Contains(splits, split) {
			splits = append(splits, split)
		}
	}
	for _, r := range ds.Items {
		if s, ok := r.V.Meta["split"].(string); ok {
			add(r.Loc, s)
		}
	}
	for _, r := range ds.B2 {
		add(r.Loc, r.V.Split)
	}
	for _, r := range ds.V2 {
		add(r.Loc, r.V.Split)
	}
	for _, r := range ds.RAG {
		add(r.Loc, r.V.Split)
	}
	for _, r := range ds.Documents {
		add(r.Loc, r.V.Split)
	}
	if !slices.Contains(splits, name) {
		if len(splits) == 0 {
			return nil, 0, fmt.Errorf("--split %s: no record of the inputs carries a split", name)
		}
		return nil, 0, fmt.Errorf("--split %s: no record of that split (splits: %s)", name, strings.Join(splits, ", "))
	}
	out := finding.List{}
	for _, f := range fs {
		if s, ok := at[dataset.Where{Path: f.Path, Line: f.Line}]; ok && s != name {
			continue
		}
		out = append(out, f)
	}
	return out, len(fs) - len(out), nil
}

// WriteAuditJSON writes `audit --json`: one object {report, findings,
// counts} (audit.WriteJSON).
func WriteAuditJSON(w io.Writer, rep *report.Report, findings finding.List) error {
	return audit.WriteJSON(w, rep, findings)
}

// WriteAuditMarkdown writes `audit --md`: the report as Markdown, then the
// findings (audit.WriteMarkdown).
func WriteAuditMarkdown(w io.Writer, rep *report.Report, findings finding.List) error {
	return audit.WriteMarkdown(w, rep, findings)
}
