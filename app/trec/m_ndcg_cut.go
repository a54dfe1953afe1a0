package trec

import "math"

// ndcg_cut_k = DCG@k / IDCG@k with linear gains equal to the raw qrels grade:
//
//	DCG@k = Σ_{i ≤ k, g_i > 0} g_i / log2(i + 1)
//
// The ideal list is every qrels doc with grade ≥ 1 (retrieved or not) sorted
// by grade; -l is ignored; if fewer than k docs were retrieved DCG just stops
// (m_ndcg_cut.c).
var _ = register(&Measure{
	Name: "ndcg_cut",
	Help: "Normalized Discounted Cumulative Gain at cutoffs (Jarvelin and Kekalainen, ACM TOIS 20, 2002). Gains are the " +
		"qrels grades (linear, not 2^g-1), discount log2(rank+1); the ideal ranking uses every judged doc with grade >= 1. " +
		"Ignores -l.",
	Params:   LongCutoffs,
	Default:  "5,10,15,20,30,100,200,500,1000",
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		cuts := in.longs
		ci := 0
		sum := 0.0
		for i := 0; i < len(q.rels) && ci < len(cuts); i++ {
			for ci < len(cuts) && int64(i) == cuts[ci] {
				out[in.off+ci] = sum
				ci++
			}
			if ci < len(cuts) && q.rels[i] > 0 {
				sum += float64(q.rels[i]) / math.Log2(float64(i+2))
			}
		}
		for ; ci < len(cuts); ci++ {
			out[in.off+ci] = sum
		}
		// Ideal DCG: walk grades from the highest down.
		ci = 0
		cur := q.numRelLevels - 1
		var count int64
		ideal := 0.0
		for i := int64(0); ; i++ {
			count++
			for cur > 0 && count > q.relLevels[cur] {
				cur--
				count = 1
			}
			if cur <= 0 {
				break
			}
			if i == cuts[ci] {
				if ideal > 0 {
					out[in.off+ci] /= ideal
				}
				ci++
				if ci == len(cuts) {
					break
				}
			}
			ideal += float64(cur) / math.Log2(float64(i+2))
		}
		for ; ci < len(cuts); ci++ {
			if ideal > 0 {
				out[in.off+ci] /= ideal
			}
		}
	},
})
