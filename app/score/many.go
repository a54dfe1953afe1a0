package score

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"eval752/app/itemscore"
	"eval752/app/metrics"
	"eval752/app/report"
	"eval752/app/stats"
	"eval752/app/version"
)

// DefaultTestBudget is how many comparisons with the baseline one report may
// make on the test split before it warns: seed 002 ("五个预注册的方案、每个只比
// 一次，是这个规模能承受的上限") allows five pre-registered schemes, each
// compared once, on a 150-question test split.
const DefaultTestBudget = 5

// ManyOptions configure CompareMany.
type ManyOptions struct {
	// Metrics are the figure labels of the table ("ndcg@10",
	// "refusal.f1"); nil = the headline metrics (those with a seed target,
	// and MRR, nDCG@10, recall@10, answer.correct, …), latency left out.
	Metrics []string
	// TestBudget is the number of comparisons on the test split past which
	// the report warns, used as given (DefaultTestBudget is seed 002's 5;
	// 0 warns on any; < 0 never warns).
	TestBudget int
	// Permutations is the number of random sign assignments of the
	// randomization test when it cannot enumerate them all (default
	// stats.DefaultPermutations).
	Permutations int
	// AblationMetric is the quality figure of the ablation table (default
	// ndcg@10 when the runs have it, else the first metric of the table).
	AblationMetric string
}

// ManyResult is what a caller needs besides the report: the comparisons
// made on the test split and whether they exceed the budget.
type ManyResult struct {
	TestComparisons int
	OverBudget      bool
}

// manyTest is one run-versus-baseline test of one metric on one stratum.
type manyTest struct {
	pf       pairFig
	ok       bool // the metric applies to paired units of both runs
	p, adj   float64
	test     string
	verdict  string
	higher   bool
	baseline figure
}

