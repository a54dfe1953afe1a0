package trec

// iprec_at_recall: interpolated precision at recall levels,
//
//	iprec(p) = max_{k ≥ k_p} P@k,  k_p = rank where lround(p·R) relevant docs are reached
//
// with trec_eval v10's lround cutoff (v9 used (long)(p·R+0.9)).
var _ = register(&Measure{
	Name: "iprec_at_recall",
	Help: "Interpolated precision at recall cutoffs (the standard recall-precision graph): " +
		"Int_Prec(rank X) = max Prec(rank Y) for Y >= X; the cutoff p is reached after lround(p*R) relevant docs (trec_eval v10).",
	Params:   DoubleCutoffs,
	Default:  "0.0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		interpolatedPrecision(q, recallCutoffs(in.doubles, q.numRel), func(c int, p float64) { out[in.off+c] = p })
	},
})
