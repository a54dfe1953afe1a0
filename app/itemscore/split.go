package itemscore

import (
	"fmt"
	"slices"
	"strings"

	"eval752/app/metrics"
	"eval752/app/report"
)

// Splits lists the distinct "split" strata of the units, in unit order
// (units without a split are not listed).
func (s *Set) Splits() []string {
	var out []string
	for _, u := range s.Units {
		if v, ok := u.Strata["split"]; ok && v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// OnlySplit returns a copy of s restricted to the units whose "split"
// stratum is name (`--split NAME` of score, compare): every run keeps its
// items of those units, in the same order, and its scope is narrowed to the
// sets those units belong to; the resolution tables keep the rows of the
// kept units and Metrics the metrics one of them has. A unit without a split
// is left out. It is an error when no unit has the split.
func (s *Set) OnlySplit(name string) (*Set, error) {
	var keep []int
	ids := map[string]bool{}
	for i, u := range s.Units {
		if u.Strata["split"] == name {
			keep = append(keep, i)
			ids[u.ID] = true
		}
	}
	if len(keep) == 0 {
		have := s.Splits()
		if len(have) == 0 {
			return nil, fmt.Errorf("--split %s: no unit has a split (the inputs carry no split field)", name)
		}
		return nil, fmt.Errorf("--split %s: no unit of that split (splits: %s)", name, strings.Join(have, ", "))
	}
	out := &Set{Config: append(slices.Clone(s.Config), report.KV{Key: "split", Value: name + " (only the units of this split are scored)"}), Notes: s.Notes, CIs: s.CIs}
	sets := map[string]bool{}
	for _, i := range keep {
		out.Units = append(out.Units, s.Units[i])
		sets[s.Units[i].Set] = true
	}
	for _, rs := range s.Runs {
		n := rs
		n.Items = make([]ItemScore, len(keep))
		for k, i := range keep {
			n.Items[k] = rs.Items[i]
		}
		if rs.Sets != nil {
			n.Sets = slices.DeleteFunc(slices.Clone(rs.Sets), func(x string) bool { return !sets[x] })
		}
		out.Runs = append(out.Runs, n)
	}
	in := func(r Resolved) bool { return !ids[r.ItemID] }
	out.Resolution = slices.DeleteFunc(slices.Clone(s.Resolution), in)
	out.Ambiguities = slices.DeleteFunc(slices.Clone(s.Ambiguities), in)
	if out.Resolution == nil {
		out.Resolution = []Resolved{}
	}
	if out.Ambiguities == nil {
		out.Ambiguities = []Resolved{}
	}
	have := map[string]bool{}
	for _, rs := range out.Runs {
		for _, it := range rs.Items {
			for k := range it.Values.Names() {
				have[k] = true
			}
		}
	}
	out.Metrics = []metrics.Descriptor{}
	for _, d := range s.Metrics {
		if have[d.Name] {
			out.Metrics = append(out.Metrics, d)
		}
	}
	return out, nil
}
