package trec

// utility = a·rel_ret + b·nonrel_ret + c·rel_not_ret + d·nonrel_not_ret with
// parameters a,b,c,d (default 1,-1,0,0); d needs -N (m_utility.c).
var _ = register(&Measure{
	Name: "utility",
	Help: "Set utility from the contingency table: p1*(relevant retrieved) + p2*(non-relevant retrieved) + " +
		"p3*(relevant not retrieved) + p4*(non-relevant not retrieved); parameters p1..p4, default 1,-1,0,0 " +
		"(p4 needs -N, the collection size). The summary is the average over topics.",
	Params:   DoubleParams,
	Default:  "1.0,-1.0,0.0,0.0",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		p := in.doubles
		out[in.off] = p[0]*float64(q.numRelRet) +
			p[1]*float64(q.numRet-q.numRelRet) +
			p[2]*float64(q.numRel-q.numRelRet) +
			p[3]*float64(q.numDocsColl+q.numRelRet-q.numRet-q.numRel)
	},
})
