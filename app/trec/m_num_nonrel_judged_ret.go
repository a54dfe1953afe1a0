package trec

// num_nonrel_judged_ret = retrieved docs judged non-relevant
// (num_ret − non-pool − unjudged − num_rel_ret); summed in the summary.
var _ = register(&Measure{
	Name:     "num_nonrel_judged_ret",
	Help:     "Number of non-relevant judged documents retrieved for the topic. Summary figure is the sum over topics.",
	Value:    Int,
	Average:  AvgSum,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		out[in.off] = float64(q.numRet - q.numNonpool - q.numUnjudged - q.numRelRet)
	},
})