// CompareMany compares every run of runs (nil = every other run of the set)
// with the baseline, paired, on the same units: per metric and headline
// stratum (all units, or each set when the inputs mix sets) the run's mean,
// the difference with its paired bootstrap CI, a p-value — McNemar's test
// for a binary metric (as in Compare), else the paired sign-flip
// randomization test of the mean difference — and the Holm–Bonferroni
// adjusted p-value. One family is the runs compared on one metric and
// stratum: m = the number of runs tested there. A difference is significant
// when its adjusted p < 1 − Level. Refusal precision / recall / F1 are
// ratios of sums, not means of per-unit values: they get the paired
// difference and its CI but no test (and are in no family).
//
// It also counts the comparisons made on the test split (a run whose paired
// units include a unit of split=test) against the budget of seed 002.
func CompareMany(set *itemscore.Set, baseline string, runs []string, opt Options, mo ManyOptions) (*report.Report, ManyResult, error) {
	opt = opt.normalized()
	if mo.Permutations <= 0 {
		mo.Permutations = stats.DefaultPermutations
	}
	var res ManyResult
	have := func(name string) bool {
		return slices.ContainsFunc(set.Runs, func(r itemscore.RunScores) bool { return r.Run == name })
	}
	if !have(baseline) {
		return nil, res, fmt.Errorf("no run named %q (the baseline)", baseline)
	}
	if runs == nil {
		for _, r := range set.Runs {
			if r.Run != baseline {
				runs = append(runs, r.Run)
			}
		}
	}
	if len(runs) == 0 {
		return nil, res, fmt.Errorf("no run to compare with the baseline %q", baseline)
	}
	for i, r := range runs {
		switch {
		case r == baseline:
			return nil, res, fmt.Errorf("run %q is the baseline: it is not compared with itself", r)
		case !have(r):
			return nil, res, fmt.Errorf("no run named %q", r)
		case slices.Contains(runs[:i], r):
			return nil, res, fmt.Errorf("run %q named twice", r)
		}
	}
	views := make([]*view, len(runs))
	rows := make([]map[string]pairRow, len(runs))
	var labels []string
	var descs []metrics.Descriptor
	for k, r := range runs {
		views[k] = pairView(set, baseline, r, opt)
		rows[k] = map[string]pairRow{}
		for _, pr := range views[k].pairRows() {
			rows[k][pr.Label] = pr
			if slices.Contains(labels, pr.Label) {
				continue
			}
			head := pr.Desc.Group != metrics.GroupCost && (pr.Desc.Threshold != nil || pr.Desc.RerankThreshold != nil || slices.Contains(headlineNames, pr.Desc.Name))
			if (mo.Metrics == nil && head) || slices.Contains(mo.Metrics, pr.Label) {
				labels = append(labels, pr.Label)
				descs = append(descs, pr.Desc)
			}
		}
	}
	if mo.Metrics != nil {
		for _, m := range mo.Metrics {
			if !slices.Contains(labels, m) {
				return nil, res, fmt.Errorf("metric %q: no compared run has it (choose among the figure labels of the compare report, e.g. ndcg@10, refusal.f1)", m)
			}
		}
		// the table follows the order asked for
		ordered := make([]metrics.Descriptor, len(mo.Metrics))
		for i, m := range mo.Metrics {
			ordered[i] = descs[slices.Index(labels, m)]
		}
		labels, descs = slices.Clone(mo.Metrics), ordered
	}
	v0 := views[0]
	head := []int{0}
	if len(v0.unitSets()) > 1 {
		head = nil
		for s, st := range v0.strata {
			if st.Key == "set" {
				head = append(head, s)
			}
		}
	}
	alpha := math.Round((1-opt.Level)*1e6) / 1e6

	// tests[h][m][k]: head stratum h, metric m, run k
	tests := make([][][]manyTest, len(head))
	for h, s := range head {
		tests[h] = make([][]manyTest, len(labels))
		for m, label := range labels {
			ts := make([]manyTest, len(runs))
			ps := make([]float64, len(runs))
			for k := range runs {
				ps[k] = math.NaN()
				pr, ok := rows[k][label]
				if !ok {
					continue
				}
				pf := pr.Fig(s)
				if pf.Diff.Denom == 0 {
					continue
				}
				t := manyTest{pf: pf, ok: true, p: math.NaN(), test: "none (ratio of sums)", higher: pr.Desc.HigherIsBetter, baseline: pf.A}
				v := views[k]
				switch mi, perItem := v.metricAt[pr.Desc.Name]; {
				case pf.McNemar != nil:
					t.p = pf.McNemar.P
					t.test = "McNemar χ²"
					if pf.McNemar.Exact {
						t.test = "McNemar exact"
					}
				case perItem:
					a, b := v.cols[0][mi], v.cols[1][mi]
					idx := v.pairedUnits(v.strata[s], a, b)
					d := make([]float64, len(idx))
					for j, i := range idx {
						d[j] = b[i] - a[i]
					}
					var exact bool
					t.p, exact = stats.RandomizationTest(d, mo.Permutations, opt.Seed)
					t.test = "randomization, exact"
					if !exact {
						t.test = fmt.Sprintf("randomization, %d draws", mo.Permutations)
					}
				}
				ps[k] = t.p
				ts[k] = t
			}
			adj := stats.Holm(ps)
			for k := range ts {
				t := &ts[k]
				if !t.ok {
					continue
				}
				t.adj = adj[k]
				switch {
				case math.IsNaN(t.adj):
					t.verdict = t.pf.verdict(descs[m], alpha) + " (CI only)"
				case t.adj < alpha && t.pf.Diff.Value != 0:
					if (t.pf.Diff.Value > 0) == t.higher {
						t.verdict = "better"
					} else {
						t.verdict = "worse"
					}
				default:
					t.verdict = "~"
				}
			}
			tests[h][m] = ts
		}
	}

	// comparisons on the test split
	for k := range runs {
		v := views[k]
		for i, u := range set.Units {
			if u.Strata["split"] == "test" && !v.item(0, i).OutOfScope && !v.item(1, i).OutOfScope {
				res.TestComparisons++
				break
			}
		}
	}
	res.OverBudget = mo.TestBudget >= 0 && res.TestComparisons > mo.TestBudget

	rep := &report.Report{
		Kind:  "compare",
		Title: fmt.Sprintf("eval752 comparison with a baseline: %d run(s) vs %s", len(runs), baseline),
		Tool:  report.Tool{Name: version.Name, Version: version.Version},
		Config: append(append(opt.config(append([]string{baseline}, runs...)),
			report.KV{Key: "baseline", Value: baseline},
			report.KV{Key: "tests", Value: "binary metric: McNemar (exact binomial when b + c < 25, else χ² with continuity correction); other per-item metric: paired sign-flip randomization test of the mean difference (exact up to " + strconv.Itoa(stats.ExactRandomizationMax) + " non-zero differences, else " + strconv.Itoa(mo.Permutations) + " draws, PCG(seed)); refusal P/R/F1: no test"},
			report.KV{Key: "multiple_comparisons", Value: "Holm–Bonferroni within each family = the runs tested on one metric and stratum; significant when the adjusted p < " + strconv.FormatFloat(alpha, 'g', -1, 64)},
			report.KV{Key: "test_budget", Value: budgetText(mo.TestBudget)},
		), set.Config...),
	}

	sum := report.Section{ID: "summary", Title: "Summary"}
	sum.Text = append(sum.Text,
		fmt.Sprintf("Baseline %s; compared: %s. Each run is paired with the baseline on the units where a metric applies to both (a missing result scores the worst value). Marks: ▲ significantly better, ▼ significantly worse than the baseline after Holm–Bonferroni adjustment (α = %g, family = the runs on one metric); no mark = not significant. Raw and adjusted p-values are in the tests table.", baseline, strings.Join(runs, ", "), alpha),
		fmt.Sprintf("Comparisons on the test split: %d (budget %s). Seed 002: five pre-registered schemes, each compared once, is what a 150-question test split can bear; past that the test split is being tuned on and becomes a dev split. eval752 counts only the comparisons of this report: earlier runs of the tool are not known to it.", res.TestComparisons, budgetText(mo.TestBudget)))
	if res.OverBudget {
		sum.Notes = append(sum.Notes, fmt.Sprintf("WARNING: %d comparisons with the baseline on the test split exceed the budget of %d (seed 002): choose the schemes on dev and compare only the pre-registered ones on test, or retire this test split.", res.TestComparisons, mo.TestBudget))
	}
	for k, r := range runs {
		if note := truthNote(*views[k].runs[0], *views[k].runs[1]); note != "" {
			sum.Notes = append(sum.Notes, r+" vs "+baseline+": "+note)
		}
		sum.Notes = append(sum.Notes, configNotes(*views[k].runs[0], *views[k].runs[1])...)
	}
	rep.Sections = append(rep.Sections, sum)

	sec := report.Section{ID: "many", Title: "Runs against the baseline"}
	for h, s := range head {
		st := v0.strata[s]
		suffix, title := "", "all units"
		if st.Key != "" {
			suffix, title = "."+st.Value, st.Label
		}
		tab := report.Table{ID: "many.table" + suffix, Title: "Comparison table — " + title + " (▲/▼: significant vs " + baseline + " after Holm)"}
		tab.Columns = []report.Column{{Key: "run", Label: "run"}}
		// the metrics that apply on this stratum (a b-2 figure has no column on seed-003 units)
		var cols []int
		for m, l := range labels {
			if slices.ContainsFunc(tests[h][m], func(t manyTest) bool { return t.ok }) {
				cols = append(cols, m)
				tab.Columns = append(tab.Columns, report.Column{Key: "metric:" + l, Label: l, Help: "mean over the units paired with the baseline; ▲/▼ significant after Holm"})
			}
		}
		// baseline row: its mean from the first comparison that has the metric
		brow := []report.Cell{{Text: baseline + " (baseline)"}}
		for _, m := range cols {
			c := report.Cell{Text: "—"}
			for k := range runs {
				if t := tests[h][m][k]; t.ok {
					c = compactCell(t.baseline, labels[m], st.Label, baseline, "")
					break
				}
			}
			brow = append(brow, c)
		}
		tab.Rows = append(tab.Rows, brow)
		for k, r := range runs {
			row := []report.Cell{{Text: r}}
			for _, m := range cols {
				t := tests[h][m][k]
				if !t.ok {
					row = append(row, report.Cell{Text: "—"})
					continue
				}
				mark := ""
				switch t.verdict {
				case "better":
					mark = "▲"
				case "worse":
					mark = "▼"
				}
				row = append(row, compactCell(t.pf.B, labels[m], st.Label, r, mark))
			}
			tab.Rows = append(tab.Rows, row)
		}
		if len(cols) > 0 {
			sec.Tables = append(sec.Tables, tab)
		}

		det := report.Table{ID: "many.tests" + suffix, Title: "Tests — " + title, Columns: []report.Column{
			{Key: "metric", Label: "metric"}, {Key: "run", Label: "run"},
			{Key: "baseline", Label: "baseline " + baseline, Help: "baseline mean over the paired units [CI]"},
			{Key: "value", Label: "run", Help: "run mean over the paired units [CI]"},
			{Key: "diff", Label: "Δ run − baseline", Help: "paired bootstrap CI; n = units answered by both / paired units"},
			{Key: "test", Label: "test"},
			{Key: "p", Label: "p", Help: "raw two-sided p-value"},
			{Key: "p_holm", Label: "p (Holm)", Help: "Holm–Bonferroni adjusted within the metric's family (the runs tested on it)"},
			{Key: "m", Label: "m", Help: "size of the family"},
			{Key: "verdict", Label: "verdict", Help: "better / worse: adjusted p < α; ~: not significant"},
		}}
		for m, l := range labels {
			fam := 0
			for k := range runs {
				if t := tests[h][m][k]; t.ok && !math.IsNaN(t.p) {
					fam++
				}
			}
			for k, r := range runs {
				t := tests[h][m][k]
				if !t.ok {
					continue
				}
				diff := t.pf.Diff.cell(nil, metrics.Descriptor{}, l, st.Label, r+" − "+baseline)
				if t.pf.Diff.Denom < smallN {
					diff.Flag = fmt.Sprintf("n<%d: interval unreliable", smallN)
				}
				pc := func(x float64) report.Cell {
					if math.IsNaN(x) {
						return report.Cell{Text: "—"}
					}
					return report.Cell{Value: report.F(x)}
				}
				mc := report.Cell{Text: "—"}
				if !math.IsNaN(t.p) {
					mc = intCell(fam)
				}
				det.Rows = append(det.Rows, []report.Cell{{Text: l}, {Text: r},
					t.baseline.cell(nil, metrics.Descriptor{}, l, st.Label, baseline), t.pf.B.cell(nil, metrics.Descriptor{}, l, st.Label, r), diff,
					{Text: t.test}, pc(t.p), pc(t.adj), mc, {Text: t.verdict}})
			}
		}
		if len(det.Rows) > 0 {
			sec.Tables = append(sec.Tables, det)
		}
	}
	if len(labels) == 0 {
		sec.Text = append(sec.Text, "No headline metric applies to units paired with the baseline.")
	}
	rep.Sections = append(rep.Sections, sec)
	abl, err := ablationSection(set, baseline, runs, labels, opt, mo)
	if err != nil {
		return nil, res, err
	}
	rep.Sections = append(rep.Sections, abl)
	return rep, res, nil
}

