package trec

import "math"

// gm_bpref is bpref with a geometric mean over queries: each query stores
// log(max(bpref, 1e-5)); summary only (m_gm_bpref.c).
var _ = register(&Measure{
	Name: "gm_bpref",
	Help: "Binary preference (bpref) combined over topics with the geometric mean exp(mean(log(max(bpref, 0.00001)))). " +
		"Reported only in the summary.",
	Value:   Float,
	Average: AvgGeo,
	Summary: true,
	calc: func(q *query, in *instance, out []float64) {
		out[in.off] = math.Log(math.Max(bprefValue(q), minGeoMean))
	},
})
