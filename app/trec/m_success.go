package trec

// success_k = 1 if a relevant doc is in the top k, else 0 (m_success.c).
var _ = register(&Measure{
	Name:     "success",
	Help:     "Success at cutoffs: 1 if a relevant doc is retrieved in the top k, else 0 (Hit@k).",
	Params:   LongCutoffs,
	Default:  "1,5,10",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		atCutoffs(q, in, out, func(rel, _ int64) float64 {
			if rel > 0 {
				return 1
			}
			return 0
		})
	},
})
