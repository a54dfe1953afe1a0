package trec

// Rprec_mult_x is precision at rank (long)(x·R + 0.9): the R-precision idea
// at multiples of R (m_Rprec_mult.c). Ranks beyond the retrieved docs give
// num_rel_ret / rank.
var _ = register(&Measure{
	Name: "Rprec_mult",
	Help: "Precision measured at multiples of R (num_rel): P at rank (long)(x*R+0.9) for each x; shows whether a method " +
		"is precision oriented (good at low multiples) or recall oriented.",
	Params:   DoubleCutoffs,
	Default:  "0.2,0.4,0.6,0.8,1.0,1.2,1.4,1.6,1.8,2.0",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		cut := make([]int64, len(in.doubles))
		for i, x := range in.doubles {
			cut[i] = int64(x*float64(q.numRel) + 0.9)
		}
		cur := len(cut) - 1
		for cur >= 0 && cut[cur] > q.numRet {
			out[in.off+cur] = float64(q.numRelRet) / float64(cut[cur])
			cur--
		}
		relSoFar := q.numRelRet
		for i := q.numRet; i > 0 && relSoFar > 0; i-- {
			precis := float64(relSoFar) / float64(i)
			for cur >= 0 && i == cut[cur] {
				out[in.off+cur] = precis
				cur--
			}
			if q.isRel(int(i - 1)) {
				relSoFar--
			}
		}
	},
})
