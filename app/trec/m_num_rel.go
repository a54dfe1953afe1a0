package trec

// num_rel: R, the qrels docs with grade >= -l, retrieved or not. Under -c
// the summary is computed in summarise (completeNumRel), as te_calc_avg_num_rel does.
var _ = register(&Measure{
	Name:     "num_rel",
	Help:     "Number of relevant documents for the topic (qrels grade >= -l level, retrieved or not). Summary figure is the sum over topics; under -c it is the number of qrels lines with rel > 0, whatever -l says.",
	Value:    Int,
	Average:  AvgSum,
	PerQuery: true,
	Summary:  true,
	calc:     func(q *query, in *instance, out []float64) { out[in.off] = float64(q.numRel) },
})
