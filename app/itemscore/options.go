package itemscore

import (
	"slices"
	"strconv"
	"strings"

	"eval752/app/answer"
	"eval752/app/metrics"
	"eval752/app/report"
)

// Options configure per-item scoring.
type Options struct {
	// Cutoffs are the k of every @k metric (default metrics.DefaultCutoffs).
	Cutoffs []int
	// Depth is the scoring depth: unjudged candidates are counted (and the
	// item flagged) within the top Depth. Default: the largest cutoff.
	Depth int
	// RefusalPhrases make a response a refusal when the result has no
	// refused flag. Default answer.DefaultRefusalPhrases; a bundle's
	// run_config.json refusal_phrases replace them.
	RefusalPhrases []string
	// StrongScore is the strong-evidence threshold of false_recall: on an
	// unanswerable item, a candidate in the top k with score ≥ StrongScore
	// is strong evidence (any candidate when the run gives no scores). The
	// default 0.65 is seed 002's refusal-audit similarity bound, meant for
	// cosine-like scores; set it for other score scales.
	StrongScore float64
	// Runs restricts scoring to these run names (nil = every run).
	Runs []string
	// DropRecords lets Score drop the run records of the dataset it scores
	// (ds.Results, ds.Runs, ds.Preds: set to nil) once it has gathered the
	// runs' outputs from them, so that they and the set being built do not
	// peak together, and ds.Items once every run is scored (before the
	// Set's units are made). For a caller that reads none of them afterwards
	// (`eval752 score`, `compare`); not echoed in the report.
	DropRecords bool
}

// DefaultOptions returns cutoffs {1,5,10,20,50}, depth 50, the default
// refusal phrases and a strong-evidence threshold of 0.65.
func DefaultOptions() Options {
	return Options{
		Cutoffs:        slices.Clone(metrics.DefaultCutoffs),
		Depth:          0,
		RefusalPhrases: slices.Clone(answer.DefaultRefusalPhrases),
		StrongScore:    0.65,
	}
}

// normalize fills defaults and sorts the cutoffs.
func (o Options) normalize() Options {
	var ks []int
	for _, k := range o.Cutoffs {
		if k > 0 && !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		ks = slices.Clone(metrics.DefaultCutoffs)
	}
	slices.Sort(ks)
	o.Cutoffs = ks
	if o.Depth <= 0 {
		o.Depth = ks[len(ks)-1]
	}
	if o.RefusalPhrases == nil {
		o.RefusalPhrases = slices.Clone(answer.DefaultRefusalPhrases)
	}
	return o
}

// config echoes the options for the report's configuration block.
func (o Options) config() []report.KV {
	ks := make([]string, len(o.Cutoffs))
	for i, k := range o.Cutoffs {
		ks[i] = strconv.Itoa(k)
	}
	return []report.KV{
		{Key: "cutoffs", Value: strings.Join(ks, ",")},
		{Key: "scoring_depth", Value: strconv.Itoa(o.Depth)},
		{Key: "strong_evidence_score", Value: strconv.FormatFloat(o.StrongScore, 'g', -1, 64)},
		{Key: "refusal_phrases", Value: strings.Join(o.RefusalPhrases, " | ")},
		{Key: "relevance_level", Value: "b-2, v2: gold = 1 (binary); seed 003: grade ≥ 2 relevant, nDCG gains 0–3"},
		{Key: "ranking", Value: "score descending, ties by id descending (bytewise); list order when scores are absent"},
		{Key: "missing_item_value", Value: "worst value of every applicable metric (0; 1 for false_recall)"},
	}
}
