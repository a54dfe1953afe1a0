package trec

import "math"

// gm_map is map with a geometric mean over queries: each query stores
// log(max(AP, 1e-5)) and the summary is exp(mean). Summary only (m_gm_map.c).
var _ = register(&Measure{
	Name: "gm_map",
	Help: "Geometric Mean Average Precision: AP per topic as in map, combined with the geometric mean " +
		"exp(mean(log(max(AP, 0.00001)))). Rewards consistency across topics. Reported only in the summary.",
	Value:   Float,
	Average: AvgGeo,
	Summary: true,
	calc: func(q *query, in *instance, out []float64) {
		out[in.off] = math.Log(math.Max(averagePrecision(q), minGeoMean))
	},
})