// ablationColumns are the cost and latency figures of the ablation table
// (seed 003 §8: 每个实验同时报告质量、p50/p95、Token、调用次数和每 1000 查询估算成本).
var ablationColumns = []string{"cost_usd per 1000 queries", "latency_ms p50", "latency_ms p95", "tokens.input (mean)", "tokens.output (mean)"}

// ablationSection is seed 003 §8's ablation view: every run (baseline
// first) in one table with the chosen quality figure and its CI over the
// run's own scope, its cost and latency figures, and how its config.yaml
// differs from the baseline's.
func ablationSection(set *itemscore.Set, baseline string, runs []string, labels []string, opt Options, mo ManyOptions) (report.Section, error) {
	sec := report.Section{ID: "ablation", Title: "Ablation table"}
	all := append([]string{baseline}, runs...)
	o := opt
	o.Strata = []string{} // all units only
	figs := make([]map[string]report.Cell, len(all))
	var present []string
	for k, r := range all {
		o.Runs = []string{r}
		v := newView(set, o)
		figs[k] = map[string]report.Cell{}
		for _, rd := range v.rowDefs() {
			f := rd.Fig(0, 0)
			if f.Denom == 0 || (f.N == 0 && math.IsNaN(f.Value)) {
				continue
			}
			figs[k][rd.Label] = f.cell(nil, v.descForRun(rd.Desc, 0, 0), rd.Desc.Name, "all", r)
			if !slices.Contains(present, rd.Label) {
				present = append(present, rd.Label)
			}
		}
	}
	metric := mo.AblationMetric
	switch {
	case metric != "" && !slices.Contains(present, metric):
		return sec, fmt.Errorf("ablation metric %q: no run has it", metric)
	case metric == "" && slices.Contains(present, "ndcg@10"):
		metric = "ndcg@10"
	case metric == "" && len(labels) > 0:
		metric = labels[0]
	}
	cols := []string{}
	if metric != "" {
		cols = append(cols, metric)
	}
	for _, c := range ablationColumns {
		if slices.Contains(present, c) {
			cols = append(cols, c)
		}
	}
	sec.Text = append(sec.Text, "Every run on its own scope (not paired: the tests above pair the runs), with the figures seed 003 §8 asks of each ablation: quality with its CI, cost per 1000 queries, latency p50 / p95 and tokens per query; the last column lists the config.yaml keys whose value differs from the baseline's (run_id left out).")
	t := report.Table{ID: "ablation.table", Title: "Runs, cost and latency, and what each changes", Columns: []report.Column{{Key: "run", Label: "run"}}}
	for _, c := range cols {
		t.Columns = append(t.Columns, report.Column{Key: "fig:" + c, Label: c})
	}
	t.Columns = append(t.Columns, report.Column{Key: "differs", Label: "differs from " + baseline, Help: "config.yaml keys whose value differs from the baseline's: key: baseline → run"})
	byName := map[string]itemscore.RunScores{}
	for _, rs := range set.Runs {
		byName[rs.Run] = rs
	}
	base := byName[baseline]
	for k, r := range all {
		name := r
		if k == 0 {
			name += " (baseline)"
		}
		row := []report.Cell{{Text: name}}
		for _, c := range cols {
			cell, ok := figs[k][c]
			if !ok {
				cell = report.Cell{Text: "—"}
			}
			row = append(row, cell)
		}
		diff := "—"
		if k > 0 {
			diff = configDiff(base, byName[r])
		}
		row = append(row, report.Cell{Text: diff})
		t.Rows = append(t.Rows, row)
	}
	sec.Tables = append(sec.Tables, t)
	return sec, nil
}

