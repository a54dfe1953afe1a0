package trec

// infAP (Yilmaz & Aslam, CIKM 2006), as computed by trec_eval's m_infap.c:
// for each judged relevant doc at 0-based rank j > 0,
//
//	1/(j+1) + (j/(j+1)) · ((rel−1 + nonrel + unjudged)/j) · ((rel−1 + ε)/(rel−1 + nonrel + 2ε))
//
// (1 at j = 0), summed and divided by R; ε = 0.00001. Non-pool docs are
// skipped, pooled-but-unjudged docs (negative grades) are counted separately.
var _ = register(&Measure{
	Name: "infAP",
	Help: "Inferred AP: allows a sampled judgment pool. Precision at each relevant doc uses only the judged docs above it, " +
		"with zeros averaged in for docs above it that were not in the pool; pooled but unjudged docs (negative grade) " +
		"are assumed relevant in the same proportion as the judged ones. Cite: 'Estimating Average Precision with " +
		"Incomplete and Imperfect Judgments', Emine Yilmaz and Javed A. Aslam, CIKM 2006.",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		var nonrel, rel, unjudged int64
		ap := 0.0
		for j, v := range q.rels {
			if v == relNonpool {
				continue
			}
			if v == relUnjudged {
				unjudged++
				continue
			}
			if v >= 0 && v < q.relLevel {
				nonrel++
				continue
			}
			rel++
			if j == 0 {
				ap += 1.0
				continue
			}
			fj := float64(j)
			ap += 1.0/(fj+1.0) + (fj/(fj+1.0))*
				(float64(rel-1+nonrel+unjudged)/fj)*
				((float64(rel-1)+infapEpsilon)/(float64(rel-1+nonrel)+2*infapEpsilon))
		}
		if q.numRel != 0 {
			ap /= float64(q.numRel)
		}
		out[in.off] = ap
	},
})
