// Package metrics is the registry of every per-item metric eval752 reports:
// one file per metric family, each with a descriptor (name with parameters,
// help, formula, source), in one ordered registry, and one parser for metric
// specs such as "ndcg@10" or "recall@10".
package metrics

// Group orders metrics in reports.
type Group string

const (
	GroupRetrieval Group = "retrieval"
	GroupSafety    Group = "safety"
	GroupAnswer    Group = "answer"
	GroupRefusal   Group = "refusal"
	GroupCost      Group = "cost"
)

// Descriptor describes one metric instance (parameters bound: "ndcg@10").
type Descriptor struct {
	Name    string `json:"name"`    // "ndcg@10", "mrr@10", "false_recall@10", "answer.exact"
	Family  string `json:"family"`  // "ndcg", "mrr", …: the file that implements it
	Group   Group  `json:"group"`   //
	K       int    `json:"k"`       // cutoff, 0 when none
	Help    string `json:"help"`    // one or two sentences, shown by the page and the README
	Formula string `json:"formula"` // plain-text formula
	Source  string `json:"source"`  // seed section or paper
	// Threshold is the target from seed 000 §4 or seed 003 §7, "" when the
	// seeds only ask to report it. Op is ">=" or "<=".
	Threshold *Threshold `json:"threshold,omitempty"`
	// RerankThreshold is seed 003 §7's target for a run's final, reranked
	// ranking (重排) where it differs from the first-stage one (初召回):
	// Hit@5 ≥ 0.80, MRR@10 ≥ 0.70, nDCG@10 ≥ 0.75.
	RerankThreshold *Threshold `json:"rerank_threshold,omitempty"`
	// HigherIsBetter orients paired comparisons (false for false_recall, latency, cost).
	HigherIsBetter bool `json:"higher_is_better"`
	// Binary metrics take values in {0,1} per item; McNemar applies to them.
	Binary bool `json:"binary"`
}

// Threshold is a pass/fail target.
type Threshold struct {
	Op     string  `json:"op"` // ">=", "<=" or "<"
	Value  float64 `json:"value"`
	Source string  `json:"source"`
	// Stage is "initial" for seed 003 §7's first-stage (初召回) targets,
	// which a reranked ranking is not judged by, "rerank" for its 重排
	// targets, "" for targets of every ranking.
	Stage string `json:"stage,omitempty"`
}

// Pass reports whether v meets t.
func (t Threshold) Pass(v float64) bool {
	switch t.Op {
	case "<=":
		return v <= t.Value
	case "<":
		return v < t.Value
	}
	return v >= t.Value
}
