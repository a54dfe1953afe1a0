package metrics

// hitFamily is Hit@k (success@k): whether the top k hold at least one
// relevant unit — an evidence of grade ≥ 2 for seed 003, a gold atom for b-2.
var hitFamily = Family{
	Name:    "hit",
	Group:   GroupRetrieval,
	Cutoff:  RequiresCutoff,
	Help:    "Hit@k (success@k): 1 when the top k contain at least one relevant unit (seed 003: grade ≥ 2; b-2: a gold atom).",
	Formula: "[∃ i ≤ k : grade_i ≥ L]",
	Source:  "seed 003 §7 (Hit@K); trec_eval success_k",
	Thresholds: map[int]Threshold{
		20: initial(0.85, "seed 003 §7 (initial Hit@20)"),
		50: initial(0.93, "seed 003 §7 (initial Hit@50)"),
	},
	RerankThresholds: map[int]Threshold{
		5: rerank(0.80, "seed 003 §7 (rerank Hit@5)"),
	},
	HigherIsBetter: true,
	Binary:         true,
	Compute:        hitAt,
}

func hitAt(q *Query, k int) float64 {
	for _, c := range top(q, k) {
		if relevant(c, q.level()) {
			return 1
		}
	}
	return 0
}
