package trec

// 11pt_avg is the mean of the interpolated precisions at the given recall
// levels (default the 11 points 0.0..1.0), computed as iprec_at_recall with
// v10's lround cutoffs (m_11pt_avg.c).
var _ = register(&Measure{
	Name: "11pt_avg",
	Help: "Interpolated precision averaged over 11 recall points (0.0, 0.1, ..., 1.0). Obsolete; kept for comparing old runs. " +
		"The name does not change with the parameters: '-m 11pt_avg.0.2,0.5,0.8' gives the old 3-point average.",
	Params:   DoubleParams,
	Default:  "0.0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		sum := 0.0
		interpolatedPrecision(q, recallCutoffs(in.doubles, q.numRel), func(_ int, p float64) { sum += p })
		out[in.off] = sum / float64(len(in.doubles))
	},
})
