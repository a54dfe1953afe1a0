package trec

// set_relative_P = num_rel_ret / min(num_ret, R) (m_set_rel_P.c).
var _ = register(&Measure{
	Name:     "set_relative_P",
	Help:     "Relative set precision: relevant retrieved / min(retrieved, R), the set precision relative to the best possible for a set of that size.",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		if q.numRet != 0 && q.numRel != 0 {
			out[in.off] = float64(q.numRelRet) / float64(min(q.numRet, q.numRel))
		}
	},
})
