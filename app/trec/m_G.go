package trec

import "math"

// G (experimental, trec_eval 2008): a doc at rank i contributes
//
//	gain(doc) / log2(2 + cost_i − results_gain_i)
//
// where results_gain_i sums the gains retrieved so far and cost_i sums
// max(ideal gain, 1) so far; the total is divided by the ideal total gain
// (m_G.c).
var _ = register(&Measure{
	Name: "G",
	Help: "Normalized gain G (experimental, 2008), combining qualities of MAP and NDCG: a doc at rank i contributes " +
		"gain/log2(2 + ideal_gain(i) - results_gain(i)); the sum is normalised by the maximum ideal gain. " +
		"Gains as for ndcg ('G.1=3.5,2=9.0').",
	Params:   GainPairs,
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		gains := setupGains(in, q)
		w := newIdealWalker(gains)
		const minCost = 1.0
		resultsG, sumResults, sumIdeal, sumCost := 0.0, 0.0, 0.0, 0.0
		i := 0
		for ; i < len(q.rels) && w.gain > 0; i++ {
			g := gainOf(q.rels[i], gains)
			sumResults += g
			ig := w.next()
			if ig > 0 {
				sumIdeal += ig
			}
			if ig >= minCost {
				sumCost += ig
			} else {
				sumCost += minCost
			}
			if g != 0 {
				resultsG += g / math.Log2(2+sumCost-sumResults)
			}
		}
		for ; i < len(q.rels); i++ {
			g := gainOf(q.rels[i], gains)
			sumResults += g
			sumCost += minCost
			if g != 0 {
				resultsG += g / math.Log2(2+sumCost-sumResults)
			}
		}
		for w.gain > 0 {
			if ig := w.next(); ig > 0 {
				sumIdeal += ig
			}
		}
		if sumIdeal > 0 {
			out[in.off] = resultsG / sumIdeal
		}
	},
})
