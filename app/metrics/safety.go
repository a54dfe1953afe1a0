package metrics

// falseRecallFamily is seed 000's false-recall rate on unanswerable items:
// the item "returned strong evidence" when the run did not abstain
// (refused=true) and its top k hold a strong candidate — score ≥ the
// strong-evidence threshold, or any candidate when the run gives no scores.
var falseRecallFamily = Family{
	Name:    "false_recall",
	Group:   GroupSafety,
	Cutoff:  RequiresCutoff,
	Help:    "Unanswerable items only: 1 when the run did not abstain (no refused flag, no refusal phrase in its answer) and returned strong evidence in the top k (a candidate with score ≥ the strong-evidence threshold, or any candidate when the run gives no scores). Lower is better.",
	Formula: "[¬abstained ∧ ∃ i ≤ k : strong_i]",
	Source:  "seed 000 §2.3, §4 (误召回率)",
	Thresholds: map[int]Threshold{
		10: th("<=", 0.10, "seed 000 §4"),
	},
	Binary:  true,
	Compute: falseRecall,
}

func falseRecall(q *Query, k int) float64 {
	if q.Abstained {
		return 0
	}
	return 1 - noneInTop(q, k, func(c Candidate) bool { return c.Strong })
}

// temporalFamily is seed 000's temporal correctness: no atom observed after
// the item's as_of among the top k (an atom without observed_at is not a
// violation: nothing says it is from the future).
var temporalFamily = Family{
	Name:    "temporal_correctness",
	Group:   GroupSafety,
	Cutoff:  RequiresCutoff,
	Help:    "Items with as_of: 1 when no atom in the top k has observed_at later than the item's as_of.",
	Formula: "[∄ i ≤ k : observed_at_i > as_of]",
	Source:  "seed 000 §2.4, §4 (时间正确性)",
	Thresholds: map[int]Threshold{
		10: th(">=", 0.95, "seed 000 §4"),
	},
	HigherIsBetter: true,
	Binary:         true,
	Compute: func(q *Query, k int) float64 {
		return noneInTop(q, k, func(c Candidate) bool { return c.Future })
	},
}

// holderFamily is seed 000's holder correctness: no atom of another
// scope.holder among the top k (cross-holder leakage is an error).
var holderFamily = Family{
	Name:    "holder_correctness",
	Group:   GroupSafety,
	Cutoff:  RequiresCutoff,
	Help:    "Items with a scope.holder: 1 when no atom in the top k belongs to another holder.",
	Formula: "[∄ i ≤ k : holder_i ∉ {\"\", scope.holder}]",
	Source:  "seed 000 §2.5, §4 (holder 正确性)",
	Thresholds: map[int]Threshold{
		10: th(">=", 0.95, "seed 000 §4"),
	},
	HigherIsBetter: true,
	Binary:         true,
	Compute: func(q *Query, k int) float64 {
		return noneInTop(q, k, func(c Candidate) bool { return c.OtherHolder })
	},
}
