package trec

import "math"

// binG = (1/R) · Σ_{relevant doc at 0-based rank i} 1/log2(2 + nonrel above it),
// where nonrel above = i + 1 − (relevant so far) (m_binG.c, experimental).
var _ = register(&Measure{
	Name: "binG",
	Help: "Binary G (experimental, trec_eval 2008): the average over relevant docs of 1/log2(2 + number of " +
		"non-relevant docs retrieved before it), normalised by R.",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		relSoFar := 0
		sum := 0.0
		for i := range q.rels {
			if q.isRel(i) {
				relSoFar++
				sum += 1.0 / math.Log2(float64(3+i-relSoFar))
			}
		}
		if relSoFar != 0 {
			out[in.off] = sum / float64(q.numRel)
		}
	},
})
