package trec

// set_P = num_rel_ret / num_ret over the whole retrieved set (m_set_P.c).
var _ = register(&Measure{
	Name:     "set_P",
	Help:     "Set precision: relevant retrieved / retrieved, over the whole retrieved set (use -M to bound it).",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		if q.numRet != 0 {
			out[in.off] = float64(q.numRelRet) / float64(q.numRet)
		}
	},
})
