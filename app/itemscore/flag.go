package itemscore

import (
	"slices"
	"strings"

	"eval752/app/metrics"
)

// FlagsFor lists the flags the aggregated figure of metric should carry
// because of item it, in this order — every one that applies, so that one
// flag never hides another (an item both unjudged and with an unresolved
// judgment is counted under both on its nDCG figures):
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
// None for missing items (they are reported as missing).
func FlagsFor(metric string, it ItemScore) []string {
	if it.Missing {
		return nil
	}
	d, err := metrics.Parse(metric)
	if err != nil {
		return nil
	}
	return FlagsForParsed(d, metric, &it)
}

// FlagsForParsed is FlagsFor with metric parsed by the caller (d =
// metrics.Parse(metric)), for a caller that asks about many items.
func FlagsForParsed(d metrics.Descriptor, metric string, it *ItemScore) []string {
	if it.Missing || (d.Group != metrics.GroupRetrieval && d.Group != metrics.GroupSafety) {
		return nil
	}
	var out []string
	if d.Group == metrics.GroupRetrieval && d.Family != "judged" {
		if d.K > 0 {
			j, ok := it.Values.Get("judged@" + strings.TrimPrefix(metric, d.Family+"@"))
			if (ok && j < 1) || (!ok && it.Unjudged > 0) {
				out = append(out, "unjudged")
			}
		} else if it.Unjudged > 0 {
			out = append(out, "unjudged")
		}
	}
	if d.Family == "ndcg" && slices.Contains(it.Flags, "unresolved-judgment") {
		out = append(out, "unresolved-judgment")
	}
	// safety metrics do not read the gold (they look at observed_at,
	// holders and abstention), so an ambiguous gold does not mark them
	if d.Group == metrics.GroupRetrieval && slices.Contains(it.Flags, "ambiguous-gold") {
		out = append(out, "ambiguous-gold")
	}
	return out
}

// FlagFor is the first of FlagsFor ("" when none): the one flag a single
// mark can show. Figures count every flag (FlagsFor).
func FlagFor(metric string, it ItemScore) string {
	if fl := FlagsFor(metric, it); len(fl) > 0 {
		return fl[0]
	}
	return ""
}
