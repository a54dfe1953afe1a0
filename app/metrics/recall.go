package metrics

// recallFamily is seed 000's recall@k, computed as gold coverage: the share
// of the item's gold entries (evidence groups) with at least one resolved
// atom in the top k. It is not trec_eval's recall_k (relevant atoms / R): a
// gold page split into five atoms is covered by any one of them.
var recallFamily = Family{
	Name:    "recall",
	Group:   GroupRetrieval,
	Cutoff:  RequiresCutoff,
	Help:    "Gold coverage: share of the item's gold entries with at least one resolved atom in the top k.",
	Formula: "|{g ∈ gold : some atom of g in top k}| / |gold|  (0 when |gold| = 0)",
	Source:  "seed 000 §4 (recall@10 按 gold 覆盖); equals trec_eval recall_k when every relevant doc is its own gold entry (TREC qrels)",
	Thresholds: map[int]Threshold{
		10: th(">=", 0.90, "seed 000 §4"),
	},
	HigherIsBetter: true,
	Compute:        goldCoverage,
}

func goldCoverage(q *Query, k int) float64 {
	if q.NumGold == 0 {
		return 0
	}
	n := 0
	for g := range covered(q, k) {
		if g >= 0 && g < q.NumGold {
			n++
		}
	}
	return float64(n) / float64(q.NumGold)
}
