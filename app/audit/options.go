package audit

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"eval752/app/report"
)

// Options are the audit's targets and thresholds. The zero value of a field
// means "use the default" (see DefaultOptions), so callers set only what
// they change; a negative bound disables the check it controls.
type Options struct {
	// Targets are the category quotas of seed 002 as shares of the v2 set
	// (direct / conditional / cross / refuse); default 0.25 each (75 of 300).
	Targets map[string]float64
	// QuotaTolerance is how far (absolute share) a category may sit from its
	// target before v2.quota warns; default 0.05 (5 percentage points).
	QuotaTolerance float64
	// DraftTarget is the expected number of questions of the category in a
	// draft file (Draft); 0 skips the count check (seed 002's lab: 25).
	DraftTarget int
	// MaxClauseReuse is how many new (origin v2) questions of one category may
	// cite the same clause; default 2 (seed 002 "超过 2 次").
	MaxClauseReuse int
	// MinCoverage is the 4-gram coverage below which a v1 answer warns;
	// default 0.45 (seed 002). CoverageN is the gram length, default 4.
	MinCoverage float64
	CoverageN   int
	// ConcentrationBound is the share of citations from one document above
	// which v2.doc-concentration warns; default 0.5 (seed 002 reports 79 %
	// for v1 and 55.3 % for the whole of v2). Strata with fewer than
	// ConcentrationMin citations are not judged (default 10).
	ConcentrationBound float64
	ConcentrationMin   int
	// RefusalPhrases are the accepted refuse answers besides null; default
	// 「资料中没有相关信息」 (seed 002).
	RefusalPhrases []string
	// RefusalThreshold flags a refuse question whose most similar corpus
	// passage covers ≥ it of the question (scale [0, 1], see lexIndex).
	// Default 0.22: on testdata/fixture and on an independently written
	// fixture the planted answerable "refuse" questions score 0.38 and 0.25,
	// genuine refuse questions at most 0.21 and 0.18 (answerable medians
	// about 0.28). It is NOT seed 002's 0.65, an embedding similarity on
	// another scale.
	RefusalThreshold float64
	// SimilarityGrams are the character n-gram lengths of the TF-IDF
	// similarity; default {2, 3}.
	SimilarityGrams []int
	// DocNear, ChunkNear and QuestionNear are the Jaccard thresholds of near
	// duplicates (the exact Jaccard of the shingle sets; MinHash only
	// proposes candidates): seed 003 §3.3's 0.92 (documents) and 0.95 (chunks);
	// 0.80 for questions (see docs/audit.md for why lower).
	DocNear      float64
	ChunkNear    float64
	QuestionNear float64
	// DocShingle and QuestionShingle are the shingle lengths in characters
	// (documents and chunks: 5; questions: 3). MinHashes is the sketch's
	// number of bins k (default 128); Seed seeds the hash family (default 42).
	DocShingle      int
	QuestionShingle int
	MinHashes       int
	Seed            uint64
	// MinLeakChars is the shortest reference answer / question (characters
	// after removing whitespace and punctuation) looked up in the corpus by
	// the gold-leak check; default 8 — a shorter text ("0.86%") appears by
	// chance.
	MinLeakChars int
	// ResolutionP is the accuracy at which the design table states the
	// ± resolution of each split; default 0.8 (seed 002).
	ResolutionP float64
	// PassageChars is how many characters of a passage the report shows; default 160.
	PassageChars int
}

// DefaultOptions returns the seeds' values (and the calibrated refusal
// threshold).
func DefaultOptions() Options {
	return Options{
		Targets:            map[string]float64{"direct": 0.25, "conditional": 0.25, "cross": 0.25, "refuse": 0.25},
		QuotaTolerance:     0.05,
		MaxClauseReuse:     2,
		MinCoverage:        0.45,
		CoverageN:          4,
		ConcentrationBound: 0.5,
		ConcentrationMin:   10,
		RefusalPhrases:     []string{"资料中没有相关信息"},
		RefusalThreshold:   0.22,
		SimilarityGrams:    []int{2, 3},
		DocNear:            0.92,
		ChunkNear:          0.95,
		QuestionNear:       0.80,
		DocShingle:         5,
		QuestionShingle:    3,
		MinHashes:          128,
		Seed:               42,
		MinLeakChars:       8,
		ResolutionP:        0.8,
		PassageChars:       160,
	}
}

