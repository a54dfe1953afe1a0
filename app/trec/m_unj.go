package trec

// unj_k = (unjudged or non-pool docs in the top k) / k (m_unjudged.c, new in
// trec_eval v10). A "red flag" measure: high values mean the qrels do not
// cover the run.
var _ = register(&Measure{
	Name: "unj",
	Help: "Unjudged at cutoffs: the fraction of the top k docs that have no qrels judgment (k is the denominator even " +
		"when fewer docs were retrieved). High values at small k mean the run is poorly covered by the judgments.",
	Params:   LongCutoffs,
	Default:  "5,10,20",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		ci := 0
		var unj int64
		for i := 0; i < len(q.rels) && ci < len(in.longs); i++ {
			for ci < len(in.longs) && int64(i) == in.longs[ci] {
				out[in.off+ci] = float64(unj) / float64(i)
				ci++
			}
			if q.rels[i] == relNonpool || q.rels[i] == relUnjudged {
				unj++
			}
		}
		for ; ci < len(in.longs); ci++ {
			out[in.off+ci] = float64(unj) / float64(in.longs[ci])
		}
	},
})
