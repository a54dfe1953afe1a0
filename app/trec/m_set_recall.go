package trec

// set_recall = num_rel_ret / R (m_set_recall.c).
var _ = register(&Measure{
	Name:     "set_recall",
	Help:     "Set recall: relevant retrieved / R over the whole retrieved set.",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		if q.numRel != 0 {
			out[in.off] = float64(q.numRelRet) / float64(q.numRel)
		}
	},
})
