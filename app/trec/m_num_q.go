package trec

// num_q: the number of queries evaluated (all qrels queries under -c).
var _ = register(&Measure{
	Name:    "num_q",
	Help:    "Number of topics results averaged over (qrels queries found in the run, or every qrels query with -c).",
	Value:   Int,
	Average: AvgCount,
	Summary: true,
	calc:    func(_ *query, in *instance, out []float64) { out[in.off] = 1 },
})