// configDiff lists the config.yaml keys whose values differ between the
// baseline a and run b ("retrieval_mode: lexical → hybrid"), sorted by key;
// a key only one of them has shows "(absent)" on the other side.
func configDiff(a, b itemscore.RunScores) string {
	switch {
	case a.Config == nil && b.Config == nil:
		return "no config.yaml for either run"
	case a.Config == nil:
		return "the baseline has no config.yaml"
	case b.Config == nil:
		return "no config.yaml"
	}
	keys := map[string]bool{}
	for k := range a.Config {
		keys[k] = true
	}
	for k := range b.Config {
		keys[k] = true
	}
	delete(keys, "run_id")
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		va, oka := a.Config[k]
		vb, okb := b.Config[k]
		if oka && okb && va == vb {
			continue
		}
		if !oka {
			va = "(absent)"
		}
		if !okb {
			vb = "(absent)"
		}
		parts = append(parts, k+": "+va+" → "+vb)
	}
	if len(parts) == 0 {
		return "same configuration"
	}
	return strings.Join(parts, "; ")
}

// compactCell is a figure of the comparison table: the mean only, with the
// significance mark as its flag.
func compactCell(f figure, metric, stratum, run, mark string) report.Cell {
	c := report.Cell{Metric: metric, Stratum: stratum, Run: run, Flag: mark, Digits: f.Digits, Int: f.Int}
	if !math.IsNaN(f.Value) {
		c.Value = report.F(f.Value)
	}
	return c
}

func budgetText(b int) string {
	if b < 0 {
		return "none"
	}
	return strconv.Itoa(b) + " (seed 002)"
}
