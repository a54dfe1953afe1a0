package metrics

// mapFamily is average precision (the mean over items is MAP), trec_eval's
// map: unretrieved relevant units add 0.
var mapFamily = Family{
	Name:           "map",
	Group:          GroupRetrieval,
	Cutoff:         NoCutoff,
	Help:           "Average precision over the whole ranking, divided by R (all relevant judged units, retrieved or not); the item mean is MAP.",
	Formula:        "Σ_{i : grade_i ≥ L} (|{j ≤ i : grade_j ≥ L}| / i) / R  (0 when R = 0)",
	Source:         "trec_eval map",
	HigherIsBetter: true,
	Compute:        averagePrecision,
}

func averagePrecision(q *Query, _ int) float64 {
	r := q.numRel()
	if r == 0 {
		return 0
	}
	sum, rel := 0.0, 0
	for i, c := range q.Ranked {
		if relevant(c, q.level()) {
			rel++
			sum += float64(rel) / float64(i+1)
		}
	}
	return sum / float64(r)
}
