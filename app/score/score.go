package score

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"eval752/app/itemscore"
	"eval752/app/metrics"
	"eval752/app/model"
	"eval752/app/report"
	"eval752/app/stats"
	"eval752/app/version"
)

// byGroup yields the metric sections of rows: each group of groupOrder
// that has rows, in that order, with its rows in their order.
func byGroup[T any](rows []T, group func(T) metrics.Group) iter.Seq2[metrics.Group, []T] {
	return func(yield func(metrics.Group, []T) bool) {
		for _, g := range groupOrder {
			var gr []T
			for _, r := range rows {
				if group(r) == g {
					gr = append(gr, r)
				}
			}
			if len(gr) > 0 && !yield(g, gr) {
				return
			}
		}
	}
}

// groupOrder is the order of metric sections; groupTitle their headings.
var groupOrder = []metrics.Group{metrics.GroupRetrieval, metrics.GroupSafety, metrics.GroupAnswer, metrics.GroupRefusal, metrics.GroupCost}

var groupTitle = map[metrics.Group]string{
	metrics.GroupRetrieval: "Retrieval",
	metrics.GroupSafety:    "Retrieval safety",
	metrics.GroupAnswer:    "Answers",
	metrics.GroupRefusal:   "Refusal (positive class: should refuse)",
	metrics.GroupCost:      "Latency, tokens and cost",
}

// headlineNames are shown in the summary even without a threshold (seed 000
// §4 asks to report MRR and nDCG@10; answer.correct is the primary answer
// figure).
var headlineNames = []string{"answer.correct", "tool.score", "mrr", "mrr@10", "ndcg@10", "recall@10", "false_recall@10", "latency_ms p95"}

// indicatorOnly are per-item metrics shown only through aggregates.
var indicatorOnly = []string{"refusal.tp", "refusal.fp", "refusal.fn"}

// rowDef is one figure row of the metric tables: a label and how to get
// its figure for run r and stratum s.
type rowDef struct {
	Label    string // "ndcg@10", "latency_ms p95", "refusal.tp (sum)"
	Desc     metrics.Descriptor
	Headline bool
	Chart    bool // a rate that belongs in a bar chart
	Fig      func(r, s int) figure
}

// Score aggregates set into the score report: a summary (runs and headline
// figures with thresholds), one section per metric group with one table per
// stratum key (rows: metric × stratum value, columns: runs), missing items,
// what each stratum can resolve, the unjudged-candidate policy, the gold
// resolution table and ambiguity list, and the per-item details for the item
// browser.
//
// Report.Inputs is left empty: the caller (CLI, engine) fills it from
// dataset.Dataset.Inputs, which the Set does not carry.
func Score(set *itemscore.Set, opt Options) *report.Report {
	opt = opt.normalized()
	v := newView(set, opt)
	rep := &report.Report{
		Kind:   "score",
		Title:  "eval752 scores",
		Tool:   report.Tool{Name: version.Name, Version: version.Version},
		Config: append(opt.config(v.runNames()), set.Config...),
	}
	rows := v.rowDefs()

	rep.Sections = append(rep.Sections, v.summarySection(rows))
	if len(set.Headlines) > 0 {
		rep.Sections = append(rep.Sections, headlineSection(set.Headlines))
	}
	for g, gr := range byGroup(rows, func(rd rowDef) metrics.Group { return rd.Desc.Group }) {
		rep.Sections = append(rep.Sections, v.groupSection(g, gr))
	}
	rep.Sections = append(rep.Sections, v.errorSection())
	if sec, ok := v.agreementSection(); ok {
		rep.Sections = append(rep.Sections, sec)
	}
	rep.Sections = append(rep.Sections, v.missingSection(), v.powerSection(), v.unjudgedSection(), resolutionSection(set, v.runNames()))
	rep.Items = v.itemDetails()
	return rep
}

