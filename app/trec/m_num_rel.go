package trec

// num_rel: R, the qrels docs with grade >= -l, retrieved or not.
var _ = register(&Measure{
	Name:     "num_rel",
	Help:     "Number of relevant documents for the topic (qrels grade >= -l level, retrieved or not). Summary figure is the sum over topics.",
	Value:    Int,
	Average:  AvgSum,
	PerQuery: true,
	Summary:  true,
	calc:     func(q *query, in *instance, out []float64) { out[in.off] = float64(q.numRel) },
})
