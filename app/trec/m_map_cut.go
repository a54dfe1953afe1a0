package trec

// map_cut_k = (1/R) * Σ_{i ≤ k, rel(i)} (relevant in top i)/i; 0 when R = 0
// (m_map_cut.c).
var _ = register(&Measure{
	Name:     "map_cut",
	Help:     "Mean average precision at cutoffs: AP computed over the top k docs only, still divided by R.",
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
		ci := 0
		relSoFar := 0
		sum := 0.0
		r := float64(q.numRel)
		for i := 0; i < len(q.rels) && ci < len(in.longs); i++ {
			for ci < len(in.longs) && int64(i) == in.longs[ci] {
				out[in.off+ci] = sum / r
				ci++
			}
			if ci < len(in.longs) && q.isRel(i) {
				relSoFar++
				sum += float64(relSoFar) / float64(i+1)
			}
		}
		for ; ci < len(in.longs); ci++ {
			out[in.off+ci] = sum / r
		}
	},
})
