package trec

// bpref (m_bpref.c, the corrected formula of trec_eval >= 8):
//
//	bpref = (1/R) * Σ_{judged relevant retrieved r} (1 − min(nonrel above r, R) / min(N, R))
//
// N is the number of judged non-relevant docs (0 <= grade < -l). Unjudged and
// non-pool docs are skipped entirely; a relevant doc with no judged
// non-relevant doc above it adds 1.
var _ = register(&Measure{
	Name: "bpref",
	Help: "Binary preference: for each judged relevant retrieved doc, 1 − (judged non-relevant docs ranked above it, " +
		"capped at R) / min(N, R); summed and divided by R. Unjudged docs are ignored. Cite: 'Retrieval Evaluation " +
		"with Incomplete Information', Chris Buckley and Ellen Voorhees, SIGIR 2004.",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc:     func(q *query, in *instance, out []float64) { out[in.off] = bprefValue(q) },
})

// bprefValue is shared by bpref and gm_bpref.
func bprefValue(q *query) float64 {
	var numNonrel int64
	for g := int64(0); g < q.relLevel && g < int64(len(q.relLevels)); g++ {
		numNonrel += q.relLevels[g]
	}
	var nonrelSoFar int64
	bpref := 0.0
	for _, rel := range q.rels {
		if rel == relNonpool || rel == relUnjudged {
			continue
		}
		if rel >= 0 && rel < q.relLevel {
			nonrelSoFar++
		} else if nonrelSoFar > 0 {
			bpref += 1.0 - float64(min(nonrelSoFar, q.numRel))/float64(min(numNonrel, q.numRel))
		} else {
			bpref += 1.0
		}
	}
	if q.numRel != 0 {
		bpref /= float64(q.numRel)
	}
	return bpref
}
