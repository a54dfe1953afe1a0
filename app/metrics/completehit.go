package metrics

// completeHitFamily is CompleteHit@k: every required evidence group of a
// multi-hop item is covered in the top k (seed 002's joint cross questions
// likewise need every provenance).
var completeHitFamily = Family{
	Name:    "complete_hit",
	Group:   GroupRetrieval,
	Cutoff:  RequiresCutoff,
	Help:    "CompleteHit@k: 1 when every required evidence group has a unit in the top k (multi-hop items).",
	Formula: "[∀ g ∈ required : some unit of g in top k]  (0 when no group is required)",
	Source:  "seed 003 §7 (CompleteHit@K); seed 002 (cross, joint: true)",
	Thresholds: map[int]Threshold{
		20: initial(0.70, "seed 003 §7 (multi-hop CompleteHit@20)"),
	},
	HigherIsBetter: true,
	Binary:         true,
	Compute:        completeHit,
}

func completeHit(q *Query, k int) float64 {
	n, required := requiredCovered(q, k)
	if required == 0 || n < required {
		return 0
	}
	return 1
}
