package trec

import "math"

// ndcg = DCG / IDCG over the whole ranking (m_ndcg.c, Jarvelin & Kekalainen
// 2002) with gain(level) = level unless overridden by "level=gain" pairs:
//
//	DCG = Σ_i gain(rel_i) / log2(i + 1),  IDCG = the same over the ideal ranking
//
// Levels with gain <= 0 are left out of the ideal ranking.
var _ = register(&Measure{
	Name: "ndcg",
	Help: "Normalized Discounted Cumulative Gain over the whole ranking (Jarvelin and Kekalainen, ACM TOIS 20, 2002). " +
		"Gain = relevance level by default; override with 'ndcg.1=3.5,2=9.0' (levels not given keep gain = level). " +
		"Gains may be 0 or negative; level 0 can be given a gain. Note trec_eval sorts gains with an integer-truncating " +
		"comparator, so fractional gains closer than 1 are not ordered (reproduced).",
	Params:   GainPairs,
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		gains := setupGains(in, q)
		w := newIdealWalker(gains)
		dcg, idcg := 0.0, 0.0
		i := 0
		for ; i < len(q.rels) && w.gain > 0; i++ {
			if g := gainOf(q.rels[i], gains); g != 0 {
				dcg += g / math.Log2(float64(i+2))
			}
			if ig := w.next(); ig > 0 {
				idcg += ig / math.Log2(float64(i+2))
			}
		}
		for ; i < len(q.rels); i++ {
			if g := gainOf(q.rels[i], gains); g != 0 {
				dcg += g / math.Log2(float64(i+2))
			}
		}
		for ; w.gain > 0; i++ {
			if ig := w.next(); ig > 0 {
				idcg += ig / math.Log2(float64(i+2))
			}
		}
		if idcg > 0 {
			out[in.off] = dcg / idcg
		}
	},
})