// rowDefs lists every figure row in registry order: per-item metric means,
// refusal precision / recall / F1 and indicator sums, and cost figures.
func (v *view) rowDefs() []rowDef {
	means := v.means()
	var rows []rowDef
	for m, d := range v.metrics {
		if slices.Contains(indicatorOnly, d.Name) {
			continue
		}
		rows = append(rows, rowDef{
			Label: d.Name, Desc: d, Chart: true,
			Headline: d.Threshold != nil || d.RerankThreshold != nil || slices.Contains(headlineNames, d.Name),
			Fig:      func(r, s int) figure { return means[r][s][m] },
		})
	}
	if v.hasRefusal() {
		ref := make([][][3]figure, len(v.runs))
		cnt := make([][]refusalCounts, len(v.runs))
		for r := range ref {
			ref[r] = make([][3]figure, len(v.strata))
			cnt[r] = make([]refusalCounts, len(v.strata))
		}
		parallel(len(v.runs)*len(v.strata), func(j int) {
			r, s := j/len(v.strata), j%len(v.strata)
			rc, _ := v.refusal(r, v.strata[s])
			cnt[r][s] = rc
			ref[r][s] = v.refusalFigures(rc)
		})
		for k, name := range []string{"refusal.precision", "refusal.recall", "refusal.f1"} {
			d := mustDesc(name)
			rows = append(rows, rowDef{
				Label: name, Desc: d, Chart: true,
				Headline: d.Threshold != nil,
				Fig:      func(r, s int) figure { return ref[r][s][k] },
			})
		}
		for k, name := range indicatorOnly {
			d := mustDesc(name)
			rows = append(rows, rowDef{
				Label: name + " (sum)", Desc: d,
				Fig: func(r, s int) figure {
					rc := cnt[r][s]
					tp, fp, fn := rc.sums()
					return figure{Value: float64([3]int{tp, fp, fn}[k]), Lo: math.NaN(), Hi: math.NaN(), N: rc.n, Denom: len(rc.idx), Int: true, NoCI: true}
				},
			})
		}
	}
	computed := len(rows) // the rows below compute their figure when asked
	for _, field := range costFields {
		if !v.hasCost(field) {
			continue
		}
		d := mustDesc(field)
		fig := func(r, s int, stat func(x []float64, f *figure)) figure {
			x := v.costValues(r, v.strata[s], field)
			f := figure{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: len(x), Denom: v.scoped(r, v.strata[s])}
			stat(x, &f)
			return f
		}
		if field == "latency_ms" {
			for _, q := range []struct {
				label string
				p     float64
			}{{"p50", 0.50}, {"p95", 0.95}} {
				label := field + " " + q.label
				d := d
				if q.label == "p95" {
					t := metrics.LatencyP95Target
					d.Threshold = &t
				}
				rows = append(rows, rowDef{Label: label, Desc: d, Headline: slices.Contains(headlineNames, label), Fig: func(r, s int) figure {
					return fig(r, s, func(x []float64, f *figure) { f.Value = stats.Quantile(x, q.p); f.NoCI = true; f.Digits = 1 })
				}})
			}
			continue
		}
		isInt := field != "cost_usd"
		rows = append(rows,
			rowDef{Label: field + " (sum)", Desc: d, Fig: func(r, s int) figure {
				return fig(r, s, func(x []float64, f *figure) {
					if len(x) > 0 {
						f.Value = sum(x)
					}
					f.Int, f.NoCI = isInt, true
					if !isInt {
						f.sigDigits(3)
					}
				})
			}},
			rowDef{Label: field + " (mean)", Desc: d, Fig: func(r, s int) figure {
				return fig(r, s, func(x []float64, f *figure) {
					f.Value = stats.Mean(x)
					f.Lo, f.Hi = v.meanCI(x)
					if !isInt {
						f.sigDigits(3)
					}
				})
			}},
		)
		if field == "cost_usd" {
			rows = append(rows, rowDef{Label: "cost_usd per 1000 queries", Desc: mustDesc("cost_usd per 1000 queries"), Fig: func(r, s int) figure {
				return fig(r, s, func(x []float64, f *figure) {
					f.Value = 1000 * stats.Mean(x)
					lo, hi := v.meanCI(x)
					f.Lo, f.Hi = 1000*lo, 1000*hi
					f.sigDigits(3)
				})
			}})
		}
	}
	rows = append(rows, v.stageRows()...)
	// every table and the summary ask for a row's figures again: compute
	// each once
	for k := computed; k < len(rows); k++ {
		rows[k].Fig = v.once(rows[k].Fig)
	}
	return rows
}

// once returns fig remembering each (run, stratum) figure it computed. The
// result is not safe for concurrent use.
func (v *view) once(fig func(r, s int) figure) func(r, s int) figure {
	ns := len(v.strata)
	figs := make([]figure, len(v.runs)*ns)
	done := make([]bool, len(figs))
	return func(r, s int) figure {
		j := r*ns + s
		if !done[j] {
			figs[j], done[j] = fig(r, s), true
		}
		return figs[j]
	}
}

// meanCI is stats.BootstrapCI of x with the view's options (and memo).
func (v *view) meanCI(x []float64) (lo, hi float64) {
	ci := v.ci.MeanCIs([][]float64{x}, v.opt.Bootstrap, v.opt.Level, v.opt.Seed)
	return ci[0].Low, ci[0].High
}

// stageOrder is seed 003 §6.2's order of the pipeline stages; other stage
// names follow, sorted.
var stageOrder = []string{"embedding", "retrieve", "rerank", "generate"}

// usageOrder is seed 003 §6.2's order of the usage entries, then
// results.jsonl's; others follow, sorted.
var usageOrder = []string{"embedding_tokens", "rerank_tokens", "llm_input_tokens", "llm_output_tokens", "input_tokens", "output_tokens"}

// usageStage is the stage a token kind is spent in (for call counts).
func usageStage(kind string) string {
	switch {
	case kind == "embedding_tokens":
		return "embedding"
	case kind == "rerank_tokens":
		return "rerank"
	case strings.HasPrefix(kind, "llm_") || kind == "input_tokens" || kind == "output_tokens":
		return "generate"
	}
	return ""
}

