package metrics

// Refusal metrics: per-item indicators with "should refuse" (unanswerable /
// refuse / answerable=false) as the positive class. The aggregator sums them
// over a stratum:
//
//	precision = Σtp / (Σtp + Σfp)   recall = Σtp / (Σtp + Σfn)
//	F1 = 2·P·R / (P + R)
//
// A refusal is the result's own refused flag when present, else a response
// that contains a refusal phrase (package answer).

var refusalDetectedFamily = Family{
	Name: "refusal.detected", Group: GroupRefusal, Binary: true, HigherIsBetter: true,
	Help:    "The run refused (refused=true, or a refusal phrase such as 「资料中没有相关信息」 in the response). Its mean on unanswerable items is the refusal rate.",
	Formula: "[refused]", Source: "seed 002 (拒答: 资料中没有相关信息); seed 003 §7",
}

var refusalTPFamily = Family{
	Name: "refusal.tp", Group: GroupRefusal, Binary: true, HigherIsBetter: true,
	Help:    "Refusal true positive: the item should be refused and the run refused. Summed with refusal.fp / refusal.fn into refusal precision, recall and F1.",
	Formula: "[should_refuse ∧ refused]", Source: "seed 003 §7 (拒答 F1 ≥ 0.85, 正类 should_refuse)",
	Thresholds: nil,
}

var refusalFPFamily = Family{
	Name: "refusal.fp", Group: GroupRefusal, Binary: true,
	Help:    "Refusal false positive: the item is answerable and the run refused (over-refusal).",
	Formula: "[¬should_refuse ∧ refused]", Source: "seed 003 §7, §9 (REFUSAL_OVER)",
}

var refusalFNFamily = Family{
	Name: "refusal.fn", Group: GroupRefusal, Binary: true,
	Help:    "Refusal false negative: the item should be refused and the run answered (or has no result).",
	Formula: "[should_refuse ∧ ¬refused]", Source: "seed 003 §7, §9 (REFUSAL_UNDER)",
}

// RerankGainThreshold is seed 003 §7's target for the rerank gain: the
// paired difference of nDCG@10 between a run's reranked ranking and its own
// first-stage one.
var RerankGainThreshold = th(">=", 0.05, "seed 003 §7 (重排收益 nDCG@10 绝对提升)")

// RefusalF1Threshold is seed 003 §7's target for the aggregated refusal F1.
var RefusalF1Threshold = th(">=", 0.85, "seed 003 §7 (拒答 F1)")

// Aggregate-only refusal figures: the aggregator computes them from the
// per-item indicators above; they never appear in ItemScore.Values.

var refusalPrecisionFamily = Family{
	Name: "refusal.precision", Group: GroupRefusal, HigherIsBetter: true,
	Help:    "Aggregate: share of the run's refusals that were on should-refuse items.",
	Formula: "Σtp / (Σtp + Σfp)  (undefined when the run never refused)", Source: "seed 003 §7",
}

var refusalRecallFamily = Family{
	Name: "refusal.recall", Group: GroupRefusal, HigherIsBetter: true,
	Help:    "Aggregate: share of should-refuse items the run refused.",
	Formula: "Σtp / (Σtp + Σfn)", Source: "seed 003 §7",
}

var refusalF1Family = Family{
	Name: "refusal.f1", Group: GroupRefusal, HigherIsBetter: true,
	Help:       "Aggregate: harmonic mean of refusal precision and recall, should_refuse = positive class.",
	Formula:    "2·P·R / (P + R)  (0 when P + R = 0)",
	Source:     "seed 003 §7 (拒答 F1 ≥ 0.85)",
	Thresholds: map[int]Threshold{0: RefusalF1Threshold},
}
