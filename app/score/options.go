// Package score aggregates per-item scores (an itemscore.Set) into the
// figures a report shows: per run and per stratum, each metric's mean with
// its n, its denominator, a 95 % percentile bootstrap interval, the seed's
// threshold and pass/fail, and a flag when unjudged candidates were involved;
// and, for two runs on the same items, the paired comparison (paired
// bootstrap CI of the difference, McNemar's test, win/tie/loss, the items
// where they disagree). The statistics are in package stats; the result is a
// report.Report that every front end renders.
//
// Denominators (seed 000 §4, SPEC §4): a figure's denominator is the number of
// annotated units of its stratum for which the metric is applicable —
// including units the run has no result for, which score the metric's worst
// value — never the number of hits. n is the number of those units the run
// actually answered.
//
// Determinism: every interval is computed with the seed itself (not a
// derived one), so a cell's interval equals
// stats.BootstrapCI(values, Bootstrap, Level, Seed) on the cell's values in
// unit order; all iteration is in slice order or sorted key order, so the
// same Set and Options give byte-identical JSON.
package score

import (
	"math"
	"strconv"
	"strings"

	"eval752/app/report"
	"eval752/app/stats"
)

// DefaultStrata are the unit strata every report breaks figures down by
// (SPEC §4; seed 003 §7: 按问题类型、来源、模态、难度分别报告). "set" (the
// format family: eval752, b2, v2, rag, trec) comes first: recall@10 on b-2
// (gold-atom coverage) and on seed 003 (evidence-group coverage over graded
// judgments) mean different things, so a mixed bundle gets per-set tables.
var DefaultStrata = []string{"set", "split", "modality", "type", "difficulty", "source"}

// Options configure Score and Compare.
type Options struct {
	// Seed seeds every bootstrap (default 42). 0 is a valid seed and is used
	// as given; start from DefaultOptions.
	Seed int64
	// Bootstrap is the number of resamples over items (default 1000; ≤ 0
	// means the default).
	Bootstrap int
	// Level is the confidence level of every interval (default 0.95; a value
	// outside (0, 1) means the default).
	Level float64
	// Runs restricts the report to these runs, in Set order (nil = all).
	Runs []string
	// Strata are the Unit.Strata keys to break figures down by, in report
	// order (nil = DefaultStrata). Keys no unit has are skipped.
	Strata []string
}

// DefaultOptions returns seed 42, 1000 resamples, 95 % intervals, every run
// and DefaultStrata.
func DefaultOptions() Options {
	return Options{
		Seed:      stats.DefaultSeed,
		Bootstrap: stats.DefaultResamples,
		Level:     stats.DefaultLevel,
		Strata:    append([]string(nil), DefaultStrata...),
	}
}

func (o Options) normalized() Options {
	if o.Bootstrap <= 0 {
		o.Bootstrap = stats.DefaultResamples
	}
	if !(o.Level > 0 && o.Level < 1) {
		o.Level = stats.DefaultLevel
	}
	if o.Strata == nil {
		o.Strata = append([]string(nil), DefaultStrata...)
	}
	return o
}

// config lists every option in a stable order for Report.Config.
func (o Options) config(runs []string) []report.KV {
	lvl := strconv.FormatFloat(o.Level, 'f', -1, 64)
	pct := func(x float64) string { return strconv.FormatFloat(math.Round(x*1e6)/1e6, 'f', -1, 64) }
	lo, hi := pct((1-o.Level)/2*100), pct((1+o.Level)/2*100)
	return []report.KV{
		{Key: "seed", Value: strconv.FormatInt(o.Seed, 10)},
		{Key: "bootstrap", Value: strconv.Itoa(o.Bootstrap)},
		{Key: "confidence", Value: lvl},
		{Key: "ci_method", Value: "percentile bootstrap over items, PCG(seed); bounds = nearest-rank " + lo + "th / " + hi + "th percentiles of the replicate means"},
		{Key: "strata", Value: strings.Join(o.Strata, ",")},
		{Key: "runs", Value: strings.Join(runs, ",")},
		{Key: "denominator", Value: "annotated units of the stratum where the metric applies, within the run's scope (the sets it has results for); missing results score the worst value"},
		{Key: "quantiles", Value: "nearest rank (latency p50/p95)"},
	}
}