// orderedKeys lists the keys any item of the shown runs has in the map got
// returns, first in the order of first, then the others sorted.
func (v *view) orderedKeys(first []string, got func(it *itemscore.ItemScore) report.Values, skip func(string) bool) []string {
	have := map[string]bool{}
	for r := range v.runs {
		for i := range v.set.Units {
			it := v.item(r, i)
			for k := range got(it).Names() {
				if !skip(k) {
					have[k] = true
				}
			}
		}
	}
	var out []string
	for _, k := range first {
		if have[k] {
			out = append(out, k)
			delete(have, k)
		}
	}
	rest := make([]string, 0, len(have))
	for k := range have {
		rest = append(rest, k)
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// itemCalls is the number of calls of stage on one item: usage's
// <stage>_calls, else 1 when the item has the stage's latency or tokens,
// else none (false).
func itemCalls(it *itemscore.ItemScore, stage string) (float64, bool) {
	if n, ok := it.Usage.Get(stage + "_calls"); ok {
		return n, true
	}
	if it.Stages.Has(stage) {
		return 1, true
	}
	for k := range it.Usage.Names() {
		if usageStage(k) == stage {
			return 1, true
		}
	}
	return 0, false
}

// stagePool holds stageRows' value buffers.
var stagePool = sync.Pool{New: func() any { return new([]float64) }}

// sortedQuantile is stats.Quantile(x, p) sorting x in place (x is a
// scratch buffer) instead of a copy: NaN when x is empty.
func sortedQuantile(x []float64, p float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	slices.Sort(x)
	return stats.OrderStat(x, p)
}

// stageRows are seed 003 §8's cost view: per-stage latency p50 / p95,
// tokens by kind (sum and per 1000 queries), and call counts per stage.
func (v *view) stageRows() []rowDef {
	var rows []rowDef
	// the values of one figure go into a buffer of stagePool (stat
	// reads them, sorts them at most, keeps none): one buffer per worker
	// instead of a grown slice per row, run and stratum
	fig := func(r, s int, get func(it *itemscore.ItemScore) (float64, bool), stat func(x []float64, f *figure)) figure {
		buf := stagePool.Get().(*[]float64)
		x := (*buf)[:0]
		for _, i := range v.strata[s].Idx {
			if y, ok := get(v.item(r, i)); ok {
				x = append(x, y)
			}
		}
		f := figure{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: len(x), Denom: v.scoped(r, v.strata[s])}
		stat(x, &f)
		*buf = x[:0]
		stagePool.Put(buf)
		return f
	}
	isCalls := func(k string) bool { return strings.HasSuffix(k, "_calls") }
	stages := v.orderedKeys(stageOrder, func(it *itemscore.ItemScore) report.Values { return it.Stages }, func(string) bool { return false })
	for _, st := range stages {
		d := mustDesc("latency_ms.<stage>")
		d.Name = "latency_ms." + st
		get := func(it *itemscore.ItemScore) (float64, bool) { return it.Stages.Get(st) }
		for _, q := range []struct {
			label string
			p     float64
		}{{"p50", 0.50}, {"p95", 0.95}} {
			rows = append(rows, rowDef{Label: d.Name + " " + q.label, Desc: d, Fig: func(r, s int) figure {
				return fig(r, s, get, func(x []float64, f *figure) { f.Value = sortedQuantile(x, q.p); f.NoCI = true; f.Digits = 1 })
			}})
		}
	}
	kinds := v.orderedKeys(usageOrder, func(it *itemscore.ItemScore) report.Values { return it.Usage }, isCalls)
	for _, k := range kinds {
		d := mustDesc("usage.<kind>")
		d.Name = "usage." + k
		get := func(it *itemscore.ItemScore) (float64, bool) { return it.Usage.Get(k) }
		rows = append(rows,
			rowDef{Label: d.Name + " (sum)", Desc: d, Fig: func(r, s int) figure {
				return fig(r, s, get, func(x []float64, f *figure) {
					if len(x) > 0 {
						f.Value = sum(x)
					}
					f.NoCI = true
					// counts sum to an integer; a fractional entry
					// (usage.cost_usd) prints like cost_usd (sum)
					if slices.ContainsFunc(x, func(v float64) bool { return v != math.Trunc(v) }) {
						f.sigDigits(3)
					} else {
						f.Int = true
					}
				})
			}},
			rowDef{Label: d.Name + " per 1000 queries", Desc: d, Fig: func(r, s int) figure {
				return fig(r, s, get, func(x []float64, f *figure) {
					f.Value = 1000 * stats.Mean(x)
					f.NoCI = true
					f.sigDigits(3)
				})
			}})
	}
	// calls: every stage with a latency or tokens, and every <stage>_calls
	var callStages []string
	for _, st := range stages {
		callStages = append(callStages, st)
	}
	for _, k := range kinds {
		if st := usageStage(k); st != "" && !slices.Contains(callStages, st) {
			callStages = append(callStages, st)
		}
	}
	for _, k := range v.orderedKeys(nil, func(it *itemscore.ItemScore) report.Values { return it.Usage }, func(k string) bool { return !isCalls(k) }) {
		if st := strings.TrimSuffix(k, "_calls"); !slices.Contains(callStages, st) {
			callStages = append(callStages, st)
		}
	}
	for _, st := range callStages {
		d := mustDesc("calls.<stage>")
		d.Name = "calls." + st
		get := func(it *itemscore.ItemScore) (float64, bool) { return itemCalls(it, st) }
		rows = append(rows,
			rowDef{Label: d.Name + " (sum)", Desc: d, Fig: func(r, s int) figure {
				return fig(r, s, get, func(x []float64, f *figure) {
					if len(x) > 0 {
						f.Value = sum(x)
					}
					f.Int, f.NoCI = true, true
				})
			}},
			rowDef{Label: d.Name + " per 1000 queries", Desc: d, Fig: func(r, s int) figure {
				return fig(r, s, get, func(x []float64, f *figure) {
					f.Value = 1000 * stats.Mean(x)
					f.NoCI = true
					f.sigDigits(3)
				})
			}})
	}
	return rows
}

func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

// mustDesc returns the registry descriptor of an aggregate-only figure; a
// name missing from the registry still gets a bare descriptor so that a
// registry change cannot crash a report.
func mustDesc(name string) metrics.Descriptor {
	if d, err := metrics.Parse(name); err == nil {
		return d
	}
	g := metrics.GroupCost
	if strings.HasPrefix(name, "refusal.") {
		g = metrics.GroupRefusal
	}
	return metrics.Descriptor{Name: name, Family: name, Group: g}
}

func (v *view) runColumns() []report.Column {
	cols := make([]report.Column, len(v.runs))
	for r, rs := range v.runs {
		cols[r] = report.Column{Key: "run:" + rs.Run, Label: rs.Run, Help: "run " + rs.Run + ": value [95% CI] n=answered/denominator threshold pass/FAIL [flags]"}
	}
	return cols
}

func (v *view) summarySection(rows []rowDef) report.Section {
	sec := report.Section{ID: "summary", Title: "Summary"}
	var runs []string
	for _, rs := range v.runs {
		runs = append(runs, rs.Run)
	}
	runList := strings.Join(runs, ", ")
	if runList == "" {
		runList = "none (the inputs have no results, predictions or TREC run)"
	}
	sec.Text = append(sec.Text, fmt.Sprintf("%d annotated units, %d run(s): %s. Each figure: mean [%g%% percentile bootstrap CI, %d resamples over items, seed %d] n=units with a result / denominator = units of the stratum where the metric applies (a missing result scores the worst value), then the target with pass/FAIL and any flag.",
		len(v.set.Units), len(v.runs), runList, v.opt.Level*100, v.opt.Bootstrap, v.opt.Seed),
		"A run is scored on the sets it has at least one result for (its scope); within its scope every annotated unit counts. Targets: seed 000 §4 on b-2 figures, seed 003 §7 on seed-003 figures, every seed's target elsewhere; \"report\" = no target, the seeds only ask to report the figure.")
	for _, want := range v.opt.Runs {
		if !slices.ContainsFunc(v.runs, func(rs *itemscore.RunScores) bool { return rs.Run == want }) {
			sec.Notes = append(sec.Notes, fmt.Sprintf("run %q was requested but is not in the inputs", want))
		}
	}

	overview := report.Table{ID: "summary.runs", Title: "Runs", Columns: []report.Column{
		{Key: "run", Label: "run"},
		{Key: "sets", Label: "sets scored", Help: "the run's scope: the sets it has at least one result for; units of other sets are not scored for this run"},
		{Key: "units", Label: "units", Help: "annotated units of the run's scope (the denominator of every \"all\" figure before applicability)"},
		{Key: "results", Label: "with result"},
		{Key: "missing", Label: "missing", Help: "units of the scope without a result: they count in every denominator and score the worst value"},
		{Key: "unknown", Label: "unknown ids", Help: "result ids that match no unit (not scored)"},
		{Key: "unjudged_items", Label: "items w/ unjudged", Help: "items with unjudged candidates within the scoring depth (seed 003 and TREC only: b-2 and v2 gold is the complete judgment)"},
		{Key: "unjudged", Label: "unjudged cands", Help: "unjudged candidates within the scoring depth"},
		{Key: "ambiguous", Label: "ambiguous-gold items"},
	}}
	sets := v.unitSets()
	for r, rs := range v.runs {
		var units, res, miss, uitems, ucands, amb int
		for i := range v.set.Units {
			it := v.item(r, i)
			if it.OutOfScope {
				continue
			}
			units++
			if it.Missing {
				miss++
			} else {
				res++
			}
			if it.Unjudged > 0 {
				uitems++
				ucands += it.Unjudged
			}
			if slices.Contains(it.Flags, "ambiguous-gold") {
				amb++
			}
		}
		scope := strings.Join(rs.Sets, ",")
		switch {
		case rs.Sets == nil:
			scope = "all" // a Set built without scopes: every unit counts
		case scope == "":
			scope = "none"
		}
		overview.Rows = append(overview.Rows, []report.Cell{
			{Text: rs.Run}, {Text: scope}, intCell(units), intCell(res), intCell(miss), intCell(len(rs.Unknown)),
			intCell(uitems), intCell(ucands), intCell(amb),
		})
		for _, set := range sets {
			if !v.inScope(r, set.name) {
				sec.Notes = append(sec.Notes, fmt.Sprintf("run %s has no results for set %s (%s): not scored", rs.Run, set.name, plural(set.units, "unit")))
			}
		}
		for _, n := range v.set.Notes {
			if n.Run == rs.Run {
				sec.Notes = append(sec.Notes, n.Text)
			}
		}
	}
	sec.Tables = append(sec.Tables, overview)

	// Headline figures: per set when the inputs hold several sets (a b-2
	// recall@10 and a seed-003 recall@10 are different measurements), else
	// over all units.
	headStrata := []int{0}
	if len(sets) > 1 {
		headStrata = nil
		for s, st := range v.strata {
			if st.Key == "set" {
				headStrata = append(headStrata, s)
			}
		}
		if len(headStrata) == 0 {
			headStrata = []int{0}
		}
	}
	for _, s := range headStrata {
		st := v.strata[s]
		id, title := "summary.headline", "Headline figures (all units)"
		if st.Key != "" {
			id, title = "summary.headline."+st.Value, "Headline figures — "+st.Label+" ("+plural(len(st.Idx), "unit")+")"
		}
		head := report.Table{ID: id, Title: title, Chart: true,
			Columns: append([]report.Column{{Key: "metric", Label: "metric"}, {Key: "threshold", Label: "target", Help: "seed 000 §4 / seed 003 §7 threshold"}}, v.runColumns()...)}
		for _, rd := range rows {
			if !rd.Headline || !v.anyFigure(rd, s) || (!v.hasTarget(rd.Desc, s) && !slices.Contains(headlineNames, rd.Label)) {
				continue // a target of another set's seed does not make a row a headline here
			}
			row := []report.Cell{{Text: rd.Label}, {Text: v.targetText(rd.Desc, s)}}
			for r, rs := range v.runs {
				row = append(row, rd.Fig(r, s).cell(v.box, v.descForRun(rd.Desc, s, r), rd.Desc.Name, st.Label, rs.Run))
			}
			head.Rows = append(head.Rows, row)
		}
		if len(head.Rows) > 0 {
			sec.Tables = append(sec.Tables, head)
		}
	}
	return sec
}

// setCount is one set (Unit.Set) of the inputs and its number of units.
type setCount struct {
	name  string
	units int
}

// unitSets lists the sets of the units in unit order, with their sizes.
func (v *view) unitSets() []setCount {
	var out []setCount
	for _, u := range v.set.Units {
		k := slices.IndexFunc(out, func(c setCount) bool { return c.name == u.Set })
		if k < 0 {
			out = append(out, setCount{name: u.Set})
			k = len(out) - 1
		}
		out[k].units++
	}
	return out
}

// anyFigure reports whether some run has a figure for row rd on stratum s
// (the metric applies to at least one unit of the stratum in some run's
// scope): rows without one are left out instead of printing n/a n=0/0.
func (v *view) anyFigure(rd rowDef, s int) bool {
	for r := range v.runs {
		f := rd.Fig(r, s)
		if f.Denom > 0 && (f.N > 0 || !math.IsNaN(f.Value)) {
			return true
		}
	}
	return false
}

func thresholdOf(d metrics.Descriptor) string {
	if d.Threshold == nil {
		return "report"
	}
	return thresholdText(*d.Threshold)
}

func intCell(n int) report.Cell { return report.Cell{Value: report.F(float64(n)), Int: true} }

// intCell is intCell with the value in v's blocks.
func (v *view) intCell(n int) report.Cell { return report.Cell{Value: v.box.F(float64(n)), Int: true} }

// groupSection builds one table per stratum key ("all" first), see
// figureTable, and a Definitions table.
func (v *view) groupSection(g metrics.Group, rows []rowDef) report.Section {
	sec := report.Section{ID: string(g), Title: groupTitle[g]}
	if g == metrics.GroupRefusal {
		sec.Text = append(sec.Text, "Precision = Σtp/(Σtp+Σfp), recall = Σtp/(Σtp+Σfn), F1 = 2PR/(P+R) over the stratum's units, should_refuse = positive class (seed 003 §7); intervals resample units. A missing result counts as not refusing.")
	}
	if g == metrics.GroupCost {
		sec.Text = append(sec.Text, "Latency percentiles are nearest-rank (an observed latency) without an interval; n = units whose result carries the field.")
	}
	// Rates go in charted tables; counts (refusal tp/fp/fn sums) and cost
	// figures, whose scales differ, in plain ones.
	var charted, plain []rowDef
	for _, rd := range rows {
		if rd.Chart {
			charted = append(charted, rd)
		} else {
			plain = append(plain, rd)
		}
	}
	keys := append([]string{""}, strataKeys(v.strata)...)
	for _, key := range keys {
		if len(charted) > 0 {
			if t := v.figureTable(string(g)+"."+keyID(key), groupTitle[g]+" — "+keyTitle(key), key, charted, true); len(t.Rows) > 0 {
				sec.Tables = append(sec.Tables, t)
			}
		}
		if len(plain) > 0 {
			id, title := string(g)+"."+keyID(key), groupTitle[g]+" — "+keyTitle(key)
			if len(charted) > 0 {
				id, title = string(g)+".counts."+keyID(key), groupTitle[g]+" counts — "+keyTitle(key)
			}
			if t := v.figureTable(id, title, key, plain, false); len(t.Rows) > 0 {
				sec.Tables = append(sec.Tables, t)
			}
		}
	}
	// Definitions: the help, formula and source of every metric shown.
	def := report.Table{ID: string(g) + ".definitions", Title: "Definitions", Columns: []report.Column{
		{Key: "metric", Label: "metric"}, {Key: "target", Label: "target"}, {Key: "help", Label: "meaning"}, {Key: "formula", Label: "formula"}, {Key: "source", Label: "source"},
	}}
	seen := map[string]bool{}
	for _, rd := range rows {
		if seen[rd.Desc.Name] {
			continue
		}
		seen[rd.Desc.Name] = true
		// the target that applies to these units (stratum 0 = all): a
		// seed-003 target is not listed for a b-2-only set
		def.Rows = append(def.Rows, []report.Cell{{Text: rd.Desc.Name}, {Text: v.targetText(rd.Desc, 0)}, {Text: rd.Desc.Help}, {Text: rd.Desc.Formula}, {Text: rd.Desc.Source}})
	}
	sec.Tables = append(sec.Tables, def)
	return sec
}

// keyID and keyTitle name the table of a stratum key ("" = all units).
func keyID(key string) string {
	if key == "" {
		return "all"
	}
	return key
}

func keyTitle(key string) string {
	if key == "" {
		return "all units"
	}
	return "by " + key
}

// figureTable is one table of figures: rows are metric × stratum value of
// key (metric-major, so a metric's strata sit together), columns the runs.
func (v *view) figureTable(id, title, key string, rows []rowDef, chart bool) report.Table {
	t := report.Table{ID: id, Title: title, Chart: chart}
	t.Columns = []report.Column{{Key: "metric", Label: "metric", Help: "see Definitions below for each metric's meaning, formula and source"}}
	if key != "" {
		t.Columns = append(t.Columns, report.Column{Key: "stratum", Label: key})
	}
	t.Columns = append(t.Columns, v.runColumns()...)
	for _, rd := range rows {
		for s, st := range v.strata {
			if st.Key != key {
				continue
			}
			if !v.anyFigure(rd, s) {
				continue
			}
			row := make([]report.Cell, 0, len(t.Columns))
			row = append(row, report.Cell{Text: rd.Label})
			if key != "" {
				row = append(row, report.Cell{Text: st.Value})
			}
			for r, rs := range v.runs {
				row = append(row, rd.Fig(r, s).cell(v.box, v.descForRun(rd.Desc, s, r), rd.Desc.Name, st.Label, rs.Run))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func (v *view) missingSection() report.Section {
	sec := report.Section{ID: "missing", Title: "Missing results"}
	t := report.Table{ID: "missing.items", Title: "Units of the run's scope without a result (scored as the worst value, counted in every denominator)", Columns: []report.Column{
		{Key: "run", Label: "run"}, {Key: "item", Label: "item"}, {Key: "location", Label: "location"},
	}}
	for r, rs := range v.runs {
		for i, u := range v.set.Units {
			if v.item(r, i).Missing {
				t.Rows = append(t.Rows, []report.Cell{{Text: rs.Run}, {Text: u.ID}, {Text: loc(u)}})
			}
		}
		if len(rs.Unknown) > 0 {
			sec.Notes = append(sec.Notes, fmt.Sprintf("run %s: result ids matching no annotated unit (%d, not scored): %s", rs.Run, len(rs.Unknown), strings.Join(rs.Unknown, ", ")))
		}
	}
	if len(t.Rows) == 0 {
		sec.Text = append(sec.Text, "Every run has a result for every unit of its scope.")
	} else {
		sec.Tables = append(sec.Tables, t)
	}
	return sec
}

func loc(u itemscore.Unit) string {
	if u.Loc.Line > 0 {
		return u.Loc.Path + ":" + strconv.Itoa(u.Loc.Line)
	}
	return u.Loc.Path
}

// powerSection is the resolution table of seed 002: for each stratum, the
// half-width of a 95 % interval of a proportion measured on its units —
// the smallest difference between two independent figures it can show.
// Paired comparisons (compare) do better, which is why they are used.
func (v *view) powerSection() report.Section {
	sec := report.Section{ID: "power", Title: "What each stratum can resolve"}
	sec.Text = append(sec.Text, fmt.Sprintf("Half-width of a %g%% interval of a proportion on n independent units, z·√(p(1−p)/n): differences smaller than this between two strata or two unpaired figures are noise. Seed 002: n≈150, p≈0.8 gives ±0.064. Two runs on the same units are compared paired (see compare), which resolves much smaller differences.", v.opt.Level*100))
	t := report.Table{ID: "power.halfwidth", Title: "Resolution by stratum", Columns: []report.Column{
		{Key: "stratum", Label: "stratum"}, {Key: "units", Label: "units"},
		{Key: "p50", Label: "± at p=0.5", Help: "worst case"}, {Key: "p80", Label: "± at p=0.8", Help: "seed 002's example"},
	}}
	for _, s := range v.strata {
		row := []report.Cell{{Text: s.Label}, intCell(len(s.Idx))}
		for _, p := range []float64{0.5, 0.8} {
			h := stats.ProportionHalfWidth(p, len(s.Idx), v.opt.Level)
			c := report.Cell{Digits: 3}
			if !math.IsNaN(h) {
				c.Value = report.F(h)
			} else {
				c.Text = "n/a"
			}
			row = append(row, c)
		}
		t.Rows = append(t.Rows, row)
	}
	sec.Tables = append(sec.Tables, t)
	return sec
}

func (v *view) unjudgedSection() report.Section {
	sec := report.Section{ID: "unjudged", Title: "Unjudged candidates"}
	sec.Text = append(sec.Text,
		"Policy (seed 003 §4.2, §7): a retrieved candidate without a judgment is never silently counted as irrelevant. The figures are still computed with unjudged candidates treated as non-relevant — the only choice that does not invent relevance — and every figure whose depth holds unjudged candidates is flagged \"unjudged: k items\"; judged@k shows how much of the top k was judged. Judge the flagged candidates (extend the pool) before trusting those figures.",
		"Only pooled, graded judgments have unjudged candidates: seed-003 sets (a chunk no anchored judgment reaches) and TREC qrels (a docno absent from the qrels or graded < 0). b-2 and v2 gold is the complete binary judgment (every other atom / clause is non-relevant), so their figures are never flagged; a retrieved id their tables do not know is non-relevant and flags the item \"unknown-id\".")
	t := report.Table{ID: "unjudged.runs", Title: "Unjudged candidates within the scoring depth", Columns: []report.Column{
		{Key: "run", Label: "run"}, {Key: "items", Label: "items with unjudged"}, {Key: "candidates", Label: "unjudged candidates"},
	}}
	any := false
	for r, rs := range v.runs {
		items, cands := 0, 0
		for i := range v.set.Units {
			if u := v.item(r, i).Unjudged; u > 0 {
				items++
				cands += u
			}
		}
		any = any || items > 0
		t.Rows = append(t.Rows, []report.Cell{{Text: rs.Run}, intCell(items), intCell(cands)})
	}
	if !any {
		sec.Notes = append(sec.Notes, "No run retrieved an unjudged candidate within the scoring depth.")
	}
	sec.Tables = append(sec.Tables, t)
	return sec
}

// resolutionSection shows which atoms each gold entry became in each run's
// corpus (SPEC §4) and lists the ambiguous mappings for review.
func resolutionSection(set *itemscore.Set, runs []string) report.Section {
	sec := report.Section{ID: "resolution", Title: "Gold resolution"}
	cols := []report.Column{{Key: "run", Label: "run"}, {Key: "item", Label: "item"}, {Key: "gold", Label: "gold"}, {Key: "atoms", Label: "atoms"}, {Key: "problem", Label: "problem"}}
	mk := func(rows []itemscore.Resolved) [][]report.Cell {
		var out [][]report.Cell
		for _, r := range rows {
			if len(runs) > 0 && r.Run != "" && !slices.Contains(runs, r.Run) {
				continue
			}
			out = append(out, []report.Cell{{Text: r.Run}, {Text: r.ItemID}, {Text: r.Gold}, {Text: strings.Join(r.Atoms, ", ")}, {Text: r.Problem}})
		}
		return out
	}
	amb := report.Table{ID: "resolution.ambiguities", Title: "Ambiguous mappings (review these)", Columns: cols, Rows: mk(set.Ambiguities)}
	all := report.Table{ID: "resolution.table", Title: "Resolution table", Columns: cols, Rows: mk(set.Resolution)}
	if len(amb.Rows) == 0 {
		sec.Notes = append(sec.Notes, "No ambiguous gold mapping.")
	} else {
		sec.Tables = append(sec.Tables, amb)
	}
	if len(all.Rows) == 0 {
		sec.Text = append(sec.Text, "No gold region needed resolving.")
	} else {
		sec.Tables = append(sec.Tables, all)
	}
	return sec
}

// UnitDetails is the item browser's records of a set no run answered (an
// annotation-only set): every unit with its gold, reference and strata.
func UnitDetails(set *itemscore.Set) []report.ItemDetail {
	out := make([]report.ItemDetail, len(set.Units))
	for i, u := range set.Units {
		out[i] = report.ItemDetail{ID: u.ID, Path: u.Loc.Path, Line: u.Loc.Line, Off: u.Off, Format: string(u.Format), Question: u.Question,
			Reference: u.Reference, Strata: u.Strata, Gold: u.Gold, Choices: u.Choices}
	}
	return out
}

// itemDetails builds the item browser's records: every unit with each
// selected run's detail (per-item scores filled from Values when the detail
// has none).
func (v *view) itemDetails() []report.ItemDetail {
	out := make([]report.ItemDetail, len(v.set.Units))
	for i, u := range v.set.Units {
		d := report.ItemDetail{ID: u.ID, Path: u.Loc.Path, Line: u.Loc.Line, Off: u.Off, Format: string(u.Format), Question: u.Question,
			Reference: u.Reference, Strata: u.Strata, Gold: u.Gold, Choices: u.Choices}
		for r, rs := range v.runs {
			it := v.item(r, i)
			if it.OutOfScope {
				continue // the run has no result for this unit's set: not scored
			}
			d.Runs = append(d.Runs, it.RunItem(rs.Run))
		}
		out[i] = d
	}
	return out
}

// errorSection counts, per run and seed 003 §9 code, the items of the
// run's scope with that code — attributed by eval752 (docs/metrics.md) or
// given by the run's errors.jsonl.
func (v *view) errorSection() report.Section {
	sec := report.Section{ID: "errors", Title: "Error attribution (seed 003 §9)"}
	sec.Text = append(sec.Text, "Items of each run's scope per error code: derived = attributed by eval752 from what is loaded (the rules are in docs/metrics.md), reviewed = given by the run's errors.jsonl (codes that need a reviewer: GEN_*, OCR_*, …). An item counts once per code whatever the source; a missing result gets no code. The item browser and errors.jsonl of the results bundle list the items.")
	t := report.Table{ID: "errors.counts", Title: "Items per error code", Columns: []report.Column{
		{Key: "code", Label: "code"}, {Key: "meaning", Label: "meaning"}, {Key: "source", Label: "source", Help: "derived: attributed by eval752; reviewed: read from errors.jsonl only"},
	}}
	for _, rs := range v.runs {
		t.Columns = append(t.Columns, report.Column{Key: "run:" + rs.Run, Label: rs.Run, Help: "items of the run's scope with the code (derived or reviewed, each item once)"})
	}
	any := false
	for _, c := range model.ErrorTaxonomy {
		src := "reviewed"
		if c.Derived {
			src = "derived, reviewed"
		}
		row := []report.Cell{{Text: c.Code}, {Text: c.Meaning}, {Text: src}}
		hit := false
		for r := range v.runs {
			n := 0
			for i := range v.set.Units {
				it := v.item(r, i)
				if it.OutOfScope {
					continue
				}
				if slices.Contains(it.Errors, c.Code) || slices.Contains(it.Reviewed, c.Code) {
					n++
				}
			}
			hit = hit || n > 0
			row = append(row, report.Cell{Value: report.F(float64(n)), Int: true, Metric: "errors." + c.Code, Run: v.runs[r].Run, Stratum: "all"})
		}
		if hit {
			any = true
			t.Rows = append(t.Rows, row)
		}
	}
	if !any {
		sec.Notes = append(sec.Notes, "No item of any run has an error code.")
		return sec
	}
	sec.Tables = append(sec.Tables, t)
	return sec
}

// agreementSection shows seed 003 §7.6's two-reviewer agreement on the
// answer grades of each shown run (raw and Cohen's κ, on the 0–3 grade and
// on pass / fail).
func (v *view) agreementSection() (report.Section, bool) {
	sec := report.Section{ID: "agreement", Title: "Reviewer agreement (seed 003 §7.6)"}
	t := report.Table{ID: "agreement.runs", Title: "Two reviewers' answer grades", Columns: []report.Column{
		{Key: "run", Label: "run"}, {Key: "a", Label: "reviewer A"}, {Key: "b", Label: "reviewer B"},
		{Key: "items", Label: "items", Help: "questions both graded independently"},
		{Key: "raw", Label: "agreement (0–3)", Help: "share of items with the same grade"},
		{Key: "kappa", Label: "κ (0–3)", Help: "Cohen's κ = (p_o − p_e)/(1 − p_e), unweighted"},
		{Key: "pass_raw", Label: "agreement (pass)", Help: "same, on grade ≥ 2 vs < 2"},
		{Key: "pass_kappa", Label: "κ (pass)"},
	}}
	num := func(x float64) report.Cell {
		if math.IsNaN(x) {
			return report.Cell{Text: "n/a"}
		}
		return report.Cell{Value: report.F(x), Digits: 3}
	}
	for _, ag := range v.set.Agreement {
		if !slices.ContainsFunc(v.runs, func(rs *itemscore.RunScores) bool { return rs.Run == ag.Run }) {
			continue
		}
		t.Rows = append(t.Rows, []report.Cell{{Text: ag.Run}, {Text: ag.ReviewerA}, {Text: ag.ReviewerB}, intCell(ag.Items), num(ag.Raw), num(ag.Kappa), num(ag.PassRaw), num(ag.PassKappa)})
		if ag.Others > 0 {
			sec.Notes = append(sec.Notes, fmt.Sprintf("run %s: %d further reviewer(s) not compared (A and B are the first two in file order)", ag.Run, ag.Others))
		}
	}
	if len(t.Rows) == 0 {
		return sec, false
	}
	sec.Text = append(sec.Text, "Seed 003 §7.6: the frozen test set's answer grades are given by two reviewers independently and disagreements adjudicated by a third; report the raw agreement and Cohen's κ. Reviewer A is the first reviewer of a run's independent grades in file order, B the second; items are the questions both graded. A question's figure uses the adjudicated grade, else the lower of the two (flagged unadjudicated).")
	sec.Tables = append(sec.Tables, t)
	return sec, true
}
