package trec

// relative_P_k = (relevant in top k) / min(k, R): precision up to R, recall
// after it; 0 when R = 0 (m_rel_P.c).
var _ = register(&Measure{
	Name:     "relative_P",
	Help:     "Relative precision at cutoffs: precision at k relative to the best possible, (relevant in top k) / min(k, R).",
	Params:   LongCutoffs,
	Default:  "5,10,15,20,30,100,200,500,1000",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		if q.numRel == 0 {
			return
		}
		atCutoffs(q, in, out, func(rel, k int64) float64 { return float64(rel) / float64(min(k, q.numRel)) })
	},
})
