package trec

// recip_rank is 1/rank of the first relevant doc, 0 if none is retrieved
// (m_recip_rank.c).
var _ = register(&Measure{
	Name:     "recip_rank",
	Help:     "Reciprocal rank of the first relevant retrieved doc (0 if none). Averaged over topics this is MRR.",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		for i := range q.rels {
			if q.isRel(i) {
				out[in.off] = 1 / float64(i+1)
				return
			}
		}
	},
})
