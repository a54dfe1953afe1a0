package trec

import "math"

// Rndcg averages ndcg at the R-level boundaries: the ranks where the ideal
// gain changes (the number of docs at each positive gain level, in
// decreasing gain order) plus the end of the retrieved list (m_Rndcg.c,
// experimental). Example from trec_eval: 5 docs of gain 3, 3 of gain 2, 10 of
// gain 1, 50 of gain 0 give (ndcg@5 + ndcg@8 + ndcg@18 + ndcg@68)/4.
var _ = register(&Measure{
	Name: "Rndcg",
	Help: "Normalized DCG averaged at the R levels (experimental): ndcg at each rank where the ideal gain level changes, " +
		"and at the end of the retrieved list. Gains as for ndcg.",
	Params:   GainPairs,
	Value:    Float,
	Average:  AvgMean,
	PerQuery: true,
	Summary:  true,
	calc: func(q *query, in *instance, out []float64) {
		gains := setupGains(in, q)
		if q.numRel == 0 {
			return
		}
		w := newIdealWalker(gains)
		old := w.gain
		dcg, idcg, sum := 0.0, 0.0, 0.0
		var changes int64
		// boundary adds ndcg at the current rank (once the ideal DCG is
		// positive) to the average.
		boundary := func() {
			if idcg > 0 {
				sum += dcg / idcg
				changes++
			}
		}
		i := 0
		for ; i < len(q.rels) && w.gain > 0; i++ {
			g := gainOf(q.rels[i], gains)
			ig := w.next()
			if old != ig {
				boundary()
				old = ig
			}
			if g != 0 {
				dcg += g / math.Log2(float64(i+2))
			}
			if ig > 0 {
				idcg += ig / math.Log2(float64(i+2))
			}
		}
		if i < len(q.rels) {
			for ; i < len(q.rels); i++ {
				if g := gainOf(q.rels[i], gains); g != 0 {
					dcg += g / math.Log2(float64(i+2))
				}
			}
			boundary()
		}
		for ; w.gain > 0; i++ {
			ig := w.next()
			if old != ig {
				boundary()
				old = ig
			}
			if ig > 0 {
				idcg += ig / math.Log2(float64(i+2))
			}
		}
		out[in.off] = sum / float64(changes)
	},
})
