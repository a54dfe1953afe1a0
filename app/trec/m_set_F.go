package trec

// set_F = (x+1)·P·R / (x·P + R) with set precision P, set recall R and
// parameter x (default 1, the harmonic mean); 0 with no relevant retrieved
// (m_set_F.c, van Rijsbergen's E measure).
var _ = register(&Measure{
	Name: "set_F",
	Help: "Set F measure: weighted harmonic mean of set recall and precision, (x+1)*P*R/(R + x*P), x = relative " +
		"importance of R to P (default 1.0). Cite: van Rijsbergen, 'Information Retrieval', Butterworths 1979.",
	Params:   DoubleParams,
	Default:  "1.0",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		if q.numRelRet == 0 {
			return
		}
		p := float64(q.numRelRet) / float64(q.numRet)
		r := float64(q.numRelRet) / float64(q.numRel)
		x := in.doubles[0]
		out[in.off] = (x + 1.0) * p * r / (x*p + r)
	},
})
