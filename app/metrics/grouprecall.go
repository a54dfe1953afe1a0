package metrics

// groupRecallFamily is EvidenceGroupRecall@k: the share of required
// evidence groups covered in the top k.
var groupRecallFamily = Family{
	Name:    "evidence_group_recall",
	Group:   GroupRetrieval,
	Cutoff:  RequiresCutoff,
	Help:    "EvidenceGroupRecall@k: share of the required evidence groups with a unit in the top k (multi-hop items).",
	Formula: "|{g ∈ required : some unit of g in top k}| / |required|  (0 when none)",
	Source:  "seed 003 §7 (EvidenceGroupRecall@K)",
	Thresholds: map[int]Threshold{
		20: initial(0.85, "seed 003 §7 (multi-hop EvidenceGroupRecall@20)"),
	},
	HigherIsBetter: true,
	Compute:        groupRecall,
}

func groupRecall(q *Query, k int) float64 {
	n, required := requiredCovered(q, k)
	if required == 0 {
		return 0
	}
	return float64(n) / float64(required)
}
