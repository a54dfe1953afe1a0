package trec

// map is average precision of one query (averaged over queries in the summary):
//
//	AP = (1/R) * Σ_{i: rel(i)} (relevant in top i) / i
//
// Unretrieved relevant docs contribute 0; AP is 0 when nothing relevant is
// retrieved (m_map.c).
var _ = register(&Measure{
	Name: "map",
	Help: "Mean Average Precision: precision measured after each relevant doc is retrieved, " +
		"summed and divided by the number of relevant docs (unretrieved ones add 0), then averaged over topics. " +
		"Cite: 'Retrieval System Evaluation', Chris Buckley and Ellen Voorhees, ch. 3 in TREC: Experiment and " +
		"Evaluation in Information Retrieval, MIT Press 2005.",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc:     func(q *query, in *instance, out []float64) { out[in.off] = averagePrecision(q) },
})

// averagePrecision is shared by map and gm_map.
func averagePrecision(q *query) float64 {
	relSoFar := 0
	sum := 0.0
	for i := range q.rels {
		if q.isRel(i) {
			relSoFar++
			sum += float64(relSoFar) / float64(i+1)
		}
	}
	if relSoFar == 0 {
		return 0
	}
	return sum / float64(q.numRel)
}
