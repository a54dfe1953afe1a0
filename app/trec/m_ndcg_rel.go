package trec

import "math"

// ndcg_rel averages ndcg at each relevant doc (gain > 0); a relevant doc
// that was not retrieved contributes DCG(end)/IDCG at its ideal position
// (m_ndcg_rel.c, experimental).
var _ = register(&Measure{
	Name: "ndcg_rel",
	Help: "Normalized DCG averaged over relevant docs (experimental): ndcg measured at each relevant doc (gain > 0); " +
		"an unretrieved relevant doc counts DCG at the end of the ranking over the ideal DCG. Gains as for ndcg.",
	Params:   GainPairs,
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		gains := setupGains(in, q)
		w := newIdealWalker(gains)
		dcg, idcg, sum := 0.0, 0.0, 0.0
		var numRel, numRelRet int64
		i := 0
		for ; i < len(q.rels) && w.gain > 0; i++ {
			g := gainOf(q.rels[i], gains)
			if g != 0 {
				dcg += g / math.Log2(float64(i+2))
			}
			if ig := w.next(); ig > 0 {
				numRel++
				idcg += ig / math.Log2(float64(i+2))
			}
			if g > 0 {
				sum += dcg / idcg
				numRelRet++
			}
		}
		for ; i < len(q.rels); i++ {
			g := gainOf(q.rels[i], gains)
			if g != 0 {
				dcg += g / math.Log2(float64(i+2))
			}
			if g > 0 {
				sum += dcg / idcg
				numRelRet++
			}
		}
		for ; w.gain > 0; i++ {
			if ig := w.next(); ig > 0 {
				numRel++
				idcg += ig / math.Log2(float64(i+2))
			}
		}
		sum += float64(numRel-numRelRet) * dcg / idcg
		if sum > 0 {
			out[in.off] = sum / float64(numRel)
		}
	},
})
