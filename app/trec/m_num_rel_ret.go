package trec

// num_rel_ret: relevant docs among the retrieved ones.
var _ = register(&Measure{
	Name:     "num_rel_ret",
	Help:     "Number of relevant documents retrieved for the topic. Summary figure is the sum over topics.",
	Value:    Int,
	Average:  AvgSum,
	PerQuery: true,
	Summary:  true,
	calc:     func(q *query, in *instance, out []float64) { out[in.off] = float64(q.numRelRet) },
})
