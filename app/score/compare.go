package score

import (
	"cmp"
	"fmt"
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

// smallN is the number of paired units below which the percentile
// bootstrap interval of a difference is flagged: with a handful of units it
// collapses onto the few values a resample can take.
const smallN = 10

// descriptiveBinary are binary metrics that describe behaviour rather than
// correctness (refusing an answerable item is not "right"): they get a paired
// difference but no McNemar test and no disagreement rows.
var descriptiveBinary = []string{"refusal.detected"}

// pairFig is one paired comparison of a metric on one stratum.
type pairFig struct {
	A, B          figure // each run's mean over the paired units, with its own CI
	Diff          figure // B − A, paired bootstrap CI
	Win, Tie, Los int    // B better / equal / worse than A, per unit
	McNemar       *stats.McNemarResult
	OnlyOne       int // units where only one run has the metric (not paired)
}

// verdict is benchstat's "~" when the interval of B − A contains 0 (or, for
// a binary metric, McNemar's p ≥ alpha), else which way B moved (oriented by
// HigherIsBetter).
func (p pairFig) verdict(d metrics.Descriptor, alpha float64) string {
	if p.Diff.Denom == 0 || math.IsNaN(p.Diff.Lo) || math.IsNaN(p.Diff.Hi) {
		return "n/a"
	}
	if p.Diff.Lo <= 0 && 0 <= p.Diff.Hi {
		return "~"
	}
	if p.McNemar != nil && !(p.McNemar.P < alpha) {
		return "~" // the bootstrap interval excludes 0 but the exact test does not reject
	}
	if (p.Diff.Value > 0) == d.HigherIsBetter {
		return "B better"
	}
	return "B worse"
}

// Compare is the paired comparison of runs runA and runB on the same units:
// for every metric both runs have, per stratum, each run's mean, the mean
// difference B − A with its paired bootstrap interval (item indices resampled
// once per replicate for both runs), win/tie/loss counts, and for binary
// metrics McNemar's test on the discordant pairs; refusal P/R/F1 and cost
// means are compared the same way. It never compares two independent
// proportions. A per-item table lists the units where one run is right and
// the other wrong on a binary metric.
//
// Units where a metric applies to only one of the runs are left out of
// that metric's pairs (and counted in a note). Report.Inputs is left to the
// caller, as for Score.
func Compare(set *itemscore.Set, runA, runB string, opt Options) (*report.Report, error) {
	opt = opt.normalized()
	ia := slices.IndexFunc(set.Runs, func(r itemscore.RunScores) bool { return r.Run == runA })
	ib := slices.IndexFunc(set.Runs, func(r itemscore.RunScores) bool { return r.Run == runB })
	switch {
	case ia < 0:
		return nil, fmt.Errorf("no run named %q", runA)
	case ib < 0:
		return nil, fmt.Errorf("no run named %q", runB)
	case ia == ib:
		return nil, fmt.Errorf("run %q compared with itself", runA)
	}
	opt.Runs = []string{runA, runB}
	v := pairView(set, runA, runB, opt)

	rep := &report.Report{
		Kind:   "compare",
		Title:  fmt.Sprintf("eval752 paired comparison: %s (B) vs %s (A)", runB, runA),
		Tool:   report.Tool{Name: version.Name, Version: version.Version},
		Config: append(append(opt.config([]string{runA, runB}), report.KV{Key: "compare", Value: "B − A with B = " + runB + ", A = " + runA}), set.Config...),
	}
	rows := v.pairRows()

	sum := report.Section{ID: "summary", Title: "Summary"}
	missA, missB, both, scopeBoth := 0, 0, 0, 0
	for i := range set.Units {
		a, b := v.item(0, i), v.item(1, i)
		if a.OutOfScope || b.OutOfScope {
			continue
		}
		scopeBoth++
		if a.Missing {
			missA++
		}
		if b.Missing {
			missB++
		}
		if !a.Missing && !b.Missing {
			both++
		}
	}
	sum.Text = append(sum.Text,
		fmt.Sprintf("A = %s, B = %s: %d annotated units in both runs' scope (%d with results from both; %d missing in A, %d missing in B — a missing result scores the worst value, as in the score report).", runA, runB, scopeBoth, both, missA, missB),
		fmt.Sprintf("Δ = B − A over the units where the metric applies to both runs. The interval is a paired percentile bootstrap (%d resamples of units, seed %d, %g%%): each replicate resamples unit indices once and applies them to both runs, so per-item correlation is kept. Binary metrics also get McNemar's test on the discordant units (b = A right & B wrong, c = A wrong & B right; exact binomial when b + c < %d, else χ² with continuity correction). Verdict: \"B better\" / \"B worse\" when the interval of Δ excludes 0 (and, for a binary metric, McNemar's p < %g); \"~\" = no significant difference. Two independent proportions are never compared.",
			opt.Bootstrap, opt.Seed, opt.Level*100, stats.ExactMcNemarBelow, math.Round((1-opt.Level)*1e6)/1e6))
	for _, sc := range v.unitSets() {
		for r, name := range []string{runA, runB} {
			if !v.inScope(r, sc.name) {
				sum.Notes = append(sum.Notes, fmt.Sprintf("run %s has no results for set %s (%s): not scored, so not compared", name, sc.name, plural(sc.units, "unit")))
			}
		}
	}
	if note := unmatchedNote(set, ia, ib, runA, runB); note != "" {
		sum.Notes = append(sum.Notes, note)
	}
	if note := truthNote(set.Runs[ia], set.Runs[ib]); note != "" {
		sum.Notes = append(sum.Notes, note)
	}
	sum.Notes = append(sum.Notes, configNotes(set.Runs[ia], set.Runs[ib])...)
	// Verdicts on the headline metrics, per set when there are several.
	head := []int{0}
	if len(v.unitSets()) > 1 {
		head = nil
		for s, st := range v.strata {
			if st.Key == "set" {
				head = append(head, s)
			}
		}
		if len(head) == 0 {
			head = []int{0}
		}
	}
	var headRows []pairRow
	for _, pr := range rows {
		if pr.Desc.Threshold != nil || pr.Desc.RerankThreshold != nil || slices.Contains(headlineNames, pr.Desc.Name) {
			headRows = append(headRows, pr)
		}
	}
	if len(headRows) > 0 {
		key := v.strata[head[0]].Key
		sum.Tables = append(sum.Tables, v.pairTableOn("compare.summary.headline", "Headline verdicts — "+keyTitle(key), key, head, headRows, runA, runB))
	}
	rep.Sections = append(rep.Sections, sum)

	keys := append([]string{""}, strataKeys(v.strata)...)
	for g, gr := range byGroup(rows, func(pr pairRow) metrics.Group { return pr.Desc.Group }) {
		sec := report.Section{ID: "compare." + string(g), Title: groupTitle[g]}
		for _, key := range keys {
			if t := v.pairTable(g, key, gr, runA, runB); len(t.Rows) > 0 {
				sec.Tables = append(sec.Tables, t)
			}
		}
		for _, pr := range gr {
			if n := pr.Fig(0).OnlyOne; n > 0 {
				sec.Notes = append(sec.Notes, fmt.Sprintf("%s: %s scored by only one of the runs, left out of the pairs", pr.Label, plural(n, "unit")))
			}
		}
		rep.Sections = append(rep.Sections, sec)
	}
	rep.Sections = append(rep.Sections, v.disagreementSection(runA, runB))
	rep.Items = v.itemDetails()
	return rep, nil
}

// pairView is the view of runs a (first) and b (second) of set.
func pairView(set *itemscore.Set, a, b string, opt Options) *view {
	opt.Runs = []string{a, b}
	v := newView(set, opt)
	if v.runs[0].Run != a { // newView keeps Set order; put A first
		v.runs[0], v.runs[1] = v.runs[1], v.runs[0]
		v.cols[0], v.cols[1] = v.cols[1], v.cols[0]
		v.flag[0], v.flag[1] = v.flag[1], v.flag[0]
		v.ambiguous[0], v.ambiguous[1] = v.ambiguous[1], v.ambiguous[0]
	}
	return v
}

// truthNote says when two runs' seed-003 units were judged by different
// run-specific qrels files (seed 003 §10: every system of one comparison
// table must be judged from the same anchored-judgment snapshot). Different
// files are normal for different chunkings; one run without any is not: its
// chunks are judged only by the anchors that resolve, and its figures carry
// unjudged flags.
func truthNote(a, b itemscore.RunScores) string {
	if slices.Equal(a.Qrels, b.Qrels) || sameContent(a.QrelsDigest, b.QrelsDigest) {
		return ""
	}
	name := func(r itemscore.RunScores) string {
		if len(r.Qrels) == 0 {
			return r.Run + ": no qrels.tsv"
		}
		return r.Run + ": " + strings.Join(r.Qrels, ", ")
	}
	if len(a.Qrels) == 0 || len(b.Qrels) == 0 {
		return fmt.Sprintf("The runs were judged by different truth sets (%s; %s): only one has run-specific qrels, so the other's retrieved chunks are judged only where the anchored judgments resolve — compare its flagged figures with care, and resolve qrels for both from the same judgment snapshot (seed 003 §10).", name(a), name(b))
	}
	return fmt.Sprintf("The runs were judged by different qrels files (%s; %s): fine for different chunkings if both were resolved from the same anchored-judgment snapshot — check judgment_set_sha256 in their config.yaml (seed 003 §10).", name(a), name(b))
}

// frozenIdentity are the config.yaml keys (seed 003 §10) that two runs of
// one comparison must share: the same questions, the same judgment
// snapshot, the same corpus; qrels_sha256 may differ only with the
// chunking (chunk_profile_hash).
var frozenIdentity = []struct{ key, what string }{
	{"dataset_sha256", "question set"},
	{"dataset_version", "question set version"},
	{"judgment_set_sha256", "judgment set"},
	{"judgment_set_version", "judgment set version"},
	{"corpus_manifest_sha256", "corpus manifest"},
	{"qrels_sha256", "qrels"},
}

// configNotes warns, from the runs' config.yaml, when two runs declare
// different questions, judgment sets, corpora or — with the same chunking —
// qrels (seed 003 §10: "禁止让不同系统偷偷使用不同真值集合"). A key absent,
// null or unknown in either config is not compared.
func configNotes(a, b itemscore.RunScores) []string {
	known := func(m map[string]string, k string) (string, bool) {
		v, ok := m[k]
		v = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(v), "sha256:"))
		return v, ok && v != "" && v != "null" && v != "unknown"
	}
	var out []string
	for _, f := range frozenIdentity {
		va, oka := known(a.Config, f.key)
		vb, okb := known(b.Config, f.key)
		if !oka || !okb || va == vb {
			continue
		}
		if f.key == "qrels_sha256" {
			ca, _ := known(a.Config, "chunk_profile_hash")
			cb, _ := known(b.Config, "chunk_profile_hash")
			if ca != cb {
				continue // different chunkings get different qrels from one snapshot
			}
		}
		out = append(out, fmt.Sprintf("WARNING: runs %s and %s declare different %s in their config.yaml (%s: %s; %s: %s): seed 003 §10 — every system of one comparison must be scored against the same %s; the difference may be the truth set's, not the systems'.",
			a.Run, b.Run, f.key, a.Run, clip(va, 16), b.Run, clip(vb, 16), f.what))
	}
	return out
}

