package metrics

import (
	"eval752/app/fmath"

	"sort"
)

// ndcgFamily is nDCG@k with linear gains (gain = grade), the convention of
// trec_eval's ndcg_cut: binary gains for b-2 and v2 (gold = 1), graded 0–3
// for seed 003. The ideal list is every judged unit of grade ≥ 1 of the
// run-specific qrels, retrieved or not, sorted by grade and cut at k.
// Unjudged candidates gain nothing (the figure is then a lower bound and is
// flagged, never silently treated as judged non-relevant).
var ndcgFamily = Family{
	Name:    "ndcg",
	Group:   GroupRetrieval,
	Cutoff:  OptionalCutoff,
	Help:    "nDCG@k, linear gain = grade (binary for b-2/v2, 0–3 for seed 003); ideal = all judged units of grade ≥ 1 (trec_eval ndcg_cut convention). Unjudged candidates gain 0 and flag the item.",
	Formula: "DCG@k / IDCG@k, DCG@k = Σ_{i≤k} grade_i / log2(i+1); IDCG@k over the sorted judged grades; 0 when IDCG = 0",
	Source:  "seed 000 §4 (nDCG@10 二值相关); seed 003 §7 (nDCG@K 0–3 等级); Järvelin & Kekäläinen 2002",
	Thresholds: map[int]Threshold{
		10: initial(0.65, "seed 003 §7 (initial nDCG@10)"),
	},
	RerankThresholds: map[int]Threshold{
		10: rerank(0.75, "seed 003 §7 (rerank nDCG@10)"),
	},
	HigherIsBetter: true,
	Compute:        ndcg,
}

func ndcg(q *Query, k int) float64 {
	dcg := 0.0
	for i, c := range top(q, k) {
		if c.Judged && c.Grade > 0 {
			dcg += float64(c.Grade) / fmath.Log2(float64(i+2))
		}
	}
	ideal := append([]int(nil), q.Rel...)
	sort.Sort(sort.Reverse(sort.IntSlice(ideal)))
	if k > 0 && k < len(ideal) {
		ideal = ideal[:k]
	}
	idcg := 0.0
	for i, g := range ideal {
		if g > 0 {
			idcg += float64(g) / fmath.Log2(float64(i+2))
		}
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}
