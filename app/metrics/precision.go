package metrics

// precisionFamily is P@k as trec_eval computes it: the denominator stays k
// even when fewer than k units were retrieved.
var precisionFamily = Family{
	Name:           "p",
	Group:          GroupRetrieval,
	Cutoff:         RequiresCutoff,
	Help:           "Precision at k: relevant units in the top k divided by k (k even when fewer were retrieved, as trec_eval P_k).",
	Formula:        "|{i ≤ k : grade_i ≥ L}| / k",
	Source:         "trec_eval P_k",
	HigherIsBetter: true,
	Compute:        precisionAt,
}

func precisionAt(q *Query, k int) float64 {
	if k <= 0 {
		return 0
	}
	return float64(relevantInTop(q, k)) / float64(k)
}
