package trec

// recall_k = (relevant in top k) / R; 0 when R = 0 (m_recall.c).
var _ = register(&Measure{
	Name:     "recall",
	Help:     "Recall at cutoffs: relevant docs in the top k divided by R (num_rel); 0 when the topic has no relevant docs.",
	Params:   LongCutoffs,
	Default:  "5,10,15,20,30,100,200,500,1000",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		if q.numRel == 0 {
			return
		}
		atCutoffs(q, in, out, func(rel, _ int64) float64 { return float64(rel) / float64(q.numRel) })
	},
})
