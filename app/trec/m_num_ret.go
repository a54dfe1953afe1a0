package trec

// num_ret: docs retrieved for the query after -M (and -J).
var _ = register(&Measure{
	Name:     "num_ret",
	Help:     "Number of documents retrieved for the topic (after -M and -J). Summary figure is the sum over topics, not an average.",
	Value:    Int,
	Average:  AvgSum,
	PerQuery: true,
	Summary:  true,
	calc:     func(q *query, in *instance, out []float64) { out[in.off] = float64(q.numRet) },
})
