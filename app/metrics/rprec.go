package metrics

// rprecFamily is R-precision as trec_eval computes it: relevant units in the
// top R, divided by R (not by min(n, R)).
var rprecFamily = Family{
	Name:           "rprec",
	Group:          GroupRetrieval,
	Cutoff:         NoCutoff,
	Help:           "R-precision: relevant units in the top R divided by R (trec_eval Rprec).",
	Formula:        "|{i ≤ R : grade_i ≥ L}| / R  (0 when R = 0)",
	Source:         "trec_eval Rprec",
	HigherIsBetter: true,
	Compute:        rPrecision,
}

func rPrecision(q *Query, _ int) float64 {
	r := q.numRel()
	if r == 0 {
		return 0
	}
	return float64(relevantInTop(q, r)) / float64(r)
}
