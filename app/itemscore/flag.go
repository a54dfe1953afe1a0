package itemscore

import (
	"slices"
	"strings"

	"eval752/app/metrics"
)

// FlagFor says whether the aggregated figure of metric should carry a flag
// because of item it:
//
//   - "unjudged": the metric looks at a depth holding unjudged candidates —
//     judged@k < 1 for a retrieval metric at cutoff k; ItemScore.Unjudged > 0
//     (within the scoring depth) for mrr, ndcg, map, rprec and bpref without
//     a cutoff. Seed 003 §7: unjudged candidates must not count as 0, so
//     such a figure is a lower bound.
//   - "unresolved-judgment": an nDCG figure of an item whose graded
//     judgments did not all resolve to the run's chunks (seed 003 §4.3:
//     such a run should not get nDCG without re-judging).
//   - "ambiguous-gold": a retrieval figure of an item whose gold resolved
//     with a problem (listed in Set.Ambiguities).
//
// "" otherwise, and always for missing items (they are reported as missing).
func FlagFor(metric string, it ItemScore) string {
	if it.Missing {
		return ""
	}
	d, err := metrics.Parse(metric)
	if err != nil || (d.Group != metrics.GroupRetrieval && d.Group != metrics.GroupSafety) {
		return ""
	}
	if d.Group == metrics.GroupRetrieval && d.Family != "judged" {
		if d.K > 0 {
			if j, ok := it.Values["judged@"+strings.TrimPrefix(metric, d.Family+"@")]; ok && j < 1 {
				return "unjudged"
			}
			if _, ok := it.Values["judged@"+strings.TrimPrefix(metric, d.Family+"@")]; !ok && it.Unjudged > 0 {
				return "unjudged"
			}
		} else if it.Unjudged > 0 {
			return "unjudged"
		}
	}
	if d.Family == "ndcg" && slices.Contains(it.Flags, "unresolved-judgment") {
		return "unresolved-judgment"
	}
	// safety metrics do not read the gold (they look at observed_at,
	// holders and abstention), so an ambiguous gold does not mark them
	if d.Group == metrics.GroupRetrieval && slices.Contains(it.Flags, "ambiguous-gold") {
		return "ambiguous-gold"
	}
	return ""
}
