package metrics

// judgedFamily is judged@k: the share of the top k that carries a judgment.
// Below 1 means the other figures at k rest partly on unjudged candidates
// (seed 003 §7: unjudged must be judged before scoring, never taken as 0).
var judgedFamily = Family{
	Name:           "judged",
	Group:          GroupRetrieval,
	Cutoff:         RequiresCutoff,
	Help:           "judged@k: share of the retrieved units in the top k that are judged (1 when nothing was retrieved). Below 1, the figures at k are flagged.",
	Formula:        "|{i ≤ k : judged_i}| / min(k, n)  (1 when n = 0)",
	Source:         "seed 003 §4.2 step 9, §7 (unjudged ≠ 0)",
	HigherIsBetter: true,
	Compute:        judgedAt,
}

func judgedAt(q *Query, k int) float64 {
	t := top(q, k)
	if len(t) == 0 {
		return 1
	}
	return float64(len(t)-Unjudged(q, k)) / float64(len(t))
}
