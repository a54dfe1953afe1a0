package metrics

// mrrFamily is the reciprocal rank of the first relevant unit; "mrr" looks
// at the whole ranking (trec_eval recip_rank), "mrr@k" at the top k only.
// The mean over items is the MRR.
var mrrFamily = Family{
	Name:    "mrr",
	Group:   GroupRetrieval,
	Cutoff:  OptionalCutoff,
	Help:    "Reciprocal rank of the first relevant unit (seed 003: grade ≥ 2; b-2: first gold hit); 0 when none in the top k.",
	Formula: "1 / min{i ≤ k : grade_i ≥ L}  (0 when none)",
	Source:  "seed 000 §4 (MRR); seed 003 §7 (MRR@K); trec_eval recip_rank",
	Thresholds: map[int]Threshold{
		10: initial(0.60, "seed 003 §7 (initial MRR@10)"),
	},
	RerankThresholds: map[int]Threshold{
		10: rerank(0.70, "seed 003 §7 (rerank MRR@10)"),
	},
	HigherIsBetter: true,
	Compute:        reciprocalRank,
}

func reciprocalRank(q *Query, k int) float64 {
	for i, c := range top(q, k) {
		if relevant(c, q.level()) {
			return 1 / float64(i+1)
		}
	}
	return 0
}