func clip(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// sameContent reports whether two lists of file hashes name the same
// contents (in any order), every hash known.
func sameContent(a, b []string) bool {
	if len(a) == 0 || len(a) != len(b) || slices.Contains(a, "") || slices.Contains(b, "") {
		return false
	}
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// pairRow is one compared figure: label, descriptor and its paired figure
// per stratum.
type pairRow struct {
	Label string
	Desc  metrics.Descriptor
	Fig   func(s int) pairFig
}

func (v *view) pairRows() []pairRow {
	var rows []pairRow
	// Per-item metrics both runs have.
	var ms []int
	for m, d := range v.metrics {
		if slices.Contains(indicatorOnly, d.Name) {
			continue
		}
		ms = append(ms, m)
	}
	perStratum := make([][]pairFig, len(v.strata)) // [stratum][position in ms]
	parallel(len(v.strata), func(s int) {
		perStratum[s] = v.pairMeans(v.strata[s], ms)
	})
	for k, m := range ms {
		present := false
		for s := range v.strata {
			present = present || perStratum[s][k].Diff.Denom > 0
		}
		if !present {
			continue
		}
		rows = append(rows, pairRow{Label: v.metrics[m].Name, Desc: v.metrics[m], Fig: func(s int) pairFig { return perStratum[s][k] }})
	}
	// Refusal P/R/F1: both runs' indicators on the same units.
	if v.hasRefusal() {
		figs := make([][3]pairFig, len(v.strata))
		parallel(len(v.strata), func(s int) { figs[s] = v.pairRefusal(v.strata[s]) })
		for k, name := range []string{"refusal.precision", "refusal.recall", "refusal.f1"} {
			rows = append(rows, pairRow{Label: name, Desc: mustDesc(name), Fig: func(s int) pairFig { return figs[s][k] }})
		}
	}
	// Cost means.
	for _, field := range costFields {
		if !v.hasCost(field) {
			continue
		}
		d := mustDesc(field)
		figs := make([]pairFig, len(v.strata))
		colA, colB := v.costColumn(0, field), v.costColumn(1, field)
		for s := range v.strata {
			figs[s] = v.pairMean(v.strata[s], d, colA, colB)
		}
		if figs[0].Diff.Denom == 0 {
			continue // only one run carries the field: nothing to pair
		}
		if field == "cost_usd" {
			per := make([]pairFig, len(v.strata))
			scale := func(c []float64) []float64 {
				out := make([]float64, len(c))
				for i, x := range c {
					out[i] = 1000 * x
				}
				return out
			}
			ka, kb := scale(colA), scale(colB)
			for s := range v.strata {
				per[s] = v.pairMean(v.strata[s], mustDesc("cost_usd per 1000 queries"), ka, kb)
				for _, f := range []*figure{&figs[s].A, &figs[s].B, &figs[s].Diff, &per[s].A, &per[s].B, &per[s].Diff} {
					f.sigDigits(3)
				}
			}
			rows = append(rows, pairRow{Label: field + " (mean)", Desc: d, Fig: func(s int) pairFig { return figs[s] }},
				pairRow{Label: "cost_usd per 1000 queries", Desc: mustDesc("cost_usd per 1000 queries"), Fig: func(s int) pairFig { return per[s] }})
			continue
		}
		rows = append(rows, pairRow{Label: field + " (mean)", Desc: d, Fig: func(s int) pairFig { return figs[s] }})
		if field == "latency_ms" {
			rows = append(rows, v.pairQuantileRows(field, d, colA, colB)...)
		}
	}
	// Per-stage latency percentiles (seed 003 §8).
	stages := v.orderedKeys(stageOrder, func(it *itemscore.ItemScore) report.Values { return it.Stages }, func(string) bool { return false })
	for _, st := range stages {
		d := mustDesc("latency_ms.<stage>")
		d.Name = "latency_ms." + st
		col := func(r int) []float64 {
			out := make([]float64, len(v.set.Units))
			for i := range out {
				out[i] = math.NaN()
				if x, ok := v.item(r, i).Stages.Get(st); ok {
					out[i] = x
				}
			}
			return out
		}
		rows = append(rows, v.pairQuantileRows(d.Name, d, col(0), col(1))...)
	}
	return rows
}

// pairQuantileRows compares the p50 and p95 of two runs' latency columns
// over the units where both have a value: each run's nearest-rank
// percentile, the difference B − A and, on all units and per set, its
// paired bootstrap interval (unit indices resampled jointly, the percentile
// recomputed on each side; other strata show the difference only).
func (v *view) pairQuantileRows(name string, d metrics.Descriptor, colA, colB []float64) []pairRow {
	qs := []struct {
		label string
		p     float64
	}{{"p50", 0.50}, {"p95", 0.95}}
	figs := make([][]pairFig, len(qs)) // [quantile][stratum]
	for k := range figs {
		figs[k] = make([]pairFig, len(v.strata))
	}
	for s, st := range v.strata {
		idx := v.pairedUnits(st, colA, colB)
		a, b := gather(colA, idx), gather(colB, idx)
		onlyOne := 0
		for _, i := range st.Idx {
			if math.IsNaN(colA[i]) != math.IsNaN(colB[i]) {
				onlyOne++
			}
		}
		// the interval costs a sort per resample: drawn on all units and
		// per set, where a verdict is read, not on every stratum; one sort
		// of each run's resample gives both percentiles
		var cis []stats.Interval
		if len(idx) > 0 && (st.Key == "" || st.Key == "set") {
			qa, qb := newResampleQuantiles(a), newResampleQuantiles(b)
			ranks := make([]int, len(qs))
			for k, q := range qs {
				ranks[k] = stats.Rank(len(idx), q.p)
			}
			va, vb := make([]float64, len(qs)), make([]float64, len(qs))
			cis = stats.BootstrapIntervalsK(len(idx), v.opt.Bootstrap, v.opt.Level, v.opt.Seed, len(qs), func(sel []int, out []float64) {
				qa.of(sel, ranks, va)
				qb.of(sel, ranks, vb)
				for k := range out {
					out[k] = vb[k] - va[k]
				}
			})
		}
		for k, q := range qs {
			pf := pairFig{Win: -1, Tie: -1, Los: -1, OnlyOne: onlyOne}
			qa, qb := stats.Quantile(a, q.p), stats.Quantile(b, q.p)
			pf.A = figure{Value: qa, Lo: math.NaN(), Hi: math.NaN(), N: len(idx), Denom: len(idx), NoCI: true, Digits: 1}
			pf.B = figure{Value: qb, Lo: math.NaN(), Hi: math.NaN(), N: len(idx), Denom: len(idx), NoCI: true, Digits: 1}
			pf.Diff = figure{Value: qb - qa, Lo: math.NaN(), Hi: math.NaN(), N: len(idx), Denom: len(idx), Digits: 1}
			if cis != nil {
				pf.Diff.Lo, pf.Diff.Hi = cis[k].Low, cis[k].High
			}
			figs[k][s] = pf
		}
	}
	var rows []pairRow
	for k, q := range qs {
		if figs[k][0].Diff.Denom == 0 {
			continue
		}
		rows = append(rows, pairRow{Label: name + " " + q.label, Desc: d, Fig: func(s int) pairFig { return figs[k][s] }})
	}
	return rows
}

// resampleQuantiles reads order statistics of resamples of x (unit
// indices into x, with repeats) without sorting each resample: x's
// positions are sorted once, and a resample's r-th smallest value is where
// the counts of its draws, walked in that order, reach r — the value a sort
// of the resample would put at rank r (stats.OrderStat).
type resampleQuantiles struct {
	x     []float64
	order []int // positions of x, by value
	count []int // draws per position (kept zero between calls)
	// sorted: with both zeros (-0 == 0) or a NaN the value a sort puts at
	// a rank depends on the sort, so such x is sorted per resample
	sorted []float64
}

func newResampleQuantiles(x []float64) *resampleQuantiles {
	q := &resampleQuantiles{x: x, count: make([]int, len(x))}
	pos, neg := false, false
	for _, v := range x {
		pos = pos || v == 0 && !math.Signbit(v)
		neg = neg || v == 0 && math.Signbit(v)
		if pos && neg || math.IsNaN(v) {
			q.sorted = make([]float64, len(x))
			return q
		}
	}
	q.order = make([]int, len(x))
	for i := range q.order {
		q.order[i] = i
	}
	slices.SortFunc(q.order, func(i, j int) int { return cmp.Compare(x[i], x[j]) })
	return q
}

// of writes to out[k] the ranks[k]-th smallest (1-based) of x[sel[0]],
// x[sel[1]], …; ranks ascend.
func (q *resampleQuantiles) of(sel, ranks []int, out []float64) {
	if q.sorted != nil {
		s := q.sorted[:len(sel)]
		for t, j := range sel {
			s[t] = q.x[j]
		}
		slices.Sort(s)
		for k, r := range ranks {
			out[k] = s[r-1]
		}
		return
	}
	for _, j := range sel {
		q.count[j]++
	}
	k, seen := 0, 0
	for _, j := range q.order {
		seen += q.count[j]
		for k < len(ranks) && seen >= ranks[k] {
			out[k] = q.x[j]
			k++
		}
		q.count[j] = 0
	}
}

// costColumn is run r's cost field per unit, NaN when absent.
func (v *view) costColumn(r int, field string) []float64 {
	col := make([]float64, len(v.set.Units))
	for i := range col {
		col[i] = math.NaN()
		one := stratum{Idx: []int{i}}
		if x := v.costValues(r, one, field); len(x) == 1 {
			col[i] = x[0]
		}
	}
	return col
}

// pairMean compares the means of two runs' columns over the units of s
// where both have a value.
func (v *view) pairMean(s stratum, d metrics.Descriptor, colA, colB []float64) pairFig {
	return v.pairGroup(s, []metrics.Descriptor{d}, [][]float64{colA}, [][]float64{colB})[0]
}

// pairMeans is pairMean for the per-item metrics ms.
func (v *view) pairMeans(s stratum, ms []int) []pairFig {
	ds := make([]metrics.Descriptor, len(ms))
	as := make([][]float64, len(ms))
	bs := make([][]float64, len(ms))
	for k, m := range ms {
		ds[k], as[k], bs[k] = v.metrics[m], v.cols[0][m], v.cols[1][m]
	}
	figs := v.pairGroup(s, ds, as, bs)
	// each run's figure carries its own flags over the paired units, as
	// in the score report (unjudged, unresolved judgments, ambiguous gold)
	for k, m := range ms {
		idx := v.pairedUnits(s, as[k], bs[k])
		figs[k].A.Flag, figs[k].B.Flag = v.flags(0, m, idx), v.flags(1, m, idx)
	}
	return figs
}

// pairedUnits lists the units of s where both columns have a value.
func (v *view) pairedUnits(s stratum, a, b []float64) []int {
	idx := make([]int, 0, len(s.Idx))
	for _, i := range s.Idx {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			idx = append(idx, i)
		}
	}
	return idx
}

// pairGroup compares metric k of A (colsA[k]) with B (colsB[k]) over the
// units of s where both have a value. Metrics paired on the same units share
// one stream of bootstrap draws for A's, B's and the difference's intervals
// (each equal to what stats.BootstrapCI / PairedBootstrapCI give alone).
func (v *view) pairGroup(s stratum, ds []metrics.Descriptor, colsA, colsB [][]float64) []pairFig {
	out := make([]pairFig, len(ds))
	idxs := make([][]int, len(ds))
	for k := range ds {
		idxs[k] = v.pairedUnits(s, colsA[k], colsB[k])
		for _, i := range s.Idx {
			if math.IsNaN(colsA[k][i]) != math.IsNaN(colsB[k][i]) {
				out[k].OnlyOne++
			}
		}
	}
	o := v.opt
	for _, g := range groupByUnits(idxs) {
		idx := idxs[g[0]]
		// n: units with a result — of A, of B, of both (the difference)
		n, nA, nB := 0, 0, 0
		for _, i := range idx {
			ma, mb := v.item(0, i).Missing, v.item(1, i).Missing
			if !ma {
				nA++
			}
			if !mb {
				nB++
			}
			if !ma && !mb {
				n++
			}
		}
		cols := make([][]float64, 0, 3*len(g))
		for _, k := range g {
			a, b := gather(colsA[k], idx), gather(colsB[k], idx)
			d := make([]float64, len(idx))
			for j := range d {
				d[j] = b[j] - a[j]
			}
			cols = append(cols, a, b, d)
		}
		cis := v.ci.MeanCIs(cols, o.Bootstrap, o.Level, o.Seed)
		for j, k := range g {
			a, b, d := cols[3*j], cols[3*j+1], cols[3*j+2]
			pf := &out[k]
			pf.A = figure{Value: stats.Mean(a), Lo: cis[3*j].Low, Hi: cis[3*j].High, N: nA, Denom: len(idx)}
			pf.B = figure{Value: stats.Mean(b), Lo: cis[3*j+1].Low, Hi: cis[3*j+1].High, N: nB, Denom: len(idx)}
			pf.Diff = figure{Value: stats.Mean(d), Lo: cis[3*j+2].Low, Hi: cis[3*j+2].High, N: n, Denom: len(idx)}
			pf.Win, pf.Tie, pf.Los = stats.WinTieLoss(b, a, ds[k].HigherIsBetter)
			if ds[k].Binary && !slices.Contains(descriptiveBinary, ds[k].Name) {
				// "Right" is the better of the two values: 1, or 0 when lower
				// is better (false_recall@k).
				right := func(x float64) bool { return (x == 1) == ds[k].HigherIsBetter }
				bb, cc := 0, 0
				for j := range a {
					switch {
					case right(a[j]) && !right(b[j]):
						bb++
					case !right(a[j]) && right(b[j]):
						cc++
					}
				}
				mc := stats.McNemar(bb, cc)
				pf.McNemar = &mc
			}
		}
	}
	return out
}

// pairRefusal compares refusal precision, recall and F1 (in that order) of
// the two runs on the units of s that both scored, resampling units jointly.
func (v *view) pairRefusal(s stratum) [3]pairFig {
	ra, _ := v.refusal(0, s)
	rb, _ := v.refusal(1, s)
	// Keep the units both runs carry indicators for.
	inB := map[int]int{}
	for j, i := range rb.idx {
		inB[i] = j
	}
	var ca, cb refusalCounts
	onlyOne := len(ra.idx) + len(rb.idx)
	for ja, i := range ra.idx {
		jb, ok := inB[i]
		if !ok {
			continue
		}
		onlyOne -= 2
		ca.idx, cb.idx = append(ca.idx, i), append(cb.idx, i)
		ca.tp, ca.fp, ca.fn = append(ca.tp, ra.tp[ja]), append(ca.fp, ra.fp[ja]), append(ca.fn, ra.fn[ja])
		cb.tp, cb.fp, cb.fn = append(cb.tp, rb.tp[jb]), append(cb.fp, rb.fp[jb]), append(cb.fn, rb.fn[jb])
		if !v.item(0, i).Missing && !v.item(1, i).Missing {
			ca.n++
		}
	}
	cb.n = ca.n
	pa, qa, f1a := ca.prf(nil)
	pb, qb, f1b := cb.prf(nil)
	va, vb := [3]float64{pa, qa, f1a}, [3]float64{pb, qb, f1b}
	// one pass gives each resample's three ratios of A, of B and their
	// differences (refusalFigures of A and of B, and the paired interval)
	put := func(out []float64, pa, qa, f1a, pb, qb, f1b float64) {
		out[0], out[1], out[2] = pa, qa, f1a
		out[3], out[4], out[5] = pb, qb, f1b
		out[6], out[7], out[8] = pb-pa, qb-qa, f1b-f1a
	}
	var cis []stats.Interval
	ok := false
	spa, exactA := ca.sparse()
	spb, exactB := cb.sparse()
	if exactA && exactB {
		cis, ok = stats.BootstrapIntervalsCounts(len(ca.idx), v.opt.Bootstrap, v.opt.Level, v.opt.Seed, 9, func(count []uint16, out []float64) {
			pa, qa, f1a := spa.prfOf(count)
			pb, qb, f1b := spb.prfOf(count)
			put(out, pa, qa, f1a, pb, qb, f1b)
		})
	}
	if !ok {
		cis = stats.BootstrapIntervalsK(len(ca.idx), v.opt.Bootstrap, v.opt.Level, v.opt.Seed, 9, func(idx []int, out []float64) {
			pa, qa, f1a := ca.prf(idx)
			pb, qb, f1b := cb.prf(idx)
			put(out, pa, qa, f1a, pb, qb, f1b)
		})
	}
	var out [3]pairFig
	for k := range out {
		pf := pairFig{OnlyOne: onlyOne}
		pf.A = figure{Value: va[k], Lo: cis[k].Low, Hi: cis[k].High, N: ca.n, Denom: len(ca.idx)}
		pf.B = figure{Value: vb[k], Lo: cis[3+k].Low, Hi: cis[3+k].High, N: cb.n, Denom: len(cb.idx)}
		pf.Diff = figure{Value: vb[k] - va[k], N: ca.n, Denom: len(ca.idx), Lo: cis[6+k].Low, Hi: cis[6+k].High}
		pf.Win, pf.Tie, pf.Los = -1, -1, -1 // not per-item figures
		out[k] = pf
	}
	return out
}

func (v *view) pairTable(g metrics.Group, key string, rows []pairRow, runA, runB string) report.Table {
	var ss []int
	for s, st := range v.strata {
		if st.Key == key {
			ss = append(ss, s)
		}
	}
	return v.pairTableOn("compare."+string(g)+"."+keyID(key), groupTitle[g]+" — "+keyTitle(key), key, ss, rows, runA, runB)
}

// pairTableOn is the paired table of rows on the strata ss (all of key);
// rows whose metric applies to no paired unit of a stratum are left out.
func (v *view) pairTableOn(id, title, key string, ss []int, rows []pairRow, runA, runB string) report.Table {
	t := report.Table{ID: id, Title: title, Chart: true}
	t.Columns = []report.Column{{Key: "metric", Label: "metric"}}
	if key != "" {
		t.Columns = append(t.Columns, report.Column{Key: "stratum", Label: key})
	}
	t.Columns = append(t.Columns,
		report.Column{Key: "a", Label: "A " + runA, Help: "mean of run A over the paired units [CI]"},
		report.Column{Key: "b", Label: "B " + runB, Help: "mean of run B over the paired units [CI]"},
		report.Column{Key: "diff", Label: "Δ B−A", Help: "mean paired difference with its paired bootstrap CI; n = units answered by both / paired units"},
		report.Column{Key: "wtl", Label: "B win/tie/loss", Help: "units where B is better / equal / worse than A"},
		report.Column{Key: "b_count", Label: "b (A✓ B✗)", Help: "McNemar: units where A is right and B wrong"},
		report.Column{Key: "c_count", Label: "c (A✗ B✓)", Help: "McNemar: units where A is wrong and B right"},
		report.Column{Key: "p", Label: "McNemar p", Help: "two-sided; exact binomial when b + c < 25, else χ² with continuity correction"},
		report.Column{Key: "verdict", Label: "verdict", Help: "\"~\": the CI of Δ contains 0 (not significant)"},
	)
	diffRun := runB + " − " + runA
	unreliable := fmt.Sprintf("n<%d: interval unreliable", smallN)
	for _, pr := range rows {
		for _, s := range ss {
			pf := pr.Fig(s)
			if pf.Diff.Denom == 0 {
				continue
			}
			label := v.strata[s].Label
			row := make([]report.Cell, 0, len(t.Columns))
			row = append(row, report.Cell{Text: pr.Label})
			if key != "" {
				row = append(row, report.Cell{Text: v.strata[s].Value})
			}
			diff := pf.Diff.cell(v.box, metrics.Descriptor{}, pr.Desc.Name, label, diffRun)
			var dflags []string
			if pf.Diff.Denom > 0 && pf.Diff.Denom < smallN {
				dflags = append(dflags, unreliable)
			}
			if pf.A.Flag != "" || pf.B.Flag != "" {
				dflags = append(dflags, "compares flagged figures")
			}
			diff.Flag = strings.Join(dflags, "; ")
			if v.rerankGain(pr.Desc) && diff.Value != nil {
				t := metrics.RerankGainThreshold
				diff.Threshold = thresholdText(t)
				diff.Pass = report.B(t.Pass(*diff.Value))
			}
			row = append(row,
				pf.A.cell(v.box, v.descForRun(pr.Desc, s, 0), pr.Desc.Name, label, runA),
				pf.B.cell(v.box, v.descForRun(pr.Desc, s, 1), pr.Desc.Name, label, runB),
				diff,
			)
			if pf.Win >= 0 {
				row = append(row, report.Cell{Text: strconv.Itoa(pf.Win) + "/" + strconv.Itoa(pf.Tie) + "/" + strconv.Itoa(pf.Los)})
			} else {
				row = append(row, report.Cell{Text: "—"})
			}
			if mc := pf.McNemar; mc != nil && pf.Diff.Denom > 0 {
				test := "χ²"
				if mc.Exact {
					test = "exact"
				}
				row = append(row, v.intCell(mc.B), v.intCell(mc.C), report.Cell{Value: v.box.F(mc.P), Flag: test})
			} else {
				row = append(row, report.Cell{Text: "—"}, report.Cell{Text: "—"}, report.Cell{Text: "—"})
			}
			verdict := pf.verdict(pr.Desc, 1-v.opt.Level)
			if (pf.A.Flag != "" || pf.B.Flag != "") && (verdict == "B better" || verdict == "B worse") {
				verdict += " (flagged)" // e.g. one run's candidates unjudged: a lower bound
			}
			row = append(row, report.Cell{Text: verdict})
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// rerankGain reports whether the difference of metric d is seed 003 §7's
// rerank gain: nDCG@10 of a reranked run (B) over its own first-stage
// ranking (A = "<B>.retrieve").
func (v *view) rerankGain(d metrics.Descriptor) bool {
	return d.Name == "ndcg@10" && len(v.runs) == 2 && v.runs[1].Reranked && v.runs[0].Run == v.runs[1].Run+".retrieve"
}

// disagreementSection lists, for every binary metric, the units where one
// run is right (1) and the other wrong (0): the discordant pairs McNemar's
// test counts, for the reviewer to read.
func (v *view) disagreementSection(runA, runB string) report.Section {
	sec := report.Section{ID: "disagreements", Title: "Items where the runs disagree"}
	t := report.Table{ID: "disagreements.items", Title: "Discordant units on binary metrics", Columns: []report.Column{
		{Key: "metric", Label: "metric"}, {Key: "item", Label: "item"}, {Key: "location", Label: "location"},
		{Key: "a", Label: "A " + runA}, {Key: "b", Label: "B " + runB}, {Key: "better", Label: "better"},
	}}
	for m, d := range v.metrics {
		if !d.Binary || slices.Contains(indicatorOnly, d.Name) || slices.Contains(descriptiveBinary, d.Name) {
			continue
		}
		for i, u := range v.set.Units {
			a, b := v.cols[0][m][i], v.cols[1][m][i]
			if math.IsNaN(a) || math.IsNaN(b) || a == b {
				continue
			}
			better := runA
			if (b > a) == d.HigherIsBetter {
				better = runB
			}
			t.Rows = append(t.Rows, []report.Cell{{Text: d.Name}, {Text: u.ID}, {Text: loc(u)},
				{Value: report.F(a), Int: true}, {Value: report.F(b), Int: true}, {Text: better}})
		}
	}
	if len(t.Rows) == 0 {
		sec.Text = append(sec.Text, "The runs agree on every unit for every binary metric.")
	} else {
		sec.Tables = append(sec.Tables, t)
	}
	return sec
}

// unmatchedNote lists the units of a set both runs are scored on that only
// one run's log has (logs of other tools: an item another log lacks is out
// of that run's scope, not missing), so they are in no pair.
func unmatchedNote(set *itemscore.Set, ia, ib int, runA, runB string) string {
	var onlyA, onlyB []string
	for i, u := range set.Units {
		a, b := set.Runs[ia].Items[i], set.Runs[ib].Items[i]
		if a.OutOfScope == b.OutOfScope || !slices.Contains(set.Runs[ia].Sets, u.Set) || !slices.Contains(set.Runs[ib].Sets, u.Set) {
			continue
		}
		if b.OutOfScope {
			onlyA = append(onlyA, u.ID)
		} else {
			onlyB = append(onlyB, u.ID)
		}
	}
	if len(onlyA)+len(onlyB) == 0 {
		return ""
	}
	list := func(ids []string) string {
		if len(ids) == 0 {
			return "none"
		}
		if len(ids) > 20 {
			return strings.Join(ids[:20], ", ") + fmt.Sprintf(" … (%d more)", len(ids)-20)
		}
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("unmatched items (in one log only, so in no pair): only in A (%s): %s; only in B (%s): %s", runA, list(onlyA), runB, list(onlyB))
}
