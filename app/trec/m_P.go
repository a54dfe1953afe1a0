package trec

// P_k = (relevant in top k) / k. The denominator stays k when fewer than k
// docs were retrieved (m_P.c).
var _ = register(&Measure{
	Name: "P",
	Help: "Precision at cutoffs: relevant docs in the top k divided by k (k, not the number retrieved, " +
		"even when fewer than k docs were retrieved).",
	Params:   LongCutoffs,
	Default:  "5,10,15,20,30,100,200,500,1000",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		atCutoffs(q, in, out, func(rel, k int64) float64 { return float64(rel) / float64(k) })
	},
})
