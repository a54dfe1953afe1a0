package trec

// set_map = num_rel_ret² / (num_ret · R): set precision times set recall
// (m_set_map.c; "exact_unranked_avg_prec" in old trec_eval).
var _ = register(&Measure{
	Name:     "set_map",
	Help:     "Unranked set MAP: (relevant retrieved)^2 / (retrieved * R), i.e. set precision times set recall.",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		if q.numRet != 0 && q.numRel != 0 {
			out[in.off] = float64(q.numRelRet) * float64(q.numRelRet) / (float64(q.numRet) * float64(q.numRel))
		}
	},
})
