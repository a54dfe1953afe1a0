package trec

// Rprec is precision after R docs: (relevant in top min(n,R)) / R, 0 when R
// or n is 0 (m_Rprec.c). The denominator stays R when fewer docs were retrieved.
var _ = register(&Measure{
	Name: "Rprec",
	Help: "R-Precision: precision after R (= num_rel) documents have been retrieved; the denominator is R " +
		"even if fewer docs were retrieved. Cite: Buckley and Voorhees, 'Retrieval System Evaluation', 2005.",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		k := min(q.numRet, q.numRel)
		if k == 0 {
			return
		}
		rel := 0
		for i := 0; i < int(k); i++ {
			if q.isRel(i) {
				rel++
			}
		}
		out[in.off] = float64(rel) / float64(q.numRel)
	},
})