// withDefaults fills zero fields of o from DefaultOptions.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Targets == nil {
		o.Targets = d.Targets
	}
	fz := func(p *float64, v float64) {
		if *p == 0 {
			*p = v
		}
	}
	iz := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	fz(&o.QuotaTolerance, d.QuotaTolerance)
	iz(&o.MaxClauseReuse, d.MaxClauseReuse)
	fz(&o.MinCoverage, d.MinCoverage)
	iz(&o.CoverageN, d.CoverageN)
	fz(&o.ConcentrationBound, d.ConcentrationBound)
	iz(&o.ConcentrationMin, d.ConcentrationMin)
	if o.RefusalPhrases == nil {
		o.RefusalPhrases = d.RefusalPhrases
	}
	fz(&o.RefusalThreshold, d.RefusalThreshold)
	if len(o.SimilarityGrams) == 0 {
		o.SimilarityGrams = d.SimilarityGrams
	}
	fz(&o.DocNear, d.DocNear)
	fz(&o.ChunkNear, d.ChunkNear)
	fz(&o.QuestionNear, d.QuestionNear)
	iz(&o.DocShingle, d.DocShingle)
	iz(&o.QuestionShingle, d.QuestionShingle)
	iz(&o.MinHashes, d.MinHashes)
	if o.Seed == 0 {
		o.Seed = d.Seed
	}
	iz(&o.MinLeakChars, d.MinLeakChars)
	fz(&o.ResolutionP, d.ResolutionP)
	iz(&o.PassageChars, d.PassageChars)
	return o
}

// config lists o in a stable order for the report's Config block.
func (o Options) config() []report.KV {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	var targets []string
	for _, c := range slices.Sorted(maps.Keys(o.Targets)) {
		targets = append(targets, fmt.Sprintf("%s=%s", c, f(o.Targets[c])))
	}
	grams := make([]string, len(o.SimilarityGrams))
	for i, g := range o.SimilarityGrams {
		grams[i] = strconv.Itoa(g)
	}
	return []report.KV{
		{Key: "targets", Value: strings.Join(targets, ",")},
		{Key: "quota_tolerance", Value: f(o.QuotaTolerance)},
		{Key: "max_clause_reuse", Value: strconv.Itoa(o.MaxClauseReuse)},
		{Key: "min_coverage", Value: f(o.MinCoverage)},
		{Key: "coverage_n", Value: strconv.Itoa(o.CoverageN)},
		{Key: "concentration_bound", Value: f(o.ConcentrationBound)},
		{Key: "concentration_min_citations", Value: strconv.Itoa(o.ConcentrationMin)},
		{Key: "refusal_phrases", Value: strings.Join(o.RefusalPhrases, " | ")},
		{Key: "refusal_threshold", Value: f(o.RefusalThreshold)},
		{Key: "similarity", Value: "idf²-weighted coverage of the question's character n-grams, n=" + strings.Join(grams, ",")},
		{Key: "review_queue", Value: reviewQueueConfig},
		{Key: "doc_near", Value: f(o.DocNear)},
		{Key: "chunk_near", Value: f(o.ChunkNear)},
		{Key: "question_near", Value: f(o.QuestionNear)},
		{Key: "doc_shingle", Value: strconv.Itoa(o.DocShingle)},
		{Key: "question_shingle", Value: strconv.Itoa(o.QuestionShingle)},
		{Key: "minhashes", Value: strconv.Itoa(o.MinHashes)},
		{Key: "seed", Value: strconv.FormatUint(o.Seed, 10)},
		{Key: "min_leak_chars", Value: strconv.Itoa(o.MinLeakChars)},
		{Key: "resolution_p", Value: f(o.ResolutionP)},
	}
}
